import type { Scrub, TokenStorage } from '@scrub/sdk';
import type { ConfigStore } from './config-store.js';
import type { CliIO } from './io.js';
import type { Profile } from './setting-schemas.js';
import { parseInput } from './validate.js';

const DEFAULT_API_URL = 'http://localhost:8787';

/** Which credentials a call goes with, in the order they are looked for. */
export type CredentialSource = 'SCRUB_ACT_AS_TOKEN' | 'SCRUB_API_KEY' | 'session' | 'saved key' | 'none';

/** Runs one command line with these streams and returns its exit code: `program.ts`'s `run`. */
export type CommandRunner = (argv: readonly string[], io: CliIO) => Promise<number>;

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
  #profileAhead: Promise<void> | undefined;

  constructor(
    readonly io: CliIO,
    private readonly readOptions: () => GlobalOptions,
    /** For a command that runs another (`scrub admin as`), handed in so that no command imports the program. */
    readonly runCommand: CommandRunner,
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
    const { profileName } = await import('./setting-schemas.js');
    const { profile } = this.options;
    if (profile !== undefined) return parseInput(profileName('--profile'), profile);
    const fromEnv = this.io.env.SCRUB_PROFILE;
    if (fromEnv) return parseInput(profileName('SCRUB_PROFILE'), fromEnv);
    return 'default';
  }

  async profile(): Promise<Profile> {
    await this.#profileAhead;
    if (!this.#profile) this.#profile = (await this.store()).profile(await this.profileName());
    return this.#profile;
  }

  /**
   * Starts reading the profile (loading `conf`) while the command waits on the network, so that
   * a later `profile()` or `output()` at the end of a long job finds it read. A failure is left for
   * that later call to throw, where it always was.
   */
  readProfileAhead(): void {
    this.#profileAhead ??= this.profile().then(
      () => {},
      () => {},
    );
  }

  async output(): Promise<'table' | 'json'> {
    if (this.options.json) return 'json';
    return (await this.profile()).output ?? 'table';
  }

  /** API URL: --api-url, then SCRUB_API_URL, then the profile, then the local server `pnpm start` runs. */
  async resolveApiUrl(): Promise<string> {
    const { httpUrl } = await import('./setting-schemas.js');
    const { apiUrl } = this.options;
    if (apiUrl !== undefined) return parseInput(httpUrl('--api-url'), apiUrl);
    const fromEnv = this.io.env.SCRUB_API_URL;
    if (fromEnv) return parseInput(httpUrl('SCRUB_API_URL'), fromEnv);
    return (await this.profile()).api_url ?? DEFAULT_API_URL;
  }

  /** Prompts only for a person at a terminal who has not said --no-input. */
  get canPrompt(): boolean {
    return this.io.stdin.isTTY === true && this.options.input !== false;
  }

  /** Where the profile's session is kept: the config file, readable by its owner only. */
  async tokenStorage(): Promise<TokenStorage> {
    return (await this.store()).sessionStorage(await this.profileName());
  }

  /**
   * The client and the credentials it uses: an admin's act-as token (`scrub admin as` sets
   * SCRUB_ACT_AS_TOKEN for the command it runs), SCRUB_API_KEY, then the profile's session, then
   * the profile's saved key (docs/cli.md). Public calls work with none.
   */
  async credentials(): Promise<{ scrub: Scrub; source: CredentialSource }> {
    const baseURL = await this.resolveApiUrl();
    const { MemoryTokenStorage, Scrub } = await import('@scrub/sdk');
    const actAs = this.io.env.SCRUB_ACT_AS_TOKEN?.trim();
    if (actAs) {
      const admin = new Scrub({ baseURL, apiKey: null, tokenStorage: new MemoryTokenStorage() });
      return { scrub: admin.admin.users.asUser(actAs), source: 'SCRUB_ACT_AS_TOKEN' };
    }
    const fromEnv = this.io.env.SCRUB_API_KEY?.trim();
    if (fromEnv) {
      // A session stays on disk for later runs, but this run does not use it.
      const scrub = new Scrub({ baseURL, apiKey: fromEnv, tokenStorage: new MemoryTokenStorage() });
      return { scrub, source: 'SCRUB_API_KEY' };
    }
    const withSession = new Scrub({ baseURL, apiKey: null, tokenStorage: await this.tokenStorage() });
    if (withSession.auth.hasSession()) return { scrub: withSession, source: 'session' };
    const saved = (await this.profile()).api_key;
    if (saved) {
      const scrub = new Scrub({ baseURL, apiKey: saved, tokenStorage: new MemoryTokenStorage() });
      return { scrub, source: 'saved key' };
    }
    return { scrub: withSession, source: 'none' };
  }

  async client(): Promise<Scrub> {
    return (await this.credentials()).scrub;
  }

  /** For signing up, in and out: the profile's session, never an API key. */
  async authClient(): Promise<Scrub> {
    const { Scrub } = await import('@scrub/sdk');
    return new Scrub({
      baseURL: await this.resolveApiUrl(),
      apiKey: null,
      tokenStorage: await this.tokenStorage(),
    });
  }
}
