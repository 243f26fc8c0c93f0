import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Spans as the service's code sees them, with nothing of OpenTelemetry loaded: while tracing is
 * off (the default) no span exists and every helper here runs its work as it is. With tracing on,
 * a root span (an HTTP request, a bulk job, a webhook delivery) is started by the app's `Tracer`
 * (open-telemetry.ts, loaded only then), and the work done under it, database queries included,
 * adds children to whichever span is active: the active span is kept here, per async context.
 */

export type SpanAttributes = Record<string, string | number | boolean>;

export type SpanKind = 'server' | 'client' | 'internal';

export interface Span {
  /** 32 hex digits: the trace's id, shared by every span of the trace. */
  readonly traceId: string;
  /** The W3C `traceparent` header naming this span, for a request it makes to another service. */
  readonly traceparent: string;
  setAttributes(attributes: SpanAttributes): void;
  updateName(name: string): void;
  /** Marks the span failed with `error` (its type and message). */
  fail(error: unknown): void;
  /** Ends the span; later calls do nothing. */
  end(): void;
  /** A span under this one, started now. */
  child(name: string, options?: SpanOptions): Span;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: SpanAttributes;
}

/** Starts the spans with no parent in this process: the app's, when its tracing is on. */
export interface Tracer {
  /** A new trace's first span, or (given the caller's W3C `traceparent`) a child of the caller's span. */
  startRoot(name: string, options?: SpanOptions & { traceparent?: string }): Span;
  /** Sends every ended span still held; at close. */
  shutdown(): Promise<void>;
}

const active = new AsyncLocalStorage<Span>();

/** The span the running code is part of; undefined outside any (always, while tracing is off). */
export function activeSpan(): Span | undefined {
  return active.getStore();
}

/** Runs `work` with `span` active: the spans it starts are its children. */
export function runInSpan<T>(span: Span, work: () => T): T {
  return active.run(span, work);
}

/** A child of the active span, started now and ended by the caller; null outside any span. */
export function startSpan(name: string, options?: SpanOptions): Span | null {
  return active.getStore()?.child(name, options) ?? null;
}

/** Ends `span` when `settled` settles, failed if it rejects (which counts as handled). */
export function endWhenSettled(span: Span, settled: Promise<unknown>): void {
  settled.then(
    () => span.end(),
    (error: unknown) => {
      span.fail(error);
      span.end();
    },
  );
}

/** Runs `work` in a child of the active span; outside any span, as it is. */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | null) => Promise<T>,
): Promise<T> {
  const parent = active.getStore();
  if (!parent) return work(null);
  return runSpan(parent.child(name, options), work);
}

/**
 * Runs `work` in a span of its own for work no request asked for (a bulk job, a webhook
 * delivery): a child of the active span if there is one, else a root of `tracer`'s. Without a
 * tracer and outside any span, as it is.
 */
export function inRootSpan<T>(
  tracer: Tracer | null,
  name: string,
  options: SpanOptions,
  work: (span: Span | null) => Promise<T>,
): Promise<T> {
  const parent = active.getStore();
  if (parent) return runSpan(parent.child(name, options), work);
  if (!tracer) return work(null);
  return runSpan(tracer.startRoot(name, options), work);
}

async function runSpan<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await active.run(span, () => work(span));
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
