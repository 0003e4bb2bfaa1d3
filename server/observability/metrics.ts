// The gateway's Prometheus metrics (GET /metrics, metrics-route.ts). One registry per runtime, never
// prom-client's global one: the custom server and Next's bundle are two copies of this code in one process
// and both record into the runtime's registry (server/runtime/process-runtime.ts). With several workers on a
// host (WORKERS=N) a scrape sums every worker's registry (cluster-metrics.ts): counters and histograms add
// up; each gauge says how it combines (`aggregator`).
//
// Recording is on the chat path, so it is synchronous and cheap: the label children of a model and provider
// are looked up once and kept (prom-client hashes the label set on every `inc` otherwise).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One settled generation (chat or embeddings), or a request refused at admission (model and provider ''). */
export interface GenerationSample {
  model: string;
  provider: string;
  /** The HTTP status the client got: 200 for a stream that started, 499 when the client went away first. */
  status: number;
  streamed: boolean;
  latencyMs: number;
  ttftMs: number | null;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costMicros: bigint;
}

export interface KeyHealthSample {
  provider: string;
  key: string;
  healthy: boolean;
}

export interface MetricsSources {
  /** The operator's provider keys and whether each is healthy now, read at scrape time. */
  keyHealth: () => Iterable<KeyHealthSample>;
  /** Settlements queued and not yet written, read at scrape time. */
  settlementQueueDepth: () => number;
  /** prom-client's process metrics (CPU, memory, event loop, GC); on for the process's runtime. */
  processMetrics?: boolean;
}

export interface GatewayMetrics {
  readonly registry: Registry;
  /** False for disabledMetrics(): GET /metrics answers 404. */
  readonly enabled: boolean;
  generation(sample: GenerationSample): void;
  /** A request refused before it had a route (authentication, validation, limits, credit). */
  refused(status: number): void;
  /** One failed upstream attempt: its HTTP status, or `network` for a connection error or timeout. */
  upstreamError(provider: string, code: string): void;
}

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const TTFT_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

interface ModelChildren {
  duration: [Histogram.Internal<string>, Histogram.Internal<string>];
  ttft: Histogram.Internal<string>;
  prompt: Counter.Internal;
  completion: Counter.Internal;
  cached: Counter.Internal;
  cacheWrite: Counter.Internal;
  reasoning: Counter.Internal;
  cost: Counter.Internal;
  byStatus: Map<number, Counter.Internal>;
}

export function createMetrics(sources: MetricsSources): GatewayMetrics {
  const registry = new Registry();
  const requests = new Counter({ name: 'switchboard_requests_total', help: 'Generation requests by model, serving provider and HTTP status (refusals before routing have empty model and provider).', labelNames: ['model', 'provider', 'status'] as const, registers: [registry] });
  const duration = new Histogram({ name: 'switchboard_request_duration_seconds', help: 'Time from a generation request to its settlement.', labelNames: ['model', 'provider', 'stream'] as const, buckets: DURATION_BUCKETS, registers: [registry] });
  const ttft = new Histogram({ name: 'switchboard_ttft_seconds', help: 'Time to the first token of a streamed generation.', labelNames: ['model', 'provider'] as const, buckets: TTFT_BUCKETS, registers: [registry] });
  const tokens = new Counter({ name: 'switchboard_tokens_total', help: 'Tokens by model and type (prompt, completion, cached, cache_write, reasoning).', labelNames: ['model', 'type'] as const, registers: [registry] });
  const cost = new Counter({ name: 'switchboard_cost_usd_total', help: 'What the accounts were charged, in US dollars.', labelNames: ['model'] as const, registers: [registry] });
  const upstreamErrors = new Counter({ name: 'switchboard_upstream_errors_total', help: 'Failed upstream attempts by provider and HTTP status (network: connection error or timeout).', labelNames: ['provider', 'code'] as const, registers: [registry] });
  new Gauge({
    name: 'switchboard_upstream_key_healthy',
    help: "1 when the operator's provider key is healthy, 0 while it cools down, its circuit is open or half open.",
    labelNames: ['provider', 'key'] as const,
    registers: [registry],
    aggregator: 'min', // across workers: 0 if any of them has the key cooling down or its circuit open
    collect() {
      this.reset(); // keys removed from the configuration disappear
      for (const k of sources.keyHealth()) this.set({ provider: k.provider, key: k.key }, k.healthy ? 1 : 0);
    },
  });
  new Gauge({
    name: 'switchboard_settlement_queue_depth',
    help: 'Settlements waiting to be written to the database.',
    registers: [registry],
    collect() {
      this.set(sources.settlementQueueDepth());
    },
  });
  new Gauge({
    name: 'switchboard_workers',
    help: 'Server processes whose series this scrape sums (WORKERS; 1 for a single process).',
    registers: [registry],
    aggregator: 'sum',
    collect() {
      this.set(1);
    },
  });
  if (sources.processMetrics) collectDefaultMetrics({ register: registry });

  const children = new Map<string, ModelChildren>();
  const childrenFor = (model: string, provider: string): ModelChildren => {
    const id = `${model}\u0000${provider}`;
    let c = children.get(id);
    if (c === undefined) {
      c = {
        duration: [duration.labels(model, provider, 'false'), duration.labels(model, provider, 'true')],
        ttft: ttft.labels(model, provider),
        prompt: tokens.labels(model, 'prompt'),
        completion: tokens.labels(model, 'completion'),
        cached: tokens.labels(model, 'cached'),
        cacheWrite: tokens.labels(model, 'cache_write'),
        reasoning: tokens.labels(model, 'reasoning'),
        cost: cost.labels(model),
        byStatus: new Map(),
      };
      children.set(id, c);
    }
    return c;
  };
  const countRequest = (c: ModelChildren, model: string, provider: string, status: number) => {
    let child = c.byStatus.get(status);
    if (child === undefined) c.byStatus.set(status, (child = requests.labels(model, provider, String(status))));
    child.inc();
  };

  return {
    registry,
    enabled: true,
    generation(s) {
      const c = childrenFor(s.model, s.provider);
      countRequest(c, s.model, s.provider, s.status);
      c.duration[s.streamed ? 1 : 0].observe(s.latencyMs / 1000);
      if (s.ttftMs !== null && s.streamed) c.ttft.observe(s.ttftMs / 1000);
      if (s.promptTokens) c.prompt.inc(s.promptTokens);
      if (s.completionTokens) c.completion.inc(s.completionTokens);
      if (s.cachedTokens) c.cached.inc(s.cachedTokens);
      if (s.cacheWriteTokens) c.cacheWrite.inc(s.cacheWriteTokens);
      if (s.reasoningTokens) c.reasoning.inc(s.reasoningTokens);
      if (s.costMicros > 0n) c.cost.inc(Number(s.costMicros) / 1e6);
    },
    refused(status) {
      countRequest(childrenFor('', ''), '', '', status);
    },
    upstreamError(provider, code) {
      upstreamErrors.inc({ provider, code });
    },
  };
}

/** METRICS_ENABLED=0: records nothing (an empty registry, never served). */
export function disabledMetrics(): GatewayMetrics {
  return { registry: new Registry(), enabled: false, generation() {}, refused() {}, upstreamError() {} };
}
