import { describe, expect, it } from 'vitest';
import { KeyHealth, MAX_RETRY_AFTER_MS, type KeyHealthOptions, type KeyHealthView } from './key-health';

const REF = 'openai-a/key-1';

function setup(options: KeyHealthOptions = {}) {
  const clock = { t: 1_700_000_000_000 };
  const changes: KeyHealthView[] = [];
  const health = new KeyHealth({ now: () => clock.t, onChange: (v) => changes.push(v), ...options });
  const advance = (ms: number) => (clock.t += ms);
  /** How many of `n` requests would be sent (each takes what acquire grants). */
  const acquires = (n: number, ref = REF) => Array.from({ length: n }, () => health.acquire(ref)).filter(Boolean).length;
  return { clock, health, advance, acquires, changes };
}

describe('KeyHealth', () => {
  it('a key that never failed is healthy, and acquire grants it every time', () => {
    const { health, acquires } = setup();
    expect(acquires(100)).toBe(100);
    expect(health.isUsable(REF)).toBe(true);
    expect(health.view(REF)).toEqual({ ref: REF, state: 'healthy', until: null, consecutiveFailures: 0, lastError: null });
    expect(health.snapshot()).toEqual([]);
  });

  it('a 429 with Retry-After cools the key for exactly that long: 0 acquires meanwhile', () => {
    const { clock, health, advance, acquires } = setup();
    health.rateLimited(REF, 12);
    expect(health.view(REF)).toMatchObject({ state: 'cooling', until: clock.t + 12_000, lastError: '429 (Retry-After 12 s)' });
    expect(acquires(50)).toBe(0);
    expect(health.isUsable(REF)).toBe(false);
    advance(11_999);
    expect(acquires(50)).toBe(0);
    advance(1);
    // A 429's cooldown ends in full traffic, not a probe: the provider said when.
    expect(acquires(5)).toBe(5);
    expect(health.view(REF).state).toBe('healthy');
  });

  it('a 429 without Retry-After cools for cooldownMs; Retry-After is capped', () => {
    const { clock, health, advance, acquires } = setup({ cooldownMs: 7_000 });
    health.rateLimited(REF);
    expect(health.view(REF)).toMatchObject({ state: 'cooling', until: clock.t + 7_000, lastError: '429' });
    advance(6_999);
    expect(acquires(3)).toBe(0);
    advance(1);
    expect(acquires(3)).toBe(3);

    health.rateLimited(REF, 86_400);
    expect(health.view(REF).until).toBe(clock.t + MAX_RETRY_AFTER_MS);
  });

  it('a shorter Retry-After does not shorten a longer cooldown already in force', () => {
    const { clock, health } = setup();
    health.rateLimited(REF, 60);
    health.rateLimited(REF, 2);
    expect(health.view(REF).until).toBe(clock.t + 60_000);
  });

  it('401/403 cool the key for authCooldownMs, then one probe decides', () => {
    const { clock, health, advance, acquires } = setup({ authCooldownMs: 300_000 });
    health.authFailed(REF, 401);
    expect(health.view(REF)).toMatchObject({ state: 'cooling', until: clock.t + 300_000, lastError: '401 (key refused)' });
    advance(299_999);
    expect(acquires(10)).toBe(0);
    advance(1);
    expect(health.view(REF).state).toBe('half_open');
    expect(acquires(10)).toBe(1);
    health.authFailed(REF, 403); // still revoked
    expect(health.view(REF)).toMatchObject({ state: 'cooling', until: clock.t + 300_000 });
    expect(acquires(10)).toBe(0);
  });

  it('opens the circuit after failureThreshold consecutive failures; a success in between resets the count', () => {
    const { clock, health, acquires } = setup({ failureThreshold: 3, openMs: 30_000 });
    health.failed(REF, '502 from upstream');
    health.failed(REF, 'timeout');
    health.succeeded(REF);
    expect(health.view(REF)).toMatchObject({ state: 'healthy', consecutiveFailures: 0 });
    health.failed(REF, '503');
    health.failed(REF, '503');
    expect(health.view(REF)).toMatchObject({ state: 'healthy', consecutiveFailures: 2 });
    expect(acquires(3)).toBe(3);
    health.failed(REF, 'connection reset');
    expect(health.view(REF)).toEqual({ ref: REF, state: 'open', until: clock.t + 30_000, consecutiveFailures: 3, lastError: 'connection reset' });
    expect(acquires(20)).toBe(0);
  });

  it('half_open lets exactly one probe go; its success closes the circuit', () => {
    const { health, advance, acquires, changes } = setup({ failureThreshold: 2, openMs: 30_000 });
    health.failed(REF, '500');
    health.failed(REF, '500');
    advance(30_000);
    expect(health.isUsable(REF)).toBe(true);
    expect(health.view(REF).state).toBe('half_open');
    expect(health.acquire(REF)).toBe(true); // the probe
    expect(health.isUsable(REF)).toBe(false);
    expect(acquires(20)).toBe(0);
    health.succeeded(REF);
    expect(health.view(REF)).toMatchObject({ state: 'healthy', consecutiveFailures: 0, until: null });
    expect(acquires(20)).toBe(20);
    expect(changes.map((c) => c.state)).toEqual(['open', 'healthy']);
  });

  it("a failed probe reopens the circuit, for twice as long each time up to maxOpenMs", () => {
    const { clock, health, advance, acquires } = setup({ failureThreshold: 1, openMs: 10_000, maxOpenMs: 35_000 });
    health.failed(REF, '500');
    const openFor: number[] = [];
    for (let round = 0; round < 4; round++) {
      advance(health.view(REF).until! - clock.t);
      expect(acquires(5)).toBe(1);
      health.failed(REF, '503');
      expect(health.view(REF).state).toBe('open');
      openFor.push(health.view(REF).until! - clock.t);
      expect(acquires(5)).toBe(0);
    }
    expect(openFor).toEqual([20_000, 35_000, 35_000, 35_000]);
    advance(35_000);
    expect(acquires(1)).toBe(1);
    health.succeeded(REF);
    health.failed(REF, '500'); // a fresh streak starts from openMs again
    expect(health.view(REF).until).toBe(clock.t + 10_000);
  });

  it('a released probe (client went away) lets the next request probe; a lost one is retried after probeTimeoutMs', () => {
    const { health, advance, acquires } = setup({ failureThreshold: 1, openMs: 1_000, probeTimeoutMs: 60_000 });
    health.failed(REF, '500');
    advance(1_000);
    expect(acquires(3)).toBe(1);
    health.released(REF);
    expect(acquires(3)).toBe(1);
    advance(59_999);
    expect(acquires(3)).toBe(0);
    advance(1);
    expect(acquires(3)).toBe(1);
  });

  it('late answers to requests sent before the circuit opened neither extend nor close it early', () => {
    const { clock, health, advance } = setup({ failureThreshold: 1, openMs: 30_000 });
    health.failed(REF, '500');
    const until = clock.t + 30_000;
    advance(5_000);
    health.failed(REF, '500');
    expect(health.view(REF)).toMatchObject({ state: 'open', until, consecutiveFailures: 2 });
    // A late success is evidence the key works again: it closes the circuit.
    health.succeeded(REF);
    expect(health.view(REF).state).toBe('healthy');
  });

  it('a success does not end a 429 cooldown (the limit is still in force)', () => {
    const { health } = setup();
    health.rateLimited(REF, 30);
    health.succeeded(REF);
    expect(health.view(REF).state).toBe('cooling');
    expect(health.acquire(REF)).toBe(false);
  });

  it('a 429 answering the probe ends it: the key cools, then takes full traffic', () => {
    const { health, advance, acquires } = setup({ failureThreshold: 1, openMs: 1_000 });
    health.failed(REF, '500');
    advance(1_000);
    expect(acquires(1)).toBe(1);
    health.rateLimited(REF, 5);
    expect(health.view(REF)).toMatchObject({ state: 'cooling', consecutiveFailures: 0 });
    advance(5_000);
    expect(acquires(4)).toBe(4);
  });

  it('nextAvailableAt gives the soonest moment any of the keys is usable', () => {
    const { clock, health, advance } = setup({ failureThreshold: 1, openMs: 40_000, authCooldownMs: 300_000 });
    const [a, b, c] = ['p/a', 'p/b', 'p/c'];
    expect(health.nextAvailableAt([])).toBeNull();
    expect(health.nextAvailableAt([a, b])).toBe(clock.t);
    health.rateLimited(a, 20);
    health.failed(b, '500');
    health.authFailed(c, 401);
    const start = clock.t;
    expect(health.nextAvailableAt([a, b, c])).toBe(start + 20_000);
    expect(health.nextAvailableAt(new Set([b, c]))).toBe(start + 40_000);
    expect(health.nextAvailableAt([c])).toBe(start + 300_000);
    advance(40_000);
    expect(health.nextAvailableAt([b, c])).toBe(clock.t); // b is half_open, its probe free
    expect(health.acquire(b)).toBe(true);
    expect(health.nextAvailableAt([b, c])).toBe(clock.t + 1_000); // its probe is under way
  });

  it('snapshot lists every key that has failed, with its state', () => {
    const { health } = setup({ failureThreshold: 5 });
    health.failed('p/b', 'timeout');
    health.rateLimited('p/a');
    expect(health.snapshot().map((v) => [v.ref, v.state, v.consecutiveFailures])).toEqual([
      ['p/a', 'cooling', 0],
      ['p/b', 'healthy', 1],
    ]);
  });

  it('keeps keys apart: one key cooling leaves the others alone', () => {
    const { health } = setup();
    health.rateLimited('p/a', 30);
    expect(health.acquire('p/a')).toBe(false);
    expect(health.acquire('p/b')).toBe(true);
  });
});
