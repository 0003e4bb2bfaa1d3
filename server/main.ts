// The production server (`npm start` → dist/server.js). A plain node:http server in front of Next.js:
// the chat endpoint is served on a node:http fast path (a Next route handler costs ~5× the CPU per request,
// see ARCHITECTURE.md), the loopback CLI endpoint is handled here, and everything else goes to Next.
// `next dev` serves the same gateway through the route handlers under app/api/v1 (server/http/fast-path-routes.ts lists the paths).
// With WORKERS=N on PostgreSQL this process is only node:cluster's primary (server/cluster/cluster-primary.ts)
// and N copies of it, its workers, serve the port; Next is imported by the workers only.
import cluster from 'node:cluster';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { closeDatabase, database } from '@/server/db';
import { env, EnvError } from '@/server/env';
import { fastPathHandlerFor } from '@/server/http/fast-path-routes';
import { startSettlementRecovery } from '@/server/ledger/start-settlement-recovery';
import { deleteExpiredResponses } from '@/server/formats/openai-responses/stored-responses';
import { failUnansweredPurchases } from '@/server/billing/fail-unanswered-purchases';
import { handleCliRequest } from '@/server/http/internal-cli';
import { newRequestId, REQUEST_ID_HEADER } from '@/server/http/request-id';
import { sendNodeError } from '@/server/http/node-response';
import { setSecurityHeaders } from '@/server/http/security-headers';
import { pinClientAddress } from '@/server/http/client-address';
import { answerClientError, malformedPathError, unreadableFormAs400 } from '@/server/http/unreadable-requests';
import { isForeignServerAction, limitBody, NEXT_BODY_LIMIT_BYTES, refuseForeignServerAction } from '@/server/http/request-limits';
import { jsonApiErrors } from '@/server/http/json-api-errors';
import { errorReplyForPath } from '@/server/http/error-reply-for-path';
import { answerOtherTarget, toOriginForm } from '@/server/http/request-target';
import { AppError, errorReply } from '@/server/errors';
import { ensureDemoAccount, ensureSeeded, DEMO_EMAIL } from '@/server/seed';
import { removeServerInfo, writeServerInfo } from '@/server/cli/server-link';
import { processRuntime } from '@/server/runtime/process-runtime';
import { startWebhookWorker } from '@/server/webhooks/webhook-worker';
import { processLogger } from '@/server/observability/logger';
import { sourceMappedStack } from '@/server/observability/source-mapped-stack';
import { handleMetricsRequest, METRICS_PATH } from '@/server/observability/metrics-route';
import { annotateRequest, logRequest } from '@/server/observability/request-log';
import { lendRequestTrace, traceRequest } from '@/server/observability/request-trace';
import { hostMetrics, shareMetricsWithPrimary } from '@/server/observability/cluster-metrics';
import { runClusterPrimary } from '@/server/cluster/cluster-primary';
import { shutDownGracefully } from '@/server/http/graceful-shutdown';
import { exposedGc, startIdleCollection } from '@/server/http/idle-collection';

type Env = ReturnType<typeof env>;

/** /api and everything under it: errors there are JSON, never a page (server/http/json-api-errors.ts). */
const API_PATH = /^\/api(\/|$)/;

function start(): Promise<void> | void {
  let e: Env;
  try {
    e = env();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (cluster.isPrimary && e.WORKERS > 1) {
    if (!e.embedded) {
      if (!e.REDIS_URL) console.warn(`Switchboard: without REDIS_URL each of the ${e.WORKERS} workers counts rate limits and provider-key cooldowns on its own.`);
      return runClusterPrimary({ workers: e.WORKERS, graceMs: e.SHUTDOWN_GRACE_S * 1000 });
    }
    console.log(`Switchboard: WORKERS=${e.WORKERS} is ignored: the embedded database is one process (several workers need PostgreSQL, DATABASE_URL).`);
  }
  return main(e);
}

async function main(e: Env) {
  const worker = cluster.isWorker ? ` worker ${process.env.SWITCHBOARD_WORKER ?? cluster.worker?.id} (pid ${process.pid})` : '';
  const started = Date.now();
  const dbInfo = e.embedded ? `embedded PGlite in ${e.dataDir}` : `PostgreSQL (${new URL(e.DATABASE_URL!).host})`;
  console.log(`Switchboard: opening the database (${dbInfo})…`);
  const database_ = await database();
  const seeded = await ensureSeeded();
  const demo = e.embedded && !e.SKIP_DEMO ? await ensureDemoAccount() : null;
  // Created before Next loads its bundle, which then finds this same runtime (server/runtime/process-runtime.ts).
  // A broken SWITCHBOARD_CONFIG stops the start here, with the line and field at fault.
  const runtime = processRuntime();
  await runtime.routing.ready;
  const routing = runtime.routing.table();
  const usable = routing.list.filter((m) => m.enabled && m.endpoints.some((ep) => ep.provider.enabled && ep.provider.configured)).length;
  console.log(`Switchboard: database ready, ${seeded.plans} plans; ${routing.list.length} models (${usable} usable with the providers configured)${e.SWITCHBOARD_CONFIG ? `, routing configuration from ${e.SWITCHBOARD_CONFIG}` : ''}`);

  // dist/server.js lives one level below the project root, where .next/ is.
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: fileURLToPath(new URL('..', import.meta.url)), hostname: 'localhost', port: e.PORT });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  let cliToken = '';
  const logger = processLogger();
  // Null unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then every request gets a server span (observability/tracing.ts).
  const tracing = runtime.tracing;

  // requestTimeout: a request whose headers and body have not all arrived in time gets 408 and is closed
  // (Node checks every connectionsCheckingInterval); it does not limit the response, so streams run on.
  // A full collection when the server falls idle after a burst: the burst's promoted garbage would otherwise stay
  // resident until the next load grows the old generation again (server/http/idle-collection.ts).
  const idle = startIdleCollection({ onCollected: (ms) => logger.debug({ ms: Math.round(ms) }, 'idle garbage collection') });
  const server = http.createServer({ requestTimeout: e.REQUEST_TIMEOUT_MS, connectionsCheckingInterval: Math.min(2_000, e.REQUEST_TIMEOUT_MS / 2) }, (req, res) => {
    idle.track(res);
    // Every route expects a path: an absolute-form target ("http://host/api/…") becomes one here, first;
    // "*" and anything else that is not a path are answered below (server/http/request-target.ts).
    const target = toOriginForm(req, e.TRUST_PROXY);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    logRequest(logger, req, res);
    const trace = tracing ? traceRequest(tracing, req, res) : undefined;
    // With workers, one scrape covers the host: every worker's series, summed by the primary.
    if (pathname === METRICS_PATH) return void handleMetricsRequest(runtime, req, res, e.METRICS_TOKEN, cluster.isWorker ? hostMetrics : undefined);
    const fastPath = fastPathHandlerFor(pathname);
    if (fastPath) trace?.route(pathname, req.method ?? 'POST');
    if (fastPath && req.method === 'POST') return void fastPath(runtime, req, res);
    // Other methods there go to Next: its route handlers for these paths export POST only, so OPTIONS gets
    // their Allow and the rest a 405 with it, in the path's error shape (server/http/json-api-errors.ts).
    if (pathname === '/internal/cli') return void handleCliRequest(req, res, cliToken, !e.embedded);
    // Every response carries x-request-id; route handlers reuse this id (server/http/api-route.ts).
    const requestId = newRequestId();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('x-request-id', requestId);
    annotateRequest(res, { request_id: requestId });
    // Route handlers (the console playground's chat, anything `next dev` style) find the server span by this id.
    if (trace) lendRequestTrace(res, requestId);
    setSecurityHeaders(req, res);
    pinClientAddress(req, e.TRUST_PROXY);
    if (target !== 'origin') return answerOtherTarget(req, res, target, requestId);
    const badPath = malformedPathError(pathname);
    if (badPath) return sendNodeError(res, badPath, requestId);
    if (!limitBody(req, res, NEXT_BODY_LIMIT_BYTES, requestId)) return;
    if (isForeignServerAction(req)) return refuseForeignServerAction(res, requestId);
    const api = API_PATH.test(pathname);
    if (api) jsonApiErrors(req, res, requestId, pathname);
    else unreadableFormAs400(req, res, requestId);
    handleNext(req, res).catch((err) => {
      if (!res.headersSent) return sendNodeError(res, err, requestId, api ? errorReplyForPath(pathname) : undefined);
      errorReply(err, requestId, 'next handler'); // logged like any other 5xx; the response is already under way
      res.end();
    });
  });
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = Math.min(66_000, e.REQUEST_TIMEOUT_MS);

  // Loading Next, the routes and the database leaves ~100 MB of start-up objects in V8's young generation;
  // left alone, the first scavenges under traffic copy them (pauses of 20–30 ms in the first seconds of load,
  // the p99 and first-token time of a freshly started server). One full collection now, before the port
  // opens, moves what lives to the old generation while no request is waiting.
  collectStartupGarbage();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(e.PORT, e.HOST, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  // Written on PostgreSQL too: the CLI's commands that read this server's memory (upstream:health) come this way.
  try {
    cliToken = writeServerInfo(e.dataDir, { pid: process.pid, port, dbThreadId: database_.dbThreadId });
  } catch (err) {
    if (e.embedded) throw err; // the CLI could not reach the database otherwise
    console.warn(`Switchboard: cannot write ${e.dataDir}/server.json (${(err as Error).message}); \`npm run cli -- upstream:health\` will not find this server`);
  }
  // Charges a crashed predecessor journaled, then the sweeper for reservations whose lease ran out.
  const recovery = startSettlementRecovery({
    enqueue: (s) => runtime.settlements.enqueue(s),
    journal: runtime.journal,
    sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    housekeeping: [
      { name: 'stored response expiry', step: () => deleteExpiredResponses() },
      { name: 'unanswered purchases', step: () => failUnansweredPurchases() },
    ],
  });
  // Webhook deliveries, alert emails and the balance/limit crossing check (server/webhooks/webhook-worker.ts).
  const webhooks = startWebhookWorker();

  if (cluster.isWorker) shareMetricsWithPrimary(runtime.metrics.registry);

  const base = `http://localhost:${port}`;
  if (worker) {
    console.log(`Switchboard:${worker} ready on ${base} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } else console.log(`Switchboard: ready on ${base} in ${((Date.now() - started) / 1000).toFixed(1)}s (database: ${database_.kind})`);
  if (!worker || process.env.SWITCHBOARD_WORKER === '1') {
    console.log(`  Console        ${base}/overview`);
    console.log(`  API base URL   ${base}/api/v1`);
    console.log(`  Health         ${base}/api/health (liveness), ${base}/api/ready (readiness)`);
  }
  if (demo) {
    console.log('');
    console.log('  A demo account was created (shown only this once):');
    console.log(`    email     ${demo.email}`);
    console.log(`    password  ${demo.password}`);
    console.log(`    API key   ${demo.key}`);
    console.log(`    credit    $${demo.creditUsd.toFixed(2)}`);
    console.log('');
    console.log('  Try it:');
    console.log(`    curl ${base}/api/v1/chat/completions -H "Authorization: Bearer ${demo.key}" \\`);
    console.log(`      -H "Content-Type: application/json" -d '{"model":"switchboard/echo","messages":[{"role":"user","content":"Hello!"}]}'`);
  } else if (e.embedded && !e.SKIP_DEMO) {
    console.log(`  Demo account: ${DEMO_EMAIL} (its password and key were printed on the first start).`);
    console.log(`  New key: npm run cli -- key:create --email ${DEMO_EMAIL}`);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Switchboard:${worker} ${signal}, shutting down (streams in flight may run ${e.SHUTDOWN_GRACE_S}s)…`);
    recovery.stop();
    idle.stop();
    // No new round starts; an attempt in flight finishes (≤ 15 s) and records its outcome, the rest waits for the next start.
    const webhooksStopped = webhooks.stop();
    if (!worker) removeServerInfo(e.dataDir);
    // Stop accepting, let requests and streams in flight finish (they are settled before their streams end),
    // then write every settlement: both bundles' are in the one runtime's queue.
    await shutDownGracefully({
      server,
      graceMs: e.SHUTDOWN_GRACE_S * 1000,
      inFlight: () => runtime.leases.size,
      flush: () => runtime.close(),
      close: async () => {
        await webhooksStopped;
        await closeDatabase().catch(() => {});
      },
      log: (line) => console.log(line),
    });
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

Promise.resolve(start()).catch((err) => {
  console.error('Switchboard failed to start:', err instanceof Error ? err.message : err);
  if (err instanceof Error && !(err instanceof AppError) && err.stack) console.error(sourceMappedStack(err.stack));
  process.exit(1);
});

/** A full garbage collection, once, at start. */
function collectStartupGarbage(): void {
  exposedGc()?.();
}
