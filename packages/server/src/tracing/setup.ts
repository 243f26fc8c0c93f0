import type { TracingSettings } from '../config/tracing-settings.js';
import type { Tracer } from './spans.js';

/**
 * The app's tracer when tracing is on; null (and nothing of OpenTelemetry loaded, so the start
 * takes no longer and the process holds no more memory) when it is off.
 */
export async function startTracing(settings: TracingSettings | null): Promise<Tracer | null> {
  if (!settings) return null;
  const { openTelemetryTracer } = await import('./open-telemetry.js');
  return openTelemetryTracer(settings);
}
