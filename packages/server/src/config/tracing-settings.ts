import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';

/** Which traces are kept: OpenTelemetry's OTEL_TRACES_SAMPLER names. */
export type TraceSampler =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

/**
 * OpenTelemetry traces (docs/operations.md, Tracing): off (null) unless the standard OTEL_*
 * variables ask for them. Where spans go: an OTLP/HTTP collector, the standard output, or (tests,
 * benchmarks) an exporter handed over in code.
 */
export interface TracingSettings {
  /** The `service.name` resource attribute (OTEL_SERVICE_NAME, default `scrub-server`). */
  serviceName: string;
  /** Further resource attributes (OTEL_RESOURCE_ATTRIBUTES: `key=value,key=value`). */
  resourceAttributes: Record<string, string>;
  exporter: { kind: 'otlp'; url: string } | { kind: 'console' } | { kind: 'given'; exporter: SpanExporter };
  sampler: TraceSampler;
  /** The ratio of the `traceidratio` samplers (OTEL_TRACES_SAMPLER_ARG, default 1). */
  samplerRatio: number;
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const Env = z.object({
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_TRACES_EXPORTER: z.string().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
});

/** The collector's default OTLP/HTTP address, as OpenTelemetry's SDKs have it. */
const DEFAULT_OTLP = 'http://localhost:4318';

export function loadTracingSettings(env: NodeJS.ProcessEnv): TracingSettings | null {
  const parsed = Env.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Tracing settings: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  const exporter = exporterOf(e);
  if (e.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || exporter === null) return null;
  return {
    serviceName: e.OTEL_SERVICE_NAME ?? 'scrub-server',
    resourceAttributes: resourceAttributesOf(e.OTEL_RESOURCE_ATTRIBUTES),
    exporter,
    sampler: e.OTEL_TRACES_SAMPLER,
    samplerRatio: e.OTEL_TRACES_SAMPLER_ARG,
  };
}

/**
 * Traces are on when OTEL_TRACES_EXPORTER names `otlp` or `console`, or when an OTLP endpoint is
 * set and OTEL_TRACES_EXPORTER does not say `none`. (OpenTelemetry's own default exporter is
 * `otlp`: here nothing is sent until the operator says where.)
 */
function exporterOf(e: z.infer<typeof Env>): TracingSettings['exporter'] | null {
  const named = (e.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const unknown = named.filter((name) => !['otlp', 'console', 'none'].includes(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `OTEL_TRACES_EXPORTER: ${unknown.join(', ')} is not an exporter this service has (otlp, console or none).`,
    );
  }
  const endpoint = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (named.includes('none')) return null;
  const otlp = named.includes('otlp') || (named.length === 0 && endpoint !== undefined);
  if (!otlp) return named.includes('console') ? { kind: 'console' } : null;
  const protocol = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol === 'grpc') {
    throw new ConfigError(
      'OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported; this service sends OTLP over HTTP (port 4318), which collectors accept as http/json or http/protobuf.',
    );
  }
  // The signal's own endpoint is used as it is; the general one gets the traces path.
  const url =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    `${(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? DEFAULT_OTLP).replace(/\/+$/, '')}/v1/traces`;
  return { kind: 'otlp', url };
}

/** `key=value,key=value`, values percent-encoded (W3C Baggage's form, as OpenTelemetry reads it). */
function resourceAttributesOf(text: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      attributes[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(
        `OTEL_RESOURCE_ATTRIBUTES: the value of ${pair.slice(0, at).trim()} is not percent-encoded.`,
      );
    }
  }
  return attributes;
}
