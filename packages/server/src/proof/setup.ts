import { join } from 'node:path';
import type { ServerConfig } from '../config/config.js';
import { loadProofKeys } from './proof-keys.js';
import { ProofSigner } from './proof-signer.js';

/** Where the embedded setup keeps its proof keys: the data directory, except beside an in-memory database (tests). */
export function proofKeyDir(config: Pick<ServerConfig, 'database' | 'dataDir'>): string | null {
  const inMemory = config.database.kind === 'pglite' && config.database.dataDir === null;
  return inMemory ? null : join(config.dataDir, 'proof');
}

/** The signer, with SCRUB_PROOF_SIGNING_KEY or the data directory's key. */
export async function setUpProofSigner(config: ServerConfig, publicUrl: () => string): Promise<ProofSigner> {
  return new ProofSigner(await loadProofKeys(config.proofKeys, proofKeyDir(config)), publicUrl);
}
