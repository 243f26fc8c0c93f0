/** Questions asked at a terminal. Tests script the answers; real runs use @inquirer/prompts on stderr. */
export interface Prompter {
  input(message: string): Promise<string>;
  /** Masked: what is typed never shows. */
  password(message: string): Promise<string>;
  confirm(message: string, defaultAnswer: boolean): Promise<boolean>;
  /** One of a list: people read `name`, the answer is its `value`. */
  select<T>(message: string, choices: { name: string; value: T }[]): Promise<T>;
}

/** Where a run reads and writes. Tests pass their own, so nothing touches the real terminal or home. */
export interface CliIO {
  /** Downloads write bytes, and wait for `drain` when `write` says the buffer is full. */
  stdout: {
    write(chunk: string | Uint8Array): unknown;
    isTTY?: boolean;
    once?(event: 'drain', listener: () => void): unknown;
  };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin: AsyncIterable<string | Buffer> & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  prompter: Prompter;
}

/** Prompts write to stderr, so stdout keeps data only; @inquirer/prompts is loaded only to ask. */
function inquirerPrompter(): Prompter {
  const context = { input: process.stdin, output: process.stderr };
  return {
    async input(message) {
      const { input } = await import('@inquirer/prompts');
      return input({ message }, context);
    },
    async password(message) {
      const { password } = await import('@inquirer/prompts');
      return password({ message, mask: true }, context);
    },
    async confirm(message, defaultAnswer) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: defaultAnswer }, context);
    },
    async select(message, choices) {
      const { select } = await import('@inquirer/prompts');
      return select({ message, choices, pageSize: 12 }, context);
    },
  };
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    prompter: inquirerPrompter(),
  };
}

/** Colour only for a person at a terminal who has not asked for none (https://no-color.org). */
export function useColor(io: CliIO): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR;
}

/** The lines of a stream as they arrive, so a huge input is never held whole. Lines keep any `\r`. */
export async function* readLines(source: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  // Streaming decode: a character split across two chunks is not mangled.
  const decoder = new TextDecoder();
  let partial = '';
  for await (const chunk of source) {
    partial += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    yield* lines;
  }
  partial += decoder.decode();
  if (partial) yield partial;
}
