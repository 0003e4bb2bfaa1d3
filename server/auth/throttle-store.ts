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
let redis: Redis | null | undefined;

function redisClient(): Redis | null {
  if (redis !== undefined) return redis;
  const url = env().REDIS_URL;
  redis = url ? new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : null;
  redis?.on('error', () => {}); // a down Redis falls back to memory below
  return redis;
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
  const r = redisClient();
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

export function resetThrottleStore(): void {
  memory.clear();
}
