// What SIGTERM does to a server process (server/main.ts; the crash tests' gateway process does the same):
// stop accepting connections, let the requests and streams in flight finish for up to SHUTDOWN_GRACE_S, then
// close what is still open (a stream cut there settles what it generated, as when a client goes away), write
// every queued settlement, and close the database. GET /api/ready answers 503 from the first moment.
import type http from 'node:http';
import { markShuttingDown } from '@/server/runtime/lifecycle';

export interface ShutdownSteps {
  server: http.Server;
  /** How long requests in flight may run on. */
  graceMs: number;
  /** Generations still holding a reservation (runtime.leases.size): waited for after connections are cut. */
  inFlight: () => number;
  /** Writes every queued settlement (runtime.close()). */
  flush: () => Promise<void>;
  /** After the flush (the database). */
  close?: () => Promise<void>;
  log?: (line: string) => void;
}

const openConnections = (server: http.Server) => new Promise<number>((resolve) => server.getConnections((_, n) => resolve(n ?? 0)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once everything is written; the caller exits. */
export async function shutDownGracefully(s: ShutdownSteps): Promise<{ cut: number }> {
  const log = s.log ?? (() => {});
  markShuttingDown();
  s.server.close(); // no new connections; keep-alive connections are closed as they fall idle (below)
  const deadline = Date.now() + s.graceMs;
  let open = await openConnections(s.server);
  while (open > 0 && Date.now() < deadline) {
    s.server.closeIdleConnections();
    await sleep(Math.min(100, Math.max(1, deadline - Date.now())));
    open = await openConnections(s.server);
  }
  if (open > 0) {
    log(`Switchboard: ${open} connection(s) still open after ${s.graceMs / 1000}s (SHUTDOWN_GRACE_S), closing them`);
    s.server.closeAllConnections();
    // A cut stream settles what it generated (the client-gone path); give those settlements a moment to queue.
    const settleBy = Date.now() + 5_000;
    while (s.inFlight() > 0 && Date.now() < settleBy) await sleep(20);
  }
  await s.flush();
  await s.close?.();
  return { cut: open };
}
