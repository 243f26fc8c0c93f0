import {
  type DncListDate,
  FTC_REGISTRY_MAX_AGE_DAYS,
  type FtcRegistry,
  PROOF_JWS_TYPE,
  type ProofKeySet,
  type ProofStatement,
} from '@scrub/contract';
import { CompactSign } from 'jose';
import type { ProofKeys } from './proof-keys.js';

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The federal registry a check consulted: its version, and the release date recorded at import
 * (`dnc_lists`; null when none was). Jobs completed before list dates were recorded have no
 * `dnc_lists`: for them, as then, a version named by a date (`--version 2026-11-21`) is taken as
 * the release date.
 */
export function ftcRegistryOf(
  versions: Record<string, string>,
  dncLists: readonly DncListDate[] | null,
): FtcRegistry | null {
  const version = versions['dnc:federal'];
  if (version === undefined) return null;
  if (dncLists !== null) {
    const federal = dncLists.find((list) => list.list === 'federal');
    return { version, release_date: federal?.released_on ?? null };
  }
  const date = DATE.exec(version);
  const valid = date !== null && !Number.isNaN(Date.parse(`${version}T00:00:00Z`));
  return { version, release_date: valid ? version : null };
}

/**
 * The FTC rule: the registry must have been obtained no more than 31 days before a call. Counted
 * from the earlier of the check and the registry's release date (00:00 UTC), to the end of the
 * 31st day after it; null without a release date.
 */
export function validUntil(checkedAt: Date, registry: FtcRegistry | null): string | null {
  if (registry?.release_date == null) return null;
  const released = Date.parse(`${registry.release_date}T00:00:00Z`);
  const from = Math.min(released, checkedAt.getTime());
  return new Date(from + FTC_REGISTRY_MAX_AGE_DAYS * DAY_MS).toISOString();
}

/** A statement without what signing adds (issuer, key id, time of signing). */
export type UnsignedStatement<S extends ProofStatement = ProofStatement> = Omit<S, 'iss' | 'kid' | 'iat'>;

/** Signs proof statements with the service's current key: compact JWS, EdDSA (Ed25519). */
export class ProofSigner {
  constructor(
    private readonly keys: ProofKeys,
    /** The issuer: the service's public URL. */
    private readonly issuer: () => string,
  ) {}

  /** The public keys, current first, as published at the well-known URL. */
  get jwks(): ProofKeySet {
    return this.keys.jwks as ProofKeySet;
  }

  async sign<S extends ProofStatement>(
    unsigned: UnsignedStatement<S>,
  ): Promise<{ jws: string; statement: S }> {
    const statement = {
      iss: this.issuer(),
      kid: this.keys.kid,
      iat: Math.floor(Date.now() / 1000),
      ...unsigned,
    } as S;
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(statement)))
      .setProtectedHeader({ alg: 'EdDSA', kid: this.keys.kid, typ: PROOF_JWS_TYPE })
      .sign(this.keys.privateKey);
    return { jws, statement };
  }
}
