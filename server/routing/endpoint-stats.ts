// What `provider.sort: "latency" | "throughput"` sorts by: this process's recent measurements of each
// endpoint (exponentially weighted; a few numbers per endpoint, no I/O). An endpoint never measured sorts
// first, so it gets measured.
import type { RoutingEndpoint } from './routing-table';

const ALPHA = 0.2;

interface Stat {
  latencyMs: number | null;
  tokensPerSecond: number | null;
}

export class EndpointStats {
  private readonly stats = new Map<string, Stat>();

  static keyOf(e: RoutingEndpoint): string {
    return `${e.provider.id}\u0000${e.upstreamModel}`;
  }

  /** @param latencyMs time to the first token (or to the answer); @param tokensPerSecond output rate, when known. */
  record(e: RoutingEndpoint, latencyMs: number, tokensPerSecond?: number): void {
    const key = EndpointStats.keyOf(e);
    let s = this.stats.get(key);
    if (!s) this.stats.set(key, (s = { latencyMs: null, tokensPerSecond: null }));
    s.latencyMs = s.latencyMs === null ? latencyMs : s.latencyMs + ALPHA * (latencyMs - s.latencyMs);
    if (tokensPerSecond !== undefined && Number.isFinite(tokensPerSecond)) {
      s.tokensPerSecond = s.tokensPerSecond === null ? tokensPerSecond : s.tokensPerSecond + ALPHA * (tokensPerSecond - s.tokensPerSecond);
    }
  }

  /** The measurements of one endpoint (by provider id and upstream model), null where none were made yet. */
  view(providerId: string, upstreamModel: string): Stat {
    const s = this.stats.get(`${providerId}\u0000${upstreamModel}`);
    return { latencyMs: s?.latencyMs ?? null, tokensPerSecond: s?.tokensPerSecond ?? null };
  }

  /** Lower is better: latency in ms, or minus the throughput; unmeasured = -Infinity (tried first). */
  score(e: RoutingEndpoint, by: 'latency' | 'throughput'): number {
    const s = this.stats.get(EndpointStats.keyOf(e));
    const v = by === 'latency' ? s?.latencyMs : s?.tokensPerSecond;
    if (v === null || v === undefined) return -Infinity;
    return by === 'latency' ? v : -v;
  }
}
