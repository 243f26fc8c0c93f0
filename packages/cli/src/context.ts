import type { Scrub } from '@scrub/sdk';
import type { ConfigStore, Profile } from './config-store.js';
import type { CliIO } from './io.js';
import { parseInput } from './validate.js';

const DEFAULT_API_URL = 'http://localhost:8787';

export interface GlobalOptions {
  apiUrl?: string;
  profile?: string;
  json?: boolean;
  input: boolean;
}

/**
 * What commands share: the streams, the global options, the profile and the API client. Everything
 * is loaded on first use, so `scrub --help` and `scrub --version` load neither conf, zod nor the SDK.
 */
export class Context {
  #store: ConfigStore | undefined;
  #profile: Profile | undefined;

  constructor(
    readonly io: CliIO,
    private readonly readOptions: () => GlobalOptions,
  ) {}

  get options(): GlobalOptions {
    return this.readOptions();
  }

  /** Errors are JSON too when the caller asked for JSON, by flag or by the profile's `output`. */
  get jsonErrors(): boolean {
    return this.options.json === true || this.#profile?.output === 'json';
  }

  async store(): Promise<ConfigStore> {
    if (!this.#store) {
      const { openConfigStore } = await import('./config-store.js');
      this.#store = openConfigStore(this.io.env);
    }
    return this.#store;
  }

  async profileName(): Promise<string> {
    const { profileName } = await import('./config-store.js');
    const { profile } = this.options;
    if (profile !== undefined) return parseInput(profileName('--profile'), profile);
    const fromEnv = this.io.env.SCRUB_PROFILE;
    if (fromEnv) return parseInput(profileName('SCRUB_PROFILE'), fromEnv);
    return 'default';
  }

  async profile(): Promise<Profile> {
    if (!this.#profile) this.#profile = (await this.store()).profile(await this.profileName());
    return this.#profile;
  }

  async output(): Promise<'table' | 'json'> {
    if (this.options.json) return 'json';
    return (await this.profile()).output ?? 'table';
  }

  /** API URL: --api-url, then SCRUB_API_URL, then the profile, then the local server `pnpm start` runs. */
  async resolveApiUrl(): Promise<string> {
    const { httpUrl } = await import('./config-store.js');
    const { apiUrl } = this.options;
    if (apiUrl !== undefined) return parseInput(httpUrl('--api-url'), apiUrl);
    const fromEnv = this.io.env.SCRUB_API_URL;
    if (fromEnv) return parseInput(httpUrl('SCRUB_API_URL'), fromEnv);
    return (await this.profile()).api_url ?? DEFAULT_API_URL;
  }

  /** Credentials: SCRUB_API_KEY, then the profile's saved key (docs/cli.md gives the full order). */
  async client(): Promise<Scrub> {
    const apiUrl = await this.resolveApiUrl();
    const apiKey = this.io.env.SCRUB_API_KEY || (await this.profile()).api_key;
    const { Scrub } = await import('@scrub/sdk');
    return new Scrub({ baseURL: apiUrl, ...(apiKey ? { apiKey } : {}) });
  }
}
