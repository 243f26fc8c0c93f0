import { type ChildProcess, fork } from 'node:child_process';
import { opened, type PGliteLink, PGliteThread, pgliteWorkerScript } from './pglite-thread.js';
import type { PGliteThreadOptions } from './pglite-thread-protocol.js';

/**
 * V8's flags for PGlite's process. `--liftoff-only` keeps PGlite's WebAssembly in V8's baseline
 * compiler: the optimising compiler takes about 600 MB for a second on one of PostgreSQL's
 * functions (docs/benchmarks.md, "Memory of the embedded default"). In a process of its own, the
 * flag slows PGlite's queries only, not the caller's JavaScript.
 */
export const PGLITE_PROCESS_FLAGS = ['--liftoff-only'];

/**
 * PGlite in a child process of its own, with the same calls and messages as `PGliteThread` (over
 * Node's IPC channel, values in the structured clone's form). The child ends with its parent: on
 * `close`, or when the channel closes because the parent died (even by SIGKILL). Should the child
 * end on its own, every request fails and `lost` settles with why.
 */
export class PGliteProcess extends PGliteThread {
  /** The child's pid, or undefined once it is gone. */
  readonly pid: number | undefined;

  private constructor(link: PGliteLink, pid: number | undefined) {
    super(link);
    this.pid = pid;
  }

  /** Starts the process and opens PGlite in it; refused once `timeoutMs` passes first. */
  static override async create(
    options: PGliteThreadOptions,
    timeoutMs = 120_000,
    execArgv: string[] = PGLITE_PROCESS_FLAGS,
  ): Promise<PGliteProcess> {
    const child = fork(pgliteWorkerScript(), [], {
      execArgv,
      serialization: 'advanced',
      // Not the terminal's Ctrl+C, which goes to the whole process group: the parent closes PGlite.
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const link = processLink(child);
    // The options go first, as a thread's `workerData` would: then PGlite opens and answers `ready`.
    child.send(options);
    return new PGliteProcess(await opened(link, timeoutMs, 'process'), child.pid);
  }
}

function processLink(child: ChildProcess): PGliteLink {
  return {
    // A send that fails (the child is gone) leaves its request waiting: the child's exit fails it, saying why.
    send: (request) => child.send(request, () => {}),
    attach(onReply, onEnd) {
      const onError = (error: Error) => onEnd(error);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        onEnd(
          new Error(
            `The embedded database's process ${child.pid} stopped (${signal ? `signal ${signal}` : `exit code ${code}`}).`,
          ),
        );
      child.on('message', onReply).on('error', onError).on('exit', onExit);
      return () => child.off('message', onReply).off('error', onError).off('exit', onExit);
    },
    ref() {
      child.ref();
      child.channel?.ref();
    },
    unref() {
      child.unref();
      child.channel?.unref();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // It exits on its own once its channel closes; a child that hangs is killed.
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
