// A full garbage collection when the server falls idle after serving a burst of requests.
//
// Why: Node 20's V8 collects its old generation when that grows, or under memory pressure, and not at rest: its
// memory reducer did not start in a server left alone after load. Under load, objects of requests in flight
// survive two scavenges and are promoted, so a burst leaves its garbage in the old generation, committed and
// resident for as long as the server stays idle. Measured on the embedded database (2026-11-28): after 1,000
// req/s and a closed-loop saturation run, the main thread's old space held 281 MB (276 MB "used", nearly all of it
// garbage) 30 s into the rest that followed, the process's RSS 642 MB.
//
// How: two full collections, SECOND_AFTER_MS apart. The first marks the garbage dead; the pages it emptied stay
// committed until the next full collection finds them empty and gives them back (in a process holding 280 MB of
// promoted garbage: one collection, old space 277 MB committed and RSS unchanged; a second one, old space 5 MB).
// The second is skipped if a request came meanwhile.
//
// When: no HTTP request in flight for IDLE_MS, after at least MIN_REQUESTS requests since the last collection —
// once per busy period, never under steady traffic. A request that arrives during a collection waits for it.
// The check runs on an unreferenced timer; a request costs a counter and a 'close' listener.
import type { ServerResponse } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

/** How long without a request in flight counts as idle. */
export const IDLE_MS = 1_000;
/** Requests since the last collection before an idle period is worth one. */
export const MIN_REQUESTS = 1_000;
/** The second collection's delay after the first (the first's concurrent sweeping is done by then). */
export const SECOND_AFTER_MS = 500;

export interface IdleCollectionOptions {
  /** The collector (default: V8's full collection, exposed as in exposedGc). */
  gc?: () => void;
  idleMs?: number;
  minRequests?: number;
  secondAfterMs?: number;
  /** How often idleness is checked (default idleMs / 4). */
  checkEveryMs?: number;
  now?: () => number;
  /** Told after each idle period's collections: how long they took. */
  onCollected?: (ms: number) => void;
}

export interface IdleCollection {
  /** Counts the request as in flight until its response closes. */
  track(res: ServerResponse): void;
  /** Idle periods collected so far. */
  readonly collections: number;
  stop(): void;
}

/** V8's full collection, as gc() of a new context once --expose-gc is set (no node flag needed); null if unavailable. */
export function exposedGc(): (() => void) | null {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return existing as () => void;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

export function startIdleCollection(options: IdleCollectionOptions = {}): IdleCollection {
  const gc = options.gc ?? exposedGc();
  const idleMs = options.idleMs ?? IDLE_MS;
  const minRequests = options.minRequests ?? MIN_REQUESTS;
  const secondAfterMs = options.secondAfterMs ?? SECOND_AFTER_MS;
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let sinceCollection = 0;
  let lastEnded = now();
  let collections = 0;
  /** When the second collection of the current idle period is due (null: none pending), and the first's time. */
  let secondAt: number | null = null;
  let firstMs = 0;

  const collect = (): number => {
    const t0 = now();
    gc!();
    return now() - t0;
  };
  const check = () => {
    if (secondAt !== null) {
      if (sinceCollection > 0 || inFlight > 0) {
        secondAt = null; // busy again: the next idle period collects
      } else if (now() >= secondAt) {
        secondAt = null;
        const ms = firstMs + collect();
        collections++;
        options.onCollected?.(ms);
      }
      return;
    }
    if (inFlight > 0 || sinceCollection < minRequests || now() - lastEnded < idleMs) return;
    sinceCollection = 0;
    firstMs = collect();
    secondAt = now() + secondAfterMs;
  };

  // One listener function for every response: no closure per request.
  function ended(): void {
    inFlight--;
    lastEnded = now();
  }

  const timer = gc ? setInterval(check, options.checkEveryMs ?? Math.max(10, Math.floor(idleMs / 4))) : null;
  timer?.unref();

  return {
    track(res) {
      inFlight++;
      sinceCollection++;
      res.on('close', ended);
    },
    get collections() {
      return collections;
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
