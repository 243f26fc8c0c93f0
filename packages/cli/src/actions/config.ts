import { z } from 'zod';
import type { Context } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import { type SettingKey, settingKeys, settingSchemas } from '../setting-schemas.js';
import { parseInput } from '../validate.js';

const KeySchema = z.enum(settingKeys, {
  error: (issue) => `unknown key "${String(issue.input)}"; valid keys: ${settingKeys.join(', ')}`,
});

const pipeTheKey =
  'pipe it on stdin, e.g. printf %s "$KEY" | scrub config set api_key -, or set SCRUB_API_KEY';

/** Enough to tell two keys apart, too little to use one. */
export function maskSecret(secret: string): string {
  return secret.length < 12 ? '****' : `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

function shown(key: SettingKey, value: string): string {
  return key === 'api_key' ? maskSecret(value) : value;
}

async function readSecretFromStdin(io: CliIO): Promise<string> {
  // Typing a key at a terminal echoes it; a pipe keeps it off the screen and out of shell history.
  if (io.stdin.isTTY)
    throw new UsageError(`api_key is read from stdin, which is a terminal here: ${pipeTheKey}`);
  let text = '';
  for await (const chunk of io.stdin) text += chunk.toString();
  return text.trim();
}

export async function configGet(rawKey: string, context: Context): Promise<void> {
  const key = parseInput(KeySchema, rawKey);
  const name = await context.profileName();
  const value = (await context.profile())[key];
  if (value === undefined) throw new CliError(`${key} is not set in profile "${name}"`, 1, 'not_set');
  const output = await context.output();
  const line =
    output === 'json' ? JSON.stringify({ profile: name, key, value: shown(key, value) }) : shown(key, value);
  context.io.stdout.write(`${line}\n`);
}

export async function configSet(rawKey: string, rawValue: string, context: Context): Promise<void> {
  const key = parseInput(KeySchema, rawKey);
  if (key === 'api_key' && rawValue !== '-') {
    throw new UsageError(
      `secrets never go on the command line, where shell history and process lists keep them: ${pipeTheKey}`,
    );
  }
  const input = key === 'api_key' ? await readSecretFromStdin(context.io) : rawValue;
  const value = parseInput(settingSchemas[key], input);
  const name = await context.profileName();
  const store = await context.store();
  store.set(name, key, value);
  if (context.io.stderr.isTTY)
    context.io.stderr.write(`Saved ${key} in profile "${name}" (${store.path}).\n`);
}

export async function configList(context: Context): Promise<void> {
  const profile = await context.profile();
  const settings = Object.fromEntries(
    settingKeys.flatMap((key) => {
      const value = profile[key];
      return value === undefined ? [] : [[key, shown(key, value)]];
    }),
  );
  const output = await context.output();
  const text =
    output === 'json'
      ? `${JSON.stringify(settings, null, 2)}\n`
      : Object.entries(settings)
          .map(([key, value]) => `${key}=${value}\n`)
          .join('');
  context.io.stdout.write(text);
}
