import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../errors/config-error.js';

/** Where the registry inbox is: a folder on this machine, or a prefix of an S3 bucket. */
export type RegistryInboxTarget =
  | { kind: 'folder'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Ends with `/`, or is empty (the whole bucket). */
      prefix: string;
      region: string;
      endpoint: string | null;
      forcePathStyle: boolean;
    };

/**
 * The registry inbox (SCRUB_DNC_INBOX): where the FTC's and states' files are dropped to be
 * imported by the processes that run the bulk worker; null: no inbox. `pollSeconds`: how often it
 * is looked at. `ftcAccount`: the organisation's FTC subscription account number (SAN), recorded
 * with each federal list imported without one in its file name or `--ftc-account`.
 */
export interface RegistryInboxSettings {
  target: RegistryInboxTarget | null;
  pollSeconds: number;
  ftcAccount: string | null;
}

const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

function pollSecondsOf(env: NodeJS.ProcessEnv): number {
  const text = env.SCRUB_DNC_INBOX_POLL_SECONDS?.trim();
  if (!text) return 300;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 86_400) {
    throw new ConfigError(
      `Invalid settings: SCRUB_DNC_INBOX_POLL_SECONDS must be a whole number of seconds from 1 to 86400, not "${text}"`,
    );
  }
  return value;
}

function s3Target(env: NodeJS.ProcessEnv, bucket: string, prefix: string): RegistryInboxTarget {
  // The same S3 settings as the files' bucket; the region may also come from AWS's own variable.
  const region = env.SCRUB_S3_REGION?.trim() || env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim();
  if (!region) {
    throw new ConfigError(
      'Invalid settings: an S3 registry inbox (SCRUB_DNC_INBOX=s3://...) needs a region: set SCRUB_S3_REGION (or AWS_REGION)',
    );
  }
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket,
    prefix: trimmed === '' ? '' : `${trimmed}/`,
    region,
    endpoint: env.SCRUB_S3_ENDPOINT?.trim() || null,
    forcePathStyle: ['true', '1'].includes(env.SCRUB_S3_FORCE_PATH_STYLE?.trim() ?? ''),
  };
}

/** Reads SCRUB_DNC_INBOX (a folder, or `s3://bucket/prefix`), SCRUB_DNC_INBOX_POLL_SECONDS (default 300) and SCRUB_FTC_ACCOUNT. */
export function loadRegistryInboxSettings(env: NodeJS.ProcessEnv = process.env): RegistryInboxSettings {
  const inbox = env.SCRUB_DNC_INBOX?.trim() || null;
  const ftcAccount = env.SCRUB_FTC_ACCOUNT?.trim() || null;
  if (ftcAccount !== null && !/^[A-Za-z0-9-]{1,32}$/.test(ftcAccount)) {
    throw new ConfigError(
      'Invalid settings: SCRUB_FTC_ACCOUNT is your FTC subscription account number: letters, digits and dashes, at most 32',
    );
  }
  let target: RegistryInboxTarget | null = null;
  if (inbox?.startsWith('s3://')) {
    const match = S3_URL.exec(inbox);
    if (match === null) {
      throw new ConfigError(
        `Invalid settings: SCRUB_DNC_INBOX "${inbox}" is not s3://<bucket>/<prefix> with a valid bucket name`,
      );
    }
    target = s3Target(env, match[1]!, match[2] ?? '');
  } else if (inbox !== null) {
    target = { kind: 'folder', dir: isAbsolute(inbox) ? inbox : resolve(inbox) };
  }
  return { target, pollSeconds: pollSecondsOf(env), ftcAccount };
}
