import type { TokenStorage } from '@scrub/sdk';
import Conf from 'conf';
import { z } from 'zod';
import { CliError } from './errors.js';
import { type Profile, ProfileSchema, type SettingKey } from './setting-schemas.js';

export interface ConfigStore {
  readonly path: string;
  profile(name: string): Profile;
  set(name: string, key: SettingKey, value: string): void;
  /** The profile's signed-in session, kept by the SDK in the same owner-only file. */
  sessionStorage(name: string): TokenStorage;
}

const SessionSchema = z.record(z.string(), z.string());

/**
 * The config file holds `profiles.<name>.<key>`, and `sessions.<name>` for a signed-in profile,
 * readable by its owner only since it holds an API key and tokens. SCRUB_CONFIG_DIR moves it, so
 * tests and CI jobs never touch the real home directory.
 */
export function openConfigStore(env: NodeJS.ProcessEnv): ConfigStore {
  const conf = new Conf<{ profiles: Record<string, unknown>; sessions: Record<string, unknown> }>({
    projectName: 'scrub',
    projectSuffix: '',
    configFileMode: 0o600,
    ...(env.SCRUB_CONFIG_DIR ? { cwd: env.SCRUB_CONFIG_DIR } : {}),
  });
  return {
    path: conf.path,
    profile(name) {
      const parsed = ProfileSchema.safeParse(conf.get(`profiles.${name}`) ?? {});
      if (parsed.success) return parsed.data;
      const problems = parsed.error.issues.map((issue) => issue.message).join('; ');
      throw new CliError(
        `profile "${name}" in ${conf.path} is invalid: ${problems}. Correct it with scrub config set.`,
        1,
        'config_invalid',
      );
    },
    set(name, key, value) {
      conf.set(`profiles.${name}.${key}`, value);
    },
    sessionStorage(name) {
      const path = `sessions.${name}` as const;
      // Read from the file on every use: another run may have signed in or out meanwhile.
      const read = (): Record<string, string> => {
        const parsed = SessionSchema.safeParse(conf.get(path));
        return parsed.success ? parsed.data : {};
      };
      const write = (items: Record<string, string>) => {
        if (Object.keys(items).length === 0) conf.delete(path);
        else conf.set(path, items);
      };
      return {
        getItem: (key) => read()[key] ?? null,
        setItem: (key, value) => write({ ...read(), [key]: String(value) }),
        removeItem: (key) => {
          const items = read();
          if (!(key in items)) return;
          delete items[key];
          write(items);
        },
        clear: () => conf.delete(path),
      };
    },
  };
}
