import { join } from 'node:path';
import { Command } from 'commander';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { rotateProofKey } from '../proof/proof-keys.js';
import { CommandError } from './handle-error.js';

export interface ProofKeyCommandIo {
  config(): ServerConfig;
  out(text: string): void;
}

const defaultIo: ProofKeyCommandIo = {
  config: () => loadConfig(),
  out: (text) => process.stdout.write(text),
};

/** `scrub-server proof-key rotate`: a new signing key for the embedded setup, the old ones kept published. */
export function proofKeyCommand(io: ProofKeyCommandIo = defaultIo): Command {
  const proofKey = new Command('proof-key').description('The key proofs of scrub are signed with');
  proofKey
    .command('rotate')
    .description(
      'Make a new signing key in the data directory; older keys stay published, so their proofs still verify',
    )
    .action(async () => {
      const config = io.config();
      if (config.proofKeys.signingKey !== null) {
        throw new CommandError(
          'SCRUB_PROOF_SIGNING_KEY is set: rotate by setting a new key there and adding the old public key to SCRUB_PROOF_RETIRED_KEYS (docs/operations.md).',
          2,
          'config',
        );
      }
      const kid = await rotateProofKey(join(config.dataDir, 'proof'));
      io.out(
        `New proof signing key ${kid}. Restart scrub-server to sign with it; proofs signed with the older keys still verify.\n`,
      );
    });
  return proofKey;
}
