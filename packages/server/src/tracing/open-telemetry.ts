// Loaded only when tracing is on (tracing/setup.ts): nothing of OpenTelemetry is read otherwise.
import {
  type Context,
  defaultTextMapGetter,
  type Span as OtelSpan,
  type Tracer as OtelTracer,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { TracingSettings } from '../config/tracing-settings.js';
import { serverVersion } from '../version.js';
import type { SpanKind as Kind, Span, SpanOptions, Tracer } from './spans.js';

const KINDS: Record<Kind, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
};

const propagator = new W3CTraceContextPropagator();

/**
 * The app's tracer: its own provider (nothing is registered globally, so two services in one
 * process, as in tests and benchmarks, trace apart), sending to the configured exporter.
 */
export function openTelemetryTracer(settings: TracingSettings): Tracer {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...settings.resourceAttributes,
      'service.name': settings.serviceName,
      'service.version': serverVersion,
    }),
    sampler: samplerOf(settings),
    spanProcessors: [processorOf(settings.exporter)],
  });
  const tracer = provider.getTracer('@scrub/server', serverVersion);
  return {
    startRoot(name, options = {}) {
      const parent = options.traceparent
        ? propagator.extract(ROOT_CONTEXT, { traceparent: options.traceparent }, defaultTextMapGetter)
        : ROOT_CONTEXT;
      return wrap(tracer, start(tracer, name, options, parent));
    },
    shutdown: () => provider.shutdown(),
  };
}

function processorOf(exporter: TracingSettings['exporter']): SpanProcessor {
  switch (exporter.kind) {
    case 'otlp':
      // Spans are sent in batches, off the request's path (every 5 s, or 512 at once).
      return new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: exporter.url }) });
    case 'console':
      return new BatchSpanProcessor({ exporter: new ConsoleSpanExporter() });
    case 'given':
      // Tests read each span as soon as it ends.
      return new SimpleSpanProcessor({ exporter: exporter.exporter });
  }
}

function samplerOf({ sampler, samplerRatio }: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(samplerRatio);
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function start(tracer: OtelTracer, name: string, options: SpanOptions, parent: Context): OtelSpan {
  return tracer.startSpan(
    name,
    {
      kind: KINDS[options.kind ?? 'internal'],
      ...(options.attributes && { attributes: options.attributes }),
    },
    parent,
  );
}

function wrap(tracer: OtelTracer, span: OtelSpan): Span {
  const context = span.spanContext();
  let ended = false;
  return {
    traceId: context.traceId,
    traceparent: `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`,
    setAttributes: (attributes) => span.setAttributes(attributes),
    updateName: (name) => span.updateName(name),
    fail(error) {
      const known = error instanceof Error;
      span.setAttribute('error.type', known ? error.name : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: known ? error.message : String(error) });
    },
    end() {
      if (ended) return;
      ended = true;
      span.end();
    },
    child: (name, options = {}) =>
      wrap(tracer, start(tracer, name, options, trace.setSpan(ROOT_CONTEXT, span))),
  };
}
