// GET /metrics with several workers on a host (WORKERS=N, server/cluster/cluster-primary.ts): whichever
// worker the scrape reaches asks the primary, which collects every worker's registry through prom-client's
// AggregatorRegistry and answers with the host's series: counters and histograms summed, gauges by their
// `aggregator` (metrics.ts). One scrape of the port covers the whole host.
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

export const METRICS_REQUEST = 'switchboard:host-metrics';

export interface MetricsReply {
  type: typeof METRICS_REQUEST;
  id: number;
  text?: string;
  error?: string;
}

/** The longest a scrape waits for the primary (which waits ≤ 5 s for the workers). */
const REPLY_TIMEOUT_MS = 7_000;
let nextId = 0;
const pending = new Map<number, (reply: MetricsReply) => void>();

/** In a worker: answer the primary's collection requests with this registry (instead of prom-client's global one). */
export function shareMetricsWithPrimary(registry: Registry): void {
  new AggregatorRegistry(); // installs prom-client's listener for the primary's requests in this worker
  AggregatorRegistry.setRegistries([registry]);
  process.on('message', (message: unknown) => {
    const m = message as Partial<MetricsReply>;
    if (m?.type !== METRICS_REQUEST || typeof m.id !== 'number') return;
    pending.get(m.id)?.(m as MetricsReply);
  });
}

/** In a worker: every worker's metrics, summed by the primary. */
export function hostMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return Promise.reject(new Error('not a cluster worker'));
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('the cluster primary did not answer with the workers’ metrics in time'));
    }, REPLY_TIMEOUT_MS);
    pending.set(id, (reply) => {
      clearTimeout(timer);
      pending.delete(id);
      if (reply.error !== undefined) reject(new Error(`collecting the workers’ metrics: ${reply.error}`));
      else resolve(reply.text ?? '');
    });
    process.send!({ type: METRICS_REQUEST, id });
  });
}
