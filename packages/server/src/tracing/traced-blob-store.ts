import { finished, type Readable, type Writable } from 'node:stream';
import { endWhenSettled, type Span, startSpan } from './spans.js';

/**
 * `store` (a BlobStore) with each call a span of the active one, `blob <method>`, and the file's
 * key: a promise's span ends when it settles, a write stream's when the stream is done.
 */
export function tracedBlobStore<T extends object>(store: T, kind: string): T {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const span = startSpan(`blob ${name}`, {
          kind: 'client',
          attributes: {
            'scrub.blob.store': kind,
            ...(typeof args[0] === 'string' && { 'scrub.blob.key': args[0] }),
          },
        });
        if (!span) return method.apply(target, args);
        return traced(span, () => method.apply(target, args));
      };
    },
  });
}

function traced(span: Span, call: () => unknown): unknown {
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    span.fail(error);
    span.end();
    throw error;
  }
  if (result instanceof Promise) endWhenSettled(span, result);
  else if (isStream(result)) {
    finished(result, (error) => {
      if (error) span.fail(error);
      span.end();
    });
  } else span.end();
  return result;
}

function isStream(value: unknown): value is Readable | Writable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Writable).on === 'function' &&
    'destroyed' in value
  );
}
