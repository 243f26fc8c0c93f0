import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A closing service's deadline (SCRUB_SHUTDOWN_GRACE_SECONDS from the start of its close) and what
 * it had to cut when the deadline came: connections still open, a job put back in the queue.
 */
export class Shutdown {
  readonly #deadline = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  readonly #cut: string[] = [];

  constructor(readonly graceMs: number) {}

  /** Starts the grace period; a second call changes nothing. */
  begin(): void {
    if (this.#timer || this.#deadline.signal.aborted) return;
    this.#timer = setTimeout(() => this.#deadline.abort(), this.graceMs);
  }

  /** Aborts when the grace period is over: whatever is still running is cut then. */
  get deadline(): AbortSignal {
    return this.#deadline.signal;
  }

  recordCut(what: string): void {
    this.#cut.push(what);
  }

  /** What was cut at the deadline (empty: everything finished in time). */
  get cut(): readonly string[] {
    return this.#cut;
  }

  /** The service has closed: the deadline no longer matters. */
  end(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * Bounds the HTTP side of a close: when the service starts closing it stops accepting connections
 * (Fastify's close), idle keep-alive connections are closed and new requests on the others answer
 * 503; requests in flight may finish until the deadline, their answers closing their connections.
 * At the deadline every connection still open (a request in flight, a client that sent half a
 * request or nothing) is cut. `onClosing` runs as the close
 * begins, before the listener closes: what else should stop at once (jobs, long polls).
 */
export function installShutdown(app: FastifyInstance, shutdown: Shutdown, onClosing: () => void): void {
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  let closing = false;
  // An answer given while closing ends its connection: the client's next request goes elsewhere.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('preClose', async () => {
    closing = true;
    shutdown.begin();
    shutdown.deadline.addEventListener('abort', () => {
      if (open.size === 0) return;
      shutdown.recordCut(`${open.size} connection(s) still open`);
      app.server.closeAllConnections();
    });
    onClosing();
  });
  app.addHook('onClose', async () => shutdown.end());
}
