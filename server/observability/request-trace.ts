// One request's spans (tracing.ts): the server span, from the request's arrival to the end of its response
// (a stream's last byte), and a client span per upstream attempt (gateway/open-route.ts), whose
// `traceparent` the upstream receives. Attributes are ids and names only: never a key, a token or prompt text.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { defaultTextMapSetter, SpanKind, SpanStatusCode, trace, type Context, type Span, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
import { REQUEST_ID_HEADER } from '@/server/http/request-id';
import type { UpstreamRequest } from '@/server/providers/types';
import type { RequestLogFields } from './request-log';
import type { Tracing } from './tracing';

/** The request log's fields as span attributes (the HTTP ones follow OpenTelemetry's conventions). */
const ATTRIBUTE_OF: Record<keyof RequestLogFields, string> = {
  request_id: 'switchboard.request_id',
  model: 'switchboard.model',
  provider: 'switchboard.provider',
  generation_id: 'switchboard.generation_id',
  account_id: 'switchboard.account_id',
};

export interface AttemptInfo {
  provider: string;
  /** The provider key's id (its name in the configuration), never the key. */
  key: string | null;
  model: string;
  /** The upstream URL; only its origin and path are recorded (a query may carry a credential). */
  url: string;
}

export class RequestTrace {
  private readonly attempts: AttemptTrace[] = [];
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    readonly span: Span,
    private readonly context: Context,
    private readonly propagator: TextMapPropagator,
  ) {}

  /** A route known to the server (the gateway's paths): the span is named after it. */
  route(route: string, method: string): void {
    this.span.updateName(`${method} ${route}`);
    this.span.setAttribute('http.route', route);
  }

  annotate(fields: RequestLogFields): void {
    for (const name in fields) {
      const value = fields[name as keyof RequestLogFields];
      if (value !== undefined) this.span.setAttribute(ATTRIBUTE_OF[name as keyof RequestLogFields] ?? `switchboard.${name}`, value);
    }
  }

  /** A generation's outcome: its first token (an event at that moment, and the attribute), tokens and attempts. */
  generation(o: { startedAt: number; ttftMs: number | null; attempts: number; promptTokens: number; completionTokens: number }): void {
    if (o.ttftMs !== null) {
      this.span.setAttribute('switchboard.ttft_ms', o.ttftMs);
      this.span.addEvent('first token', undefined, performance.timeOrigin + o.startedAt + o.ttftMs);
    }
    this.span.setAttributes({ 'switchboard.attempts': o.attempts, 'gen_ai.usage.input_tokens': o.promptTokens, 'gen_ai.usage.output_tokens': o.completionTokens });
  }

  /** A client span for one upstream attempt, child of the server span. */
  attempt(info: AttemptInfo): AttemptTrace {
    const q = info.url.indexOf('?');
    const url = new URL(q === -1 ? info.url : info.url.slice(0, q));
    const span = this.tracer.startSpan(
      `upstream ${info.provider}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'server.address': url.hostname,
          'url.full': url.origin + url.pathname,
          'switchboard.provider': info.provider,
          'switchboard.model': info.model,
          ...(info.key ? { 'switchboard.provider_key': info.key } : {}),
          'switchboard.attempt': this.attempts.length + 1,
        },
      },
      this.context,
    );
    const a = new AttemptTrace(span, trace.setSpan(this.context, span), this.propagator);
    this.attempts.push(a);
    return a;
  }

  /** The response is over (or the client went away): ends the server span and any attempt still open (the serving one). */
  end(status: number, aborted: boolean, requestId?: string): void {
    if (this.ended) return;
    this.ended = true;
    for (const a of this.attempts) a.end();
    this.span.setAttribute('http.response.status_code', status);
    if (requestId) this.span.setAttribute('switchboard.request_id', requestId);
    if (aborted) this.span.setAttribute('switchboard.client_aborted', true);
    if (status >= 500) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end();
  }
}

export class AttemptTrace {
  private ended = false;

  constructor(
    readonly span: Span,
    private readonly context: Context,
    private readonly propagator: TextMapPropagator,
  ) {}

  /** The request with this attempt's `traceparent` (and the client's `tracestate`) among its headers. */
  inject(request: UpstreamRequest): UpstreamRequest {
    const headers = { ...request.headers };
    this.propagator.inject(this.context, headers, defaultTextMapSetter);
    return { ...request, headers };
  }

  /** The upstream's status (null: no response); `failover` says why the next attempt was made, if one was. */
  end(status?: number | null, failover?: string): void {
    if (this.ended) return;
    this.ended = true;
    if (typeof status === 'number') this.span.setAttribute('http.response.status_code', status);
    if (failover) {
      this.span.setAttribute('switchboard.failover_reason', failover);
      this.span.setAttribute('error.type', typeof status === 'number' ? String(status) : failover);
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

// The node:http servers (server/main.ts, the test servers) start the span; the chat transport finds it here.
// Symbol.for: both copies of this module in the process (custom server, Next bundle) use the same slot.
const TRACE = Symbol.for('switchboard.requestTrace');
type Traced = ServerResponse & { [TRACE]?: RequestTrace };

/** Starts the request's server span (call only with tracing on); it ends when the response does. */
export function traceRequest(tracing: Tracing, req: IncomingMessage, res: ServerResponse): RequestTrace {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const method = req.method ?? 'GET';
  const t = tracing.startRequest(method, q === -1 ? url : url.slice(0, q), req.headers);
  (res as Traced)[TRACE] = t;
  res.once('close', () => {
    const requestId = res.getHeader('x-request-id');
    t.end(res.statusCode, !res.writableFinished, typeof requestId === 'string' ? requestId : undefined);
  });
  return t;
}

/** The request's trace, when tracing is on. */
export function requestTraceOf(res: ServerResponse): RequestTrace | undefined {
  return (res as Traced)[TRACE];
}

// Next's route handlers get a WHATWG Request, not the ServerResponse above. server/main.ts gives every
// request it passes to Next an id of its own (REQUEST_ID_HEADER, overwriting whatever the client sent, so
// no client can name another request's trace) and lends the trace under it until the response closes.
// The map exists only once something was lent: never with tracing off. Symbol.for: both bundles' copies.
const LENT = Symbol.for('switchboard.lentRequestTraces');
type WithLent = typeof globalThis & { [LENT]?: Map<string, RequestTrace> };

/** Lets the route handler serving this request find its trace (call after traceRequest, before Next). */
export function lendRequestTrace(res: ServerResponse, requestId: string): void {
  const t = requestTraceOf(res);
  if (!t) return;
  const lent = ((globalThis as WithLent)[LENT] ??= new Map());
  lent.set(requestId, t);
  res.once('close', () => lent.delete(requestId));
}

export interface RouteHandlerTrace {
  trace: RequestTrace;
  /** Ends the span if the route handler started it (next dev); the production server ends its own at the response's close. */
  end(status: number, aborted: boolean): void;
}

/**
 * A route handler's server span: the one server/main.ts started and lent, else, with tracing on but no
 * custom server in front (`next dev`), a new one (child of the client's `traceparent`), which the handler
 * ends through `end`. Undefined, and nothing created, when tracing is off.
 */
export function routeHandlerTrace(tracing: Tracing | null, request: Request): RouteHandlerTrace | undefined {
  if (!tracing) return undefined;
  const { pathname } = new URL(request.url);
  const id = request.headers.get(REQUEST_ID_HEADER);
  const lent = id ? (globalThis as WithLent)[LENT]?.get(id) : undefined;
  if (lent) {
    lent.route(pathname, request.method);
    return { trace: lent, end: () => {} };
  }
  const headers: IncomingHttpHeaders = {};
  for (const name of ['traceparent', 'tracestate']) {
    const v = request.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  const trace = tracing.startRequest(request.method, pathname, headers);
  trace.route(pathname, request.method);
  return { trace, end: (status, aborted) => trace.end(status, aborted) };
}
