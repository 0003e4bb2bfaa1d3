// A stand-in for server/main.ts under WORKERS=N, for server/cluster/cluster-primary.test.ts: the primary is
// the real one (runClusterPrimary); each worker (after CLUSTER_FIXTURE_START_MS) records one generation into a gateway metrics registry
// (createMetrics), shares it with the primary as main.ts does, and serves GET /metrics (the host's, through
// the primary) and GET /pid on PORT. CLUSTER_FIXTURE_FAIL=1 makes workers die at start.
// Run with: node --import tsx test/cluster-fixture.ts
import cluster from 'node:cluster';
import http from 'node:http';
import { runClusterPrimary } from '@/server/cluster/cluster-primary';
import { hostMetrics, shareMetricsWithPrimary } from '@/server/observability/cluster-metrics';
import { createMetrics } from '@/server/observability/metrics';

if (cluster.isPrimary) {
  runClusterPrimary({ workers: Number(process.env.WORKERS), graceMs: 1_000 });
} else if (process.env.CLUSTER_FIXTURE_FAIL === '1') {
  console.error('worker: cannot start');
  process.exit(1);
} else {
  void startWorker();
}

async function startWorker() {
  await new Promise((r) => setTimeout(r, Number(process.env.CLUSTER_FIXTURE_START_MS ?? 0))); // a slow start (opening the database)
  const worker = process.env.SWITCHBOARD_WORKER;
  const metrics = createMetrics({ keyHealth: () => [{ provider: 'openai', key: 'main', healthy: worker !== '2' }], settlementQueueDepth: () => 3 });
  metrics.generation({ model: 'm', provider: 'p', status: 200, streamed: false, latencyMs: 10, ttftMs: null, promptTokens: 5, completionTokens: 7, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costMicros: 100n });
  const server = http
    .createServer((req, res) => {
      if (req.url === '/metrics') {
        hostMetrics().then(
          (text) => res.end(text),
          (err: Error) => res.writeHead(500).end(err.message),
        );
      } else res.end(String(process.pid));
    })
    .listen(Number(process.env.PORT), '127.0.0.1', () => shareMetricsWithPrimary(metrics.registry));
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}
