/** Where a run reads and writes. Tests pass their own, so nothing touches the real terminal or home. */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin: AsyncIterable<string | Buffer> & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** Colour only for a person at a terminal who has not asked for none (https://no-color.org). */
export function useColor(io: CliIO): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR;
}
