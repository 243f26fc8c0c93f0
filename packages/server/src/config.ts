import { join } from 'node:path';
import { z } from 'zod';
import type { DatabaseTarget } from './storage/database.js';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  database: DatabaseTarget;
  logLevel: string;
  production: boolean;
  /** Largest JSON body the API reads. */
  maxBodyBytes: number;
  /** Largest CSV upload accepted (bulk jobs). */
  maxUploadBytes: number;
}

const MiB = 1024 * 1024;

const EnvSchema = z.object({
  SCRUB_HOST: z.string().min(1).default('127.0.0.1'),
  SCRUB_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  SCRUB_DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SCRUB_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
  SCRUB_MAX_BODY_BYTES: z.coerce.number().int().positive().default(MiB),
  SCRUB_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * MiB),
});

/** A setting that cannot be used: the service refuses to start and says which and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the service's settings from the environment; docs/operations.md lists them all. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid settings: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = e.SCRUB_DATA_DIR ?? join(process.cwd(), '.data');
  return {
    host: e.SCRUB_HOST,
    port: e.SCRUB_PORT,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: join(dataDir, 'pglite') },
    logLevel: e.SCRUB_LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    maxBodyBytes: e.SCRUB_MAX_BODY_BYTES,
    maxUploadBytes: e.SCRUB_MAX_UPLOAD_BYTES,
    ...overrides,
  };
}
