import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { ProofKeySet, ProofStatement, VerifiedProof } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { count, formatPairs } from '../format.js';
import { parseInput } from '../validate.js';

const GetOptionsSchema = z.object({ output: z.string().min(1).optional() });

/**
 * `scrub proof <file_reference>`: the job's proof of scrub, a compact JWS, to stdout or `-o FILE`
 * (with `--json`, the JWS, the statement and where the keys are). Public, by reference.
 */
export async function proofGet(fileReference: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(GetOptionsSchema, rawOptions);
  const scrub = await context.client();
  const proof = await scrub.files.proof(fileReference);
  const text = (await context.output()) === 'json' ? `${JSON.stringify(proof, null, 2)}\n` : `${proof.jws}\n`;
  if (options.output === undefined) {
    context.io.stdout.write(text);
    return;
  }
  await writeFile(options.output, text);
  context.io.stderr.write(
    `Proof of ${proof.statement.file_name} saved to ${options.output}. Check it with: scrub proof verify ${options.output}\n`,
  );
}

const VerifyOptionsSchema = z
  .object({
    input: z.string().min(1).optional(),
    result: z.string().min(1).optional(),
    keys: z.string().min(1).optional(),
    keysUrl: z.url({ error: '--keys-url must be an http:// or https:// URL' }).optional(),
  })
  .refine((options) => !(options.keys && options.keysUrl), {
    error: '--keys reads the keys from a file, --keys-url fetches them: give one, not both',
  });

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readText(path: string, context: Context, what: string): Promise<string> {
  if (path === '-') {
    let text = '';
    for await (const chunk of context.io.stdin) text += chunk.toString();
    return text;
  }
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** A file `scrub proof` saved: the JWS itself, or the `--json` answer holding it. */
function jwsOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  try {
    const { jws } = JSON.parse(trimmed) as { jws?: unknown };
    if (typeof jws === 'string') return jws;
  } catch {}
  throw new CliError(
    'The proof file is JSON without a "jws" field: save the proof with scrub proof <file_reference> -o FILE.',
    1,
    'malformed',
  );
}

async function keysFor(options: z.infer<typeof VerifyOptionsSchema>, context: Context): Promise<ProofKeySet> {
  if (options.keys) {
    try {
      return JSON.parse(await readText(options.keys, context, 'the keys file')) as ProofKeySet;
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`${options.keys} is not a JWKS (JSON with a "keys" list).`);
    }
  }
  if (options.keysUrl) {
    const response = await fetch(options.keysUrl).catch((error: Error) => {
      throw new CliError(
        `Cannot fetch the keys from ${options.keysUrl}: ${error.message}`,
        1,
        'connection_error',
      );
    });
    if (!response.ok) throw new CliError(`${options.keysUrl} answered ${response.status}, not the keys.`);
    return (await response.json()) as ProofKeySet;
  }
  return (await context.client()).proofKeys();
}

function describe(statement: ProofStatement): [string, string][] {
  const registry = statement.ftc_registry
    ? `${statement.ftc_registry.version}${statement.ftc_registry.release_date ? '' : ' (no release date)'}`
    : 'not loaded: no number was checked against it';
  const common: [string, string][] = [
    ['Signed by', `${statement.iss} (key ${statement.kid})`],
    ['Account', statement.account.email ?? statement.account.id],
    ['Checked at', statement.checked_at],
    ['FTC registry', registry],
    ['Valid until', statement.valid_until ?? 'no date: the registry release date is not known'],
  ];
  if (statement.type === 'scrub.verify') {
    return [
      ['Number', statement.phone_number],
      ['Line type', statement.line_type],
      ['DNC', statement.dnc === null ? 'not checked' : String(statement.dnc)],
      ...common,
    ];
  }
  return [
    ['File', `${statement.file_name} (job ${statement.job_id})`],
    ['Rows', count(statement.input.rows)],
    ['Numbers checked', count(statement.numbers_checked)],
    [
      'DNC',
      `${count(statement.dnc_status.clean ?? 0)} clean, ${count(statement.dnc_status.dnc ?? 0)} DNC, ${count(statement.dnc_status.unchecked ?? 0)} unchecked`,
    ],
    ...restsOn(statement),
    ...common,
  ];
}

/** What else a job's answers rest on, as its statement names it: lists, reassigned source, line-type sources. */
function restsOn(statement: Extract<ProofStatement, { type: 'scrub.file' }>): [string, string][] {
  const rows: [string, string][] = [];
  if (statement.operator_lists !== undefined) {
    const lists = statement.operator_lists.map(
      (list) =>
        `${list.name} (${list.version}, ${list.released_on ? `released ${list.released_on}` : 'no release date'})`,
    );
    rows.push(['Operator lists', lists.join('; ')]);
  }
  if (statement.reassigned_source !== undefined) {
    const source = statement.reassigned_source;
    rows.push([
      'Reassigned numbers',
      source ? `${source.provider}, as of ${source.as_of}` : 'no data: every cell empty',
    ]);
  }
  if (statement.line_type_sources !== undefined) {
    const sources = Object.entries(statement.line_type_sources).map(
      ([name, rows]) => `${count(rows)} ${name}`,
    );
    rows.push(['Line types rest on', sources.length > 0 ? sources.join(', ') : 'no valid number']);
  }
  if (statement.carrier_lookups !== undefined) {
    const { provider, answered, not_answered } = statement.carrier_lookups;
    rows.push([
      'Carrier lookups',
      `${provider}: ${count(answered)} answered, ${count(not_answered)} not answered`,
    ]);
  }
  return rows;
}

/**
 * `scrub proof verify <proof_file>`: the signature against the service's keys (a saved JWKS with
 * `--keys`: no network), and the SHA-256 of `--input` and `--result` against the statement.
 * Exit 0 when all of it holds, 1 with what did not.
 */
export async function proofVerify(proofFile: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(VerifyOptionsSchema, rawOptions);
  const jws = jwsOf(await readText(proofFile, context, 'the proof file'));
  const sdk = await import('@scrub/sdk');
  const files: { input?: { sha256: string }; result?: { sha256: string } } = {};
  for (const which of ['input', 'result'] as const) {
    const path = options[which];
    if (path === undefined) continue;
    try {
      files[which] = { sha256: await sha256OfFile(path) };
    } catch (error) {
      throw new UsageError(
        `Cannot read --${which} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  let verified: VerifiedProof;
  try {
    verified = await sdk.verifyProof(jws, { keys: await keysFor(options, context), ...files });
  } catch (error) {
    if (error instanceof sdk.ProofVerificationError) {
      throw new CliError(`Proof NOT valid: ${error.message}`, 1, error.code);
    }
    throw error;
  }
  if ((await context.output()) === 'json') {
    context.io.stdout.write(`${JSON.stringify({ valid: true, ...verified }, null, 2)}\n`);
    return;
  }
  const checked = (which: 'input' | 'result') =>
    verified.checked[which] ? 'matches the proof' : `not checked (give --${which} FILE)`;
  context.io.stdout.write(
    `Proof valid: the signature is the service's.\n${formatPairs([
      ...describe(verified.statement),
      ...(verified.statement.type === 'scrub.file'
        ? ([
            ['Uploaded file', checked('input')],
            ['Result file', checked('result')],
          ] as [string, string][])
        : []),
    ])}`,
  );
}
