// Small expiring counters for the auth throttles (password guessing, sign-up and device-code abuse).
// In memory by default; shared across instances through Redis when REDIS_URL is set. The memory store
// applies an update synchronously (no await between read and write), so parallel attempts in one process
// cannot slip through between a check and its count. Through Redis the read-modify-write is two commands:
// a burst can gain an attempt or two, which the backoff absorbs.
import Redis from 'ioredis';
import { env } from '@/server/env';

export interface Counter {
  count: number;
  /** ms epoch of the first event in the current window */
  first: number;
  /** ms epoch of the latest event */
  last: number;
}

type Update = (current: Counter | null) => Counter | null;

const memory = new Map<string, { value: Counter; expiresAt: number }>();
/** The Redis client and its first connection attempt (settled once ready, failed, or after CONNECT_WAIT_MS). */
let redis: { client: Redis; connected: Promise<void> } | null | undefined;
const CONNECT_WAIT_MS = 2_000;

function redisClient(): { client: Redis; connected: Promise<void> } | null {
  if (redis !== undefined) return redis;
  const url = env().REDIS_URL;
  if (!url) return (redis = null);
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  client.on('error', () => {}); // a down Redis falls back to memory below
  // The first attempts wait for the connection (briefly), so they are counted where every instance sees them.
  const connected = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_WAIT_MS);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', done);
    client.once('error', done);
  });
  return (redis = { client, connected });
}

function memoryUpdate(key: string, fn: Update, ttlMs: number, now: number): Counter | null {
  const hit = memory.get(key);
  const current = hit && hit.expiresAt > now ? hit.value : null;
  const next = fn(current);
  if (next) memory.set(key, { value: next, expiresAt: now + ttlMs });
  else memory.delete(key);
  if (memory.size > 100_000) {
    for (const [k, v] of memory) if (v.expiresAt <= now) memory.delete(k);
    if (memory.size > 100_000) memory.clear(); // bound memory: at worst an attacker gets a fresh budget once
  }
  return next;
}

/** Reads, transforms and writes one counter; returns the new value (null = deleted). */
export async function updateCounter(key: string, fn: Update, ttlMs: number, now = Date.now()): Promise<Counter | null> {
  const store = redisClient();
  if (store) await store.connected;
  const r = store?.client;
  if (r && r.status === 'ready') {
    const k = `sb:auth:${key}`;
    try {
      const raw = await r.get(k);
      const next = fn(raw ? (JSON.parse(raw) as Counter) : null);
      if (next) await r.set(k, JSON.stringify(next), 'PX', ttlMs);
      else await r.del(k);
      return next;
    } catch {
      // fall through to memory: throttling must not turn into an outage
    }
  }
  return memoryUpdate(key, fn, ttlMs, now);
}

/** Forgets the in-memory counters (Redis keeps its own). */
export function resetThrottleStore(): void {
  memory.clear();
}

/** Closes the Redis connection; the next update reads REDIS_URL again. */
export async function closeThrottleStore(): Promise<void> {
  const current = redis;
  redis = undefined;
  await current?.client.quit().catch(() => {});
}
