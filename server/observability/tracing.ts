// Traces: OpenTelemetry spans exported over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; otherwise nothing at all: no provider, no span object, the
// request path only tests `runtime.tracing` (null) or `trace` (undefined).
//
// One tracer provider per runtime, so one per process (server/runtime/process-runtime.ts keeps the runtime
// on globalThis for both bundles). It is deliberately NOT registered as OpenTelemetry's global provider: that
// would make Next's own instrumentation emit a second server span per request and need an AsyncLocalStorage
// context manager on every request. Parents are passed explicitly instead (request-trace.ts): the server
// span is the child of the client's W3C `traceparent`, each upstream attempt the child of the server span.
import type { IncomingHttpHeaders } from 'node:http';
import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import type { Env } from '@/server/env';
import { RequestTrace } from './request-trace';

export type SamplerName = Env['OTEL_TRACES_SAMPLER'];

export interface TracingOptions {
  /** The full URL spans are posted to, e.g. http://collector:4318/v1/traces. */
  tracesUrl: string;
  serviceName?: string;
  sampler?: SamplerName;
  /** The ratio of the traceidratio samplers (default 1). */
  samplerArg?: number;
  /** Export delay of the batch processor (default 5 s: the SDK's); tests flush instead. */
  scheduledDelayMs?: number;
}

export interface Tracing {
  /** The server span of one incoming HTTP request, child of the client's `traceparent` when it sent one. */
  startRequest(method: string, path: string, headers: IncomingHttpHeaders): RequestTrace;
  /** Exports the spans ended so far. */
  forceFlush(): Promise<void>;
  /** Exports what is left and stops (runtime.close(), at SIGTERM). */
  shutdown(): Promise<void>;
}

/** Tracing from the environment: null (off) unless an OTLP endpoint is set and OTEL_SDK_DISABLED is not. */
export function tracingOptionsFromEnv(e: Pick<Env, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SERVICE_NAME' | 'OTEL_SDK_DISABLED' | 'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG'>): TracingOptions | null {
  if (e.OTEL_SDK_DISABLED) return null;
  const tracesUrl = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!tracesUrl) return null;
  return { tracesUrl, serviceName: e.OTEL_SERVICE_NAME, sampler: e.OTEL_TRACES_SAMPLER, samplerArg: e.OTEL_TRACES_SAMPLER_ARG };
}

const propagator = new W3CTraceContextPropagator();

export function createTracing(options: TracingOptions): Tracing {
  // The exporter posts JSON (its content type is application/json in this package's Node build).
  const exporter = new OTLPTraceExporter({ url: options.tracesUrl });
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': options.serviceName ?? 'switchboard' })),
    sampler: samplerFor(options.sampler ?? 'parentbased_always_on', options.samplerArg ?? 1),
    spanProcessors: [new BatchSpanProcessor(exporter, options.scheduledDelayMs ? { scheduledDelayMillis: options.scheduledDelayMs } : undefined)],
  });
  const tracer = provider.getTracer('switchboard');
  return {
    startRequest(method, path, headers) {
      // Node lowercases header names, as the propagator looks them up.
      const parent = headers.traceparent ? propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter) : ROOT_CONTEXT;
      const attributes: Attributes = { 'http.request.method': method, 'url.path': path };
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
      return new RequestTrace(tracer, span, trace.setSpan(parent, span), propagator);
    },
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

function samplerFor(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
