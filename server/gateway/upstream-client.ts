// Upstream HTTP with undici's Pool (one per origin, keep-alive): ~3× cheaper in CPU than global fetch and
// web streams on this path (see ARCHITECTURE.md). Bodies are consumed as Node streams of Buffers.
import { Pool, type Dispatcher } from 'undici';
import type { UpstreamRequest } from '@/server/providers/types';
import type { CancelSignal } from '@/server/http/cancel-signal';

export type UpstreamResponse = Dispatcher.ResponseData;

/** The connection pools of one process (server/runtime), one per provider origin. */
export class UpstreamPools {
  private readonly pools = new Map<string, Pool>();

  /** @param headersTimeoutMs the provider's own time limit to the response headers (else the pool's). */
  send(r: UpstreamRequest, signal: CancelSignal, headersTimeoutMs?: number): Promise<UpstreamResponse> {
    const url = new URL(r.url);
    return this.poolFor(url.origin).request({
      method: r.method,
      path: url.pathname + url.search,
      headers: r.headers,
      body: r.body,
      // undici takes any EventTarget-like signal (it calls addEventListener/removeEventListener and reads
      // aborted and reason); its type names only AbortSignal and EventEmitter.
      signal: signal as AbortSignal,
      ...(headersTimeoutMs ? { headersTimeout: headersTimeoutMs } : {}),
    });
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close().catch(() => {})));
  }

  private poolFor(origin: string): Pool {
    let p = this.pools.get(origin);
    if (!p) {
      p = new Pool(origin, {
        // One connection per request in flight (no pipelining): this caps concurrent generations per provider
        // and process. Streams last minutes, so a low cap would queue new requests behind running ones (their
        // time to first token then waits for another stream to end). Connections are cheap; keep it high.
        connections: 8192,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        // Reasoning models can think for minutes before the first byte; streams can idle between events.
        headersTimeout: 10 * 60_000,
        bodyTimeout: 5 * 60_000,
        connectTimeout: 10_000,
      });
      this.pools.set(origin, p);
    }
    return p;
  }
}
