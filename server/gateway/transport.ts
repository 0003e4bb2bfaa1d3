// The chat handler is written once against this small interface; node-handler.ts adapts node:http (the
// production fast path) and route-handler.ts adapts WHATWG Request/Response (Next route handler).
import type { CancelSignal } from '@/server/http/cancel-signal';
import type { RequestLogFields } from '@/server/observability/request-log';
import type { RequestTrace } from '@/server/observability/request-trace';

export interface ChatTransport {
  header(name: string): string | undefined;
  readBody(limit: number): Promise<Buffer>;
  /** Fires when the client goes away. */
  readonly signal: CancelSignal;
  sendJson(status: number, body: unknown, headers: Record<string, string>): void;
  /** Sends 200 with SSE headers. */
  startStream(headers: Record<string, string>): void;
  /** Writes SSE text; resolves at once unless the client is not keeping up (backpressure). */
  write(text: string): Promise<void> | void;
  end(): void;
  /** Adds ids and names to the request's log line (observability/request-log.ts); absent where nothing logs per request. */
  annotate?(fields: RequestLogFields): void;
  /** The id the server already gave this request (server/main.ts, behind a Next route); absent on the fast path, where the use case makes it. */
  readonly requestId?: string;
  /** The request's server span (observability/request-trace.ts); absent when tracing is off or nothing traces this transport. */
  readonly trace?: RequestTrace;
}
