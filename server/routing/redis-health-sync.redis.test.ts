// Key health shared through a real Redis (TEST_REDIS_URL): a change on one instance reaches the others, a new
// instance starts with the stored state, and a Redis that is down leaves health working in memory.
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithRedis } from '@/test/redis';
import { KeyHealth, type KeyHealthOptions, type KeyHealthView } from './key-health';
import { healthRedisKeys, readStoredHealth } from './redis-health-sync';

const REF = 'openai-a/key-1';
const open: KeyHealth[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** A KeyHealth that reports the changes other instances send it. */
function instance(options: KeyHealthOptions) {
  const remote: KeyHealthView[] = [];
  const waiters: { ref: string; resolve: (v: KeyHealthView) => void }[] = [];
  const health = new KeyHealth({
    ...options,
    onChange: (view, origin) => {
      if (origin !== 'remote') return;
      remote.push(view);
      for (const w of waiters.splice(0)) if (w.ref === view.ref) w.resolve(view);
      else waiters.push(w);
    },
  });
  open.push(health);
  /** Resolves with the next change to `ref` that another instance sends. */
  const nextRemote = (ref: string) => new Promise<KeyHealthView>((resolve) => waiters.push({ ref, resolve }));
  return { health, remote, nextRemote };
}

describeWithRedis('key health shared through Redis', (redisUrl) => {
  // Each run its own channel and hash: parallel runs on one Redis never see each other's keys.
  const prefix = () => `sbtest-${randomBytes(6).toString('hex')}`;

  it('a 429 on instance A stops instance B from using the key; recovery reaches B too', async () => {
    const redisKeyPrefix = prefix();
    const a = instance({ redisUrl, redisKeyPrefix, instanceId: 'a', failureThreshold: 1 });
    const b = instance({ redisUrl, redisKeyPrefix, instanceId: 'b', failureThreshold: 1 });
    await Promise.all([a.health.ready, b.health.ready]);
    expect(b.health.acquire(REF)).toBe(true);

    const received = b.nextRemote(REF);
    a.health.rateLimited(REF, 30);
    const view = await received;
    expect(view).toMatchObject({ state: 'cooling', lastError: '429 (Retry-After 30 s)' });
    expect(view.until).toBe(a.health.view(REF).until);
    expect(b.health.acquire(REF)).toBe(false);
    expect(b.health.isUsable(REF)).toBe(false);

    // An open circuit on B reaches A; a success on B closes it on A as well.
    const other = 'openai-a/key-2';
    const opened = a.nextRemote(other);
    b.health.failed(other, '503');
    expect(await opened).toMatchObject({ state: 'open', lastError: '503' });
    expect(a.health.acquire(other)).toBe(false);
    const closed = a.nextRemote(other);
    b.health.succeeded(other);
    expect(await closed).toMatchObject({ state: 'healthy' });
    expect(a.health.acquire(other)).toBe(true);

    // An instance does not apply its own messages: A saw only B's two changes, B only A's one.
    expect(a.remote.map((v) => v.state)).toEqual(['open', 'healthy']);
    expect(b.remote.map((v) => v.state)).toEqual(['cooling']);
  });

  it('a new instance starts with the stored state (and a recovered key is no longer stored)', async () => {
    const redisKeyPrefix = prefix();
    const a = instance({ redisUrl, redisKeyPrefix, instanceId: 'a', failureThreshold: 1, openMs: 60_000 });
    await a.health.ready;
    a.health.authFailed('p/revoked', 401);
    a.health.failed('p/down', 'connection refused');
    a.health.failed('p/flaky', '500');
    a.health.succeeded('p/flaky');

    // Stored by a pipeline sent after the calls above returned: wait until Redis holds all three writes.
    const observer = new Redis(redisUrl);
    try {
      const { hash } = healthRedisKeys(redisKeyPrefix);
      for (let i = 0; i < 100 && (await observer.hlen(hash)) !== 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await observer.hkeys(hash)).sort()).toEqual(['p/down', 'p/revoked']);
      expect(await observer.pttl(hash)).toBeGreaterThan(3_600_000);
    } finally {
      await observer.quit();
    }

    const c = instance({ redisUrl, redisKeyPrefix, instanceId: 'c' });
    await c.health.ready;
    expect(c.health.view('p/revoked')).toMatchObject({ state: 'cooling', until: a.health.view('p/revoked').until, lastError: '401 (key refused)' });
    expect(c.health.view('p/down')).toMatchObject({ state: 'open', until: a.health.view('p/down').until });
    expect(c.health.acquire('p/revoked')).toBe(false);
    expect(c.health.acquire('p/down')).toBe(false);
    expect(c.health.acquire('p/flaky')).toBe(true);

    // What the CLI reads when no server runs.
    const stored = await readStoredHealth(redisUrl, redisKeyPrefix);
    expect(stored.map((s) => [s.ref, s.state])).toEqual([
      ['p/down', 'open'],
      ['p/revoked', 'cooling'],
    ]);
  });

  it('of two changes racing between instances the later one wins, whichever arrives last', async () => {
    const redisKeyPrefix = prefix();
    const start = Date.now();
    let t = start;
    const a = instance({ redisUrl, redisKeyPrefix, instanceId: 'a', now: () => t });
    const b = instance({ redisUrl, redisKeyPrefix, instanceId: 'b', now: () => t, failureThreshold: 1 });
    await Promise.all([a.health.ready, b.health.ready]);
    t = start + 5;
    const heard = b.nextRemote(REF);
    a.health.rateLimited(REF, 100);
    expect(await heard).toMatchObject({ state: 'cooling' });
    // B's failure is stamped before A's 429 (its clock says so): A must keep its newer state.
    t = start;
    b.health.failed(REF, '500');
    expect(b.health.view(REF).state).toBe('open');
    // Messages from one publisher arrive in order: once A has B's next change, it has seen (and skipped) the older one.
    const marker = a.nextRemote('p/marker');
    b.health.rateLimited('p/marker');
    await marker;
    expect(a.health.view(REF)).toMatchObject({ state: 'cooling', lastError: '429 (Retry-After 100 s)' });
    expect(a.remote.map((v) => v.ref)).toEqual(['p/marker']);
  });
});

describe('key health with a Redis URL that answers nothing', () => {
  it('works in memory, logs the failure once, and ready settles', async () => {
    const lines: string[] = [];
    const health = new KeyHealth({ redisUrl: 'redis://127.0.0.1:1', log: (l) => lines.push(l) });
    open.push(health);
    await health.ready;
    health.rateLimited(REF, 10);
    health.failed('p/x', '500');
    expect(health.acquire(REF)).toBe(false);
    expect(health.acquire('p/y')).toBe(true);
    // ioredis keeps reconnecting (an error each time): wait until a twin client on the same schedule has
    // failed three times, so ours have too, and there is still one line.
    const twin = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    await new Promise<void>((resolve) => {
      let errors = 0;
      twin.on('error', () => ++errors === 3 && resolve());
    });
    twin.disconnect();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Redis is unavailable/);
    expect(lines[0]).not.toContain('redis://');
  });
});
