// Loaded into each `scrub` process of the customer-job benchmark when SCRUB_BENCH_PROFILE is set
// (`node --import ./phases.ts`): notes when each HTTP request of the process is created, when its
// body has all gone, when its answer's headers come (a streamed job's first result bytes) and when
// the answer ends, and when the process exits; in milliseconds since the process started, one
// line each, appended to the file SCRUB_BENCH_PHASES names. Node's fetch publishes these moments
// on diagnostics channels (undici's), so the CLI itself is not changed.

import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const file = process.env.SCRUB_BENCH_PHASES;
if (file) {
  const lines: string[] = [];
  const note = (what: string) => lines.push(`${performance.now().toFixed(0).padStart(6)} ms  ${what}`);
  const named = new WeakMap<object, string>();
  const nameOf = (request: object) => named.get(request) ?? '?';
  note('preload ran');
  subscribe('undici:request:create', (message) => {
    const { request } = message as { request: { method: string; path: string } };
    named.set(request, `${request.method} ${request.path.split('?')[0]}`);
    note(`${nameOf(request)}: request created`);
  });
  subscribe('undici:request:bodySent', (message) => {
    note(`${nameOf((message as { request: object }).request)}: body sent`);
  });
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    note(`${nameOf(request)}: answer ${response.statusCode}, headers in (first bytes)`);
  });
  subscribe('undici:request:trailers', (message) => {
    note(`${nameOf((message as { request: object }).request)}: answer ended (last byte in)`);
  });
  process.on('exit', () => {
    note('process exits');
    appendFileSync(file, `${process.argv.slice(2).join(' ')}\n${lines.join('\n')}\n\n`);
  });
}
