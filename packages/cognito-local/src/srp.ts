import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The server side of Cognito's SRP-6a variant, as amazon-cognito-identity-js 6.3.x speaks it:
 * the 3072-bit group of RFC 5054 with g = 2 and SHA-256, hashes over the bytes of "padded hex",
 * and a password claim signed with an HMAC key derived from the shared secret (HKDF, one block).
 */
const N_HEX =
  'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
  'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
  'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
  '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
  'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
  '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
  'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
  'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF';

export const N = BigInt(`0x${N_HEX}`);
export const g = 2n;

/** Even-length hex, with `00` in front when the top bit is set (the value stays positive). */
export function padHex(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return /^[89a-f]/.test(hex) ? `00${hex}` : hex;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hexHash = (hex: string) => sha256Hex(Buffer.from(hex, 'hex'));
const toBigInt = (hex: string) => BigInt(`0x${hex}`);

export const k = toBigInt(hexHash(padHex(N) + padHex(g)));

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = ((base % modulus) + modulus) % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

/** Parses a hex parameter from the client; null when it is not hex. */
export function parseHex(value: unknown): bigint | null {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{1,2048}$/.test(value)) return null;
  return toBigInt(value);
}

/** x = H(padHex(salt) || hex(H(poolName + userId + ":" + password))). */
function privateKey(poolName: string, userId: string, password: string, salt: bigint): bigint {
  return toBigInt(hexHash(padHex(salt) + sha256Hex(`${poolName}${userId}:${password}`)));
}

/** A fresh salt and the verifier v = g^x mod N for a user's password; the password is not kept. */
export function createVerifier(
  poolName: string,
  userId: string,
  password: string,
): { salt: string; verifier: string } {
  const salt = toBigInt(randomBytes(16).toString('hex'));
  const verifier = modPow(g, privateKey(poolName, userId, password, salt), N);
  return { salt: salt.toString(16), verifier: verifier.toString(16) };
}

/** The server's ephemeral pair: b secret, B = (k*v + g^b) mod N public. */
export function serverEphemeral(verifierHex: string): { b: bigint; B: bigint } {
  const v = toBigInt(verifierHex);
  for (;;) {
    const b = toBigInt(randomBytes(64).toString('hex'));
    const B = (k * v + modPow(g, b, N)) % N;
    if (B !== 0n) return { b, B };
  }
}

/** 16-byte HMAC key both sides derive: HKDF-SHA256(salt = padHex(u), ikm = padHex(S), "Caldera Derived Key"). */
function sessionKey(A: bigint, B: bigint, b: bigint, verifierHex: string): Buffer | null {
  const u = toBigInt(hexHash(padHex(A) + padHex(B)));
  if (u === 0n) return null;
  const v = toBigInt(verifierHex);
  const S = modPow((A * modPow(v, u, N)) % N, b, N);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex'))
    .update(Buffer.from(padHex(S), 'hex'))
    .digest();
  return createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]))
    .digest()
    .subarray(0, 16);
}

export interface PasswordClaim {
  poolName: string;
  userId: string;
  A: bigint;
  B: bigint;
  b: bigint;
  verifier: string;
  secretBlock: string;
  timestamp: string;
  signature: string;
}

/**
 * True when PASSWORD_CLAIM_SIGNATURE = base64 HMAC(K, poolName || userId || SECRET_BLOCK bytes ||
 * TIMESTAMP), which only a client that knows the password can compute.
 */
export function verifyPasswordClaim(claim: PasswordClaim): boolean {
  if (claim.A % N === 0n) return false;
  const key = sessionKey(claim.A, claim.B, claim.b, claim.verifier);
  if (!key) return false;
  const expected = createHmac('sha256', key)
    .update(
      Buffer.concat([
        Buffer.from(claim.poolName, 'utf8'),
        Buffer.from(claim.userId, 'utf8'),
        Buffer.from(claim.secretBlock, 'base64'),
        Buffer.from(claim.timestamp, 'utf8'),
      ]),
    )
    .digest();
  const given = Buffer.from(claim.signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIMESTAMP = /^(\w{3}) (\w{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) UTC (\d{4})$/;

/** Reads the client's TIMESTAMP (`Sun Nov 22 01:34:39 UTC 2026`, day not zero-padded); null if malformed. */
export function parseSrpTimestamp(value: string): Date | null {
  const m = TIMESTAMP.exec(value);
  if (!m) return null;
  const [, day, month, date, hh, mm, ss, year] = m;
  const monthIndex = MONTHS.indexOf(month!);
  if (monthIndex < 0 || !DAYS.includes(day!)) return null;
  const parsed = new Date(
    Date.UTC(Number(year), monthIndex, Number(date), Number(hh), Number(mm), Number(ss)),
  );
  if (Number.isNaN(parsed.getTime()) || parsed.getUTCDate() !== Number(date)) return null;
  return DAYS[parsed.getUTCDay()] === day ? parsed : null;
}
