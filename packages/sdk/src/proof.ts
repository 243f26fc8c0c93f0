import { PROOF_JWS_TYPE, type ProofKeySet, type ProofStatement, ProofStatementSchema } from '@scrub/contract';
import { ScrubError } from './errors.js';

/**
 * Why a proof did not verify: `malformed` (not a proof of scrub), `unknown_key` (no key with its
 * `kid` in the keys given), `bad_signature` (changed after signing, or not signed by that key),
 * `input_mismatch` / `result_mismatch` (the file given is not the one the proof names).
 */
export type ProofFailure =
  | 'malformed'
  | 'unknown_key'
  | 'bad_signature'
  | 'input_mismatch'
  | 'result_mismatch';

export class ProofVerificationError extends ScrubError {
  readonly code: ProofFailure;

  constructor(code: ProofFailure, message: string) {
    super(message);
    this.code = code;
  }
}

/** A file's bytes, or its SHA-256 in hex when it was hashed already (a large file, streamed). */
export type ProofFile = Uint8Array | { sha256: string };

export interface VerifyProofOptions {
  /** The service's public keys (`scrub.proofKeys()`, or a copy kept with the proof). */
  keys: ProofKeySet;
  /** The file as uploaded: checked against the statement's `input.sha256`. */
  input?: ProofFile;
  /** The result file, unfiltered: checked against the statement's `result.sha256`. */
  result?: ProofFile;
}

export interface VerifiedProof {
  statement: ProofStatement;
  /** The key that signed it. */
  kid: string;
  /** Which files were compared with the statement's hashes (and matched). */
  checked: { input: boolean; result: boolean };
}

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
};

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

async function sha256Of(file: ProofFile): Promise<string> {
  if (!(file instanceof Uint8Array)) return file.sha256.toLowerCase();
  return hex(await crypto.subtle.digest('SHA-256', new Uint8Array(file)));
}

function decodeJson(part: string, what: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(fromBase64Url(part)));
  } catch {
    throw new ProofVerificationError('malformed', `The proof's ${what} is not base64url JSON.`);
  }
}

/**
 * Checks a proof of scrub offline: its Ed25519 signature against the keys given, then, for the
 * files given, their SHA-256 against the statement. Answers the statement, or throws a
 * `ProofVerificationError` saying what did not hold. Uses only Web Crypto: runs in Node 22+ and
 * in browsers with Ed25519 (Chrome 137, Firefox 129, Safari 17).
 */
export async function verifyProof(jws: string, options: VerifyProofOptions): Promise<VerifiedProof> {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) {
    throw new ProofVerificationError(
      'malformed',
      'A proof is a compact JWS: three base64url parts separated by dots.',
    );
  }
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const header = decodeJson(headerPart, 'header') as { alg?: unknown; kid?: unknown; typ?: unknown };
  if (header.alg !== 'EdDSA' || header.typ !== PROOF_JWS_TYPE || typeof header.kid !== 'string') {
    throw new ProofVerificationError(
      'malformed',
      `Not a proof of scrub: its header must name alg EdDSA, typ ${PROOF_JWS_TYPE} and a kid.`,
    );
  }
  const jwk = options.keys.keys.find((key) => key.kid === header.kid);
  if (!jwk) {
    throw new ProofVerificationError(
      'unknown_key',
      `The proof was signed with key ${header.kid}, which is not among the keys given: fetch the service's keys again, or check that the proof comes from this service.`,
    );
  }
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new ProofVerificationError(
      'malformed',
      `Key ${header.kid} is not an Ed25519 public key (OKP, crv Ed25519).`,
    );
  }
  const key = await crypto.subtle.importKey('raw', fromBase64Url(jwk.x), { name: 'Ed25519' }, false, [
    'verify',
  ]);
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  const valid = await crypto.subtle.verify({ name: 'Ed25519' }, key, fromBase64Url(signaturePart), signed);
  if (!valid) {
    throw new ProofVerificationError(
      'bad_signature',
      `The signature does not match: the proof was changed after it was signed, or key ${header.kid} did not sign it.`,
    );
  }
  const parsed = ProofStatementSchema.safeParse(decodeJson(payloadPart, 'statement'));
  if (!parsed.success)
    throw new ProofVerificationError('malformed', 'The signed statement is not a proof of scrub statement.');
  const statement = parsed.data;
  const checked = { input: false, result: false };
  for (const which of ['input', 'result'] as const) {
    const file = options[which];
    if (file === undefined) continue;
    if (statement.type !== 'scrub.file') {
      throw new ProofVerificationError(
        `${which}_mismatch`,
        `A proof of one /verify answer names no ${which} file.`,
      );
    }
    const actual = await sha256Of(file);
    const expected = statement[which].sha256;
    if (actual !== expected) {
      throw new ProofVerificationError(
        `${which}_mismatch`,
        `The ${which === 'input' ? 'uploaded' : 'result'} file does not match the proof: its SHA-256 is ${actual}, the proof states ${expected}. The file was changed, or it is another file.`,
      );
    }
    checked[which] = true;
  }
  return { statement, kid: header.kid, checked };
}
