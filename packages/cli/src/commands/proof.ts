import { Command } from 'commander';
import type { Context } from '../context.js';

export function proofCommand(context: Context): Command {
  const proof = new Command('proof')
    .description("get a completed bulk job's proof of scrub: a statement signed by the service")
    .argument('<file_reference>', 'the file reference, from scrub bulk or scrub files')
    .option('-o, --output <file>', 'write the proof (a JWS) to this file instead of stdout')
    .action(async (fileReference: string, options: unknown) => {
      const { proofGet } = await import('../actions/proof.js');
      await proofGet(fileReference, options, context);
    });
  proof
    .command('verify')
    .description(
      "check a proof's signature and, offline, the files' SHA-256 against it; exit 1 if anything does not match",
    )
    .argument('<proof_file>', 'the proof, as scrub proof saved it ("-" reads stdin)')
    .option('--input <file>', 'the CSV as uploaded: must be the file the proof names')
    .option('--result <file>', 'the result CSV, unfiltered: must be the file the proof names')
    .option('--keys <file>', "the service's public keys (JWKS) saved earlier: no network needed")
    .option('--keys-url <url>', "fetch the public keys from this URL (default: the API's well-known URL)")
    .action(async (proofFile: string, options: unknown) => {
      const { proofVerify } = await import('../actions/proof.js');
      await proofVerify(proofFile, options, context);
    });
  return proof;
}
