// Runs before every test file (vitest.config.ts `setupFiles`). Test files share their worker's process and
// module cache (`isolate: false`: importing the server once per worker instead of once per file took half of
// Vitest's time), so what one file leaves in the process must not reach the next. After each file:
//   - the process-wide runtime and database (kept on globalThis, server/runtime/process-runtime.ts and
//     server/db/client.ts) are closed and forgotten, so the next file's first use builds them from its own
//     environment, as a fresh process would;
//   - a runtime the file built itself and left open stops reading the admission revision (each read would
//     open the process-wide database from the environment again);
//   - the process logger and the auth throttles' counters and Redis connection are forgotten;
//   - process.env is put back as it was before the file ran, and the parsed environment forgotten;
//   - timers, stubbed globals and environment variables are real again.
// Files that mock modules (vi.mock) run isolated instead: a mock would otherwise stay in the shared module cache.
import { afterAll, vi } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { closeThrottleStore, resetThrottleStore } from '@/server/auth/throttle-store';
import { resetShuttingDown } from '@/server/runtime/lifecycle';

const envBefore = { ...process.env };

type Closable = { close(): Promise<void> };
const globals = globalThis as unknown as Record<symbol, unknown>;

afterAll(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();

  const runtime = globals[Symbol.for('switchboard.runtime')] as Closable | undefined;
  delete globals[Symbol.for('switchboard.runtime')];
  await runtime?.close().catch(() => {});
  const watches = globals[Symbol.for('switchboard.admissionRevisions')] as Set<{ close(): void }> | undefined;
  for (const watch of [...(watches ?? [])]) watch.close();
  const database = globals[Symbol.for('switchboard.database')] as Promise<Closable> | undefined;
  delete globals[Symbol.for('switchboard.database')];
  await database?.then((d) => d.close()).catch(() => {});
  delete globals[Symbol.for('switchboard.seeded')];
  delete globals[Symbol.for('switchboard.logger')];
  resetThrottleStore();
  await closeThrottleStore();
  resetShuttingDown();

  for (const name of Object.keys(process.env)) if (!(name in envBefore)) delete process.env[name];
  Object.assign(process.env, envBefore);
  resetEnvCache();
});
