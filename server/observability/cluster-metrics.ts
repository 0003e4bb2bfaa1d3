// GET /metrics with several workers on a host (WORKERS=N, server/cluster/cluster-primary.ts): whichever
// worker the scrape reaches asks the primary, which collects every ready worker's registry and sums them with
// prom-client's AggregatorRegistry.aggregate: counters and histograms summed, gauges by their `aggregator`
// (metrics.ts). One scrape of the port covers the whole host.
//
// The collection is ours rather than AggregatorRegistry.clusterMetrics(), which asks every connected worker and
// fails the whole scrape after 5 s if one does not answer: a worker still starting (a restart after a crash)
// has no registry yet. Here a worker is asked once it has said it is ready.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

/** Worker → primary: ready to be collected. */
export const METRICS_READY = 'switchboard:metrics-ready';
/** Worker → primary: a scrape wants the host's metrics; primary → worker: the answer. */
export const METRICS_REQUEST = 'switchboard:host-metrics';
/** Primary → worker: send your registry; worker → primary: here it is. */
export const METRICS_COLLECT = 'switchboard:collect-metrics';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export interface MetricsReply {
  type: typeof METRICS_REQUEST;
  id: number;
  text?: string;
  error?: string;
}

interface Message {
  type?: unknown;
  id?: unknown;
  text?: string;
  error?: string;
  metrics?: MetricsJson;
}

/** The longest a scrape waits: the primary gives each worker COLLECT_TIMEOUT_MS. */
const COLLECT_TIMEOUT_MS = 3_000;
const REPLY_TIMEOUT_MS = 5_000;
let nextId = 0;
const pending = new Map<number, (reply: Message) => void>();

function request(send: (id: number) => void, timeoutMs: number, what: string): Promise<Message> {
  const id = nextId++;
  return new Promise<Message>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`${what} did not answer in time`));
    }, timeoutMs);
    pending.set(id, (reply) => {
      clearTimeout(timer);
      pending.delete(id);
      resolve(reply);
    });
    send(id);
  });
}

/** In a worker, once its runtime exists: answer the primary's collections with this registry. */
export function shareMetricsWithPrimary(registry: Registry): void {
  process.on('message', (message: Message) => {
    if (message?.type === METRICS_REQUEST && typeof message.id === 'number') return pending.get(message.id)?.(message);
    if (message?.type !== METRICS_COLLECT || typeof message.id !== 'number') return;
    const id = message.id;
    registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: METRICS_COLLECT, id, metrics }),
      (err: Error) => process.send?.({ type: METRICS_COLLECT, id, error: err.message }),
    );
  });
  process.send?.({ type: METRICS_READY });
}

/** In a worker: every ready worker's metrics, summed by the primary. */
export async function hostMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) throw new Error('not a cluster worker');
  const reply = await request((id) => process.send!({ type: METRICS_REQUEST, id }), REPLY_TIMEOUT_MS, 'the cluster primary');
  if (reply.error !== undefined) throw new Error(`collecting the workers’ metrics: ${reply.error}`);
  return reply.text ?? '';
}

/** In the primary: collects from the ready workers and answers workers' METRICS_REQUESTs. */
export class HostMetricsCollector {
  private readonly ready = new Set<Worker>();

  /** Hook a forked worker up. */
  attach(worker: Worker): void {
    worker.on('message', (message: Message) => {
      if (message?.type === METRICS_READY) this.ready.add(worker);
      else if (message?.type === METRICS_COLLECT && typeof message.id === 'number') pending.get(message.id)?.(message);
      else if (message?.type === METRICS_REQUEST && typeof message.id === 'number') {
        const id = message.id;
        const reply = (r: Omit<MetricsReply, 'type' | 'id'>) => {
          if (worker.isConnected()) worker.send({ type: METRICS_REQUEST, id, ...r });
        };
        this.collect().then(
          (text) => reply({ text }),
          (err: Error) => reply({ error: err.message }),
        );
      }
    });
    worker.once('exit', () => this.ready.delete(worker));
  }

  async collect(): Promise<string> {
    const workers = [...this.ready].filter((w) => w.isConnected());
    const answers = await Promise.all(
      workers.map((w) => request((id) => w.send({ type: METRICS_COLLECT, id }), COLLECT_TIMEOUT_MS, `worker ${w.process.pid}`).catch((err: Error) => ({ error: err.message }) as Message)),
    );
    // A worker that died or stalled meanwhile is left out of this scrape rather than failing it.
    const metrics = answers.filter((a): a is Message & { metrics: MetricsJson } => Array.isArray(a.metrics)).map((a) => a.metrics);
    if (metrics.length === 0 && workers.length > 0) throw new Error(answers.find((a) => a.error)?.error ?? 'no worker answered');
    return AggregatorRegistry.aggregate(metrics).metrics();
  }
}
