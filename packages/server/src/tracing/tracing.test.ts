import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { BulkJobSchema, CreatedBulkJobSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { loadTracingSettings } from '../config/tracing-settings.js';

const LEADS = ['Name,Phone', 'Ann,(201) 234-5678', 'Bob,201.234.5678', 'Cid,800-555-1234'].join('\r\n');

/** The spans of one trace, once its span named `name` has ended (spans are exported as they end). */
async function traceOf(exporter: InMemorySpanExporter, find: (span: ReadableSpan) => boolean) {
  for (let i = 0; i < 200; i++) {
    const found = exporter.getFinishedSpans().find(find);
    if (found) {
      const traceId = found.spanContext().traceId;
      return {
        span: found,
        all: exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no such span was exported');
}

const childrenOf = (parent: ReadableSpan, spans: ReadableSpan[]) =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe.each(testDatabases())('OpenTelemetry traces on $kind', (kind) => {
  const exporter = new InMemorySpanExporter();
  let t: TestApp;
  let base: string;
  let key: Record<string, string>;
  let receiver: Server;
  let receiverUrl: string;
  const traceparents: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      traceparents.push(String(req.headers.traceparent));
      req.resume().on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        tracing: {
          serviceName: 'scrub-test',
          resourceAttributes: {},
          exporter: { kind: 'given', exporter },
          sampler: 'parentbased_always_on',
          samplerRatio: 1,
        },
        webhooks: { allowLocal: true, retryBaseMs: 50, retryForSeconds: 86_400, retentionDays: 30 },
      },
      { database: await kind.open() },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { id } = await ensureProfile(t.database.db, {
      sub: 'traced-1',
      email: 'traced@example.com',
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 50, kind: 'grant' });
    key = { 'x-api-key': (await rotateApiKey(t.database.db, id)).api_key };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('makes one trace of a charged check: the request, then its database queries under it', async () => {
    const res = await fetch(`${base}/verify?p=2012345678`, { headers: key });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);

    const { span: root, all } = await traceOf(
      exporter,
      (s) => s.kind === SpanKind.SERVER && s.spanContext().traceId === requestId,
    );
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.name).toBe('GET /verify');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/verify',
      'url.path': '/verify',
      'http.response.status_code': 200,
    });
    expect(root.resource.attributes['service.name']).toBe('scrub-test');
    // The key went in a header here, but a query's is never recorded: no attribute holds the query.
    expect(JSON.stringify(root.attributes)).not.toContain('p=2012345678');

    const queries = all.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    // The key's owner looked up, the charge written to the ledger: at least two statements.
    expect(queries.length).toBeGreaterThanOrEqual(2);
    for (const query of queries) {
      expect(query.kind).toBe(SpanKind.CLIENT);
      expect(query.attributes['scrub.db.engine']).toBe(kind.kind);
      expect(String(query.attributes['db.query.text'])).toMatch(/^\s*\w+/);
      // Each query sits inside the request's time.
      expect(query.startTime[0] * 1e9 + query.startTime[1]).toBeGreaterThanOrEqual(
        root.startTime[0] * 1e9 + root.startTime[1],
      );
    }
    expect(childrenOf(root, all).some((s) => s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    expect(queries.map((q) => q.attributes['db.operation.name'])).toEqual(expect.arrayContaining(['SELECT']));
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('answers a refusal with the trace id as its request id', async () => {
    const res = await fetch(`${base}/verify?p=2012345678`, { headers: { 'x-api-key': 'sk_wrong' } });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { request_id: string } };
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    const { span: root } = await traceOf(
      exporter,
      (s) => s.kind === SpanKind.SERVER && s.spanContext().traceId === body.error.request_id,
    );
    expect(root.attributes['http.response.status_code']).toBe(401);
    // A client's mistake is not the server's failure.
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("continues a caller's trace from its traceparent header", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${base}/verify?p=2012345678`, {
      headers: { ...key, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(res.headers.get('x-request-id')).toBe(traceId);
    const { span: root } = await traceOf(
      exporter,
      (s) => s.kind === SpanKind.SERVER && s.spanContext().traceId === traceId,
    );
    expect(root.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it("traces a bulk job's phases, its file store calls and its webhook delivery", async () => {
    const endpoint = await fetch(`${base}/webhook-endpoints`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl }),
    });
    expect(endpoint.status).toBe(201);
    const created = await fetch(`${base}/bulk/jobs`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: 'leads.csv', phone_col: 'Phone' }),
    });
    const job = CreatedBulkJobSchema.parse(await created.json());
    const upload = new URL(job.upload_url!);
    const put = await fetch(`${base}${upload.pathname}${upload.search}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: LEADS,
    });
    expect(put.ok).toBe(true);
    const submitted = await fetch(`${base}/bulk/jobs/${job.job_id}/submit`, { method: 'POST', headers: key });
    expect(submitted.status).toBe(200);

    const { span: jobSpan, all } = await traceOf(
      exporter,
      (s) => s.name === 'bulk job' && s.attributes['scrub.job.id'] === job.job_id,
    );
    expect(
      BulkJobSchema.parse(await (await fetch(`${base}/bulk/jobs/${job.job_id}`, { headers: key })).json())
        .status,
    ).toBe('completed');
    expect(jobSpan.parentSpanContext).toBeUndefined();
    const phases = childrenOf(jobSpan, all).map((s) => s.name);
    expect(phases).toEqual(expect.arrayContaining(['bulk download', 'bulk scrub', 'bulk upload']));
    // The store's own calls and the job's queries are in the same trace.
    expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(['blob read', 'blob createWriteStream']));
    expect(all.some((s) => s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    for (const phase of all.filter((s) => s.name.startsWith('bulk '))) {
      expect(phase.status.code).not.toBe(SpanStatusCode.ERROR);
    }

    const { span: delivery, all: deliveryTrace } = await traceOf(
      exporter,
      (s) => s.name === 'webhook delivery' && s.attributes['scrub.webhook.delivered'] === true,
    );
    expect(delivery.kind).toBe(SpanKind.CLIENT);
    expect(delivery.attributes).toMatchObject({
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
    });
    // The receiver was told the attempt's span, to continue its trace.
    expect(traceparents).toContain(
      `00-${delivery.spanContext().traceId}-${delivery.spanContext().spanId}-01`,
    );
    // Its attempt recorded in the database, under it.
    expect(
      childrenOf(delivery, deliveryTrace).some((s) => s.attributes['db.system.name'] === 'postgresql'),
    ).toBe(true);
  });

  it("traces a streamed job's phases under its request", async () => {
    const res = await fetch(`${base}/bulk/jobs/stream?file_name=leads.csv&phone_col=Phone`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'text/csv' },
      body: LEADS,
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const requestId = res.headers.get('x-request-id');

    const { span: jobSpan, all } = await traceOf(
      exporter,
      (s) => s.name === 'bulk job' && s.spanContext().traceId === requestId,
    );
    // The job is the request's child, not a trace of its own.
    const request = all.find((s) => s.kind === SpanKind.SERVER);
    expect(request?.name).toBe('POST /bulk/jobs/stream');
    expect(jobSpan.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
    expect(jobSpan.attributes).toMatchObject({ 'scrub.job.streamed': true });
    // Every phase has ended once the request has: wait for the last to be exported.
    await traceOf(exporter, (s) => s.name === 'bulk upload' && s.spanContext().traceId === requestId);
    const { all: ended } = await traceOf(exporter, (s) => s === jobSpan);
    const phases = childrenOf(jobSpan, ended);
    expect(phases.map((s) => s.name)).toEqual(
      expect.arrayContaining(['bulk download', 'bulk scrub', 'bulk upload']),
    );
    for (const phase of phases) expect(phase.status.code).not.toBe(SpanStatusCode.ERROR);
    // The stored upload and result are written through the traced store, in the same trace.
    expect(ended.map((s) => s.name)).toEqual(expect.arrayContaining(['blob createWriteStream']));
  });
});

describe('the OTEL_* variables', () => {
  it('leave tracing off unless an exporter or an endpoint is named', () => {
    expect(loadTracingSettings({})).toBeNull();
    expect(loadTracingSettings({ OTEL_SERVICE_NAME: 'x' })).toBeNull();
    expect(
      loadTracingSettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBeNull();
    expect(loadTracingSettings({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeNull();
  });

  it('send OTLP over HTTP to the collector named, under the service name given', () => {
    expect(loadTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      serviceName: 'scrub-server',
      exporter: { kind: 'otlp', url: 'http://collector:4318/v1/traces' },
    });
    expect(
      loadTracingSettings({
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_SERVICE_NAME: 'scrub-api',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,team=ops%20one',
      }),
    ).toMatchObject({
      serviceName: 'scrub-api',
      resourceAttributes: { 'deployment.environment.name': 'prod', team: 'ops one' },
      exporter: { kind: 'otlp', url: 'http://localhost:4318/v1/traces' },
    });
    expect(
      loadTracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example.com/custom/path' }),
    ).toMatchObject({ exporter: { kind: 'otlp', url: 'https://otlp.example.com/custom/path' } });
  });

  it('refuse what this service cannot do, saying why', () => {
    expect(() => loadTracingSettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /zipkin is not an exporter/,
    );
    expect(() =>
      loadTracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/grpc is not supported/);
    expect(() =>
      loadTracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' }),
    ).toThrow();
  });
});
