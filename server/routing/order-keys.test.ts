import { describe, expect, it } from 'vitest';
import { orderKeys } from './order-keys';
import type { RoutingKey } from './routing-table';

function key(id: string, weight = 1): RoutingKey {
  return { id, ref: `prov/${id}`, apiKey: `sk-${id}`, weight };
}

/** mulberry32: a seeded generator, so a statistical test cannot flake. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const all = () => true;

function firstCounts(keys: RoutingKey[], draws: number, pick: (i: number) => RoutingKey[]): Map<string, number> {
  const counts = new Map(keys.map((k) => [k.id, 0]));
  for (let i = 0; i < draws; i++) {
    const first = pick(i)[0];
    counts.set(first.id, counts.get(first.id)! + 1);
  }
  return counts;
}

describe('orderKeys without affinity: weighted random', () => {
  const keys = [key('light', 1), key('heavy', 3)];

  it('puts each key first in proportion to its weight (1:3 within ±10 % over 10,000 draws)', () => {
    for (const random of [seeded(42), Math.random]) {
      const counts = firstCounts(keys, 10_000, () => orderKeys(keys, all, undefined, random));
      expect(counts.get('light')).toBeGreaterThanOrEqual(2_250);
      expect(counts.get('light')).toBeLessThanOrEqual(2_750);
      expect(counts.get('heavy')).toBeGreaterThanOrEqual(6_750);
      expect(counts.get('heavy')).toBeLessThanOrEqual(8_250);
    }
  });

  it('orders the rest by weight too (sampling without replacement), each key exactly once', () => {
    const three = [key('a', 1), key('b', 2), key('c', 7)];
    const random = seeded(7);
    const counts = firstCounts(three, 10_000, () => orderKeys(three, all, undefined, random));
    expect(counts.get('c')! / 10_000).toBeCloseTo(0.7, 1);
    expect(counts.get('b')! / 10_000).toBeCloseTo(0.2, 1);
    // After c, the second place goes b:a = 2:1.
    const second = { a: 0, b: 0 };
    for (let i = 0; i < 10_000; i++) {
      const order = orderKeys(three, all, undefined, random);
      expect(new Set(order.map((k) => k.id)).size).toBe(3);
      if (order[0].id === 'c') second[order[1].id as 'a' | 'b']++;
    }
    expect(second.b / (second.a + second.b)).toBeCloseTo(2 / 3, 1);
  });

  it('never returns an unavailable key', () => {
    const four = [key('a'), key('b', 5), key('c'), key('d', 2)];
    const down = new Set(['prov/b', 'prov/d']);
    for (let i = 0; i < 200; i++) {
      const order = orderKeys(four, (ref) => !down.has(ref));
      expect(order.map((k) => k.id).sort()).toEqual(['a', 'c']);
    }
    expect(orderKeys(four, () => false)).toEqual([]);
    expect(orderKeys([key('solo')], all)).toEqual([key('solo')]);
    expect(orderKeys([], all)).toEqual([]);
  });
});

describe('orderKeys with affinity: weighted rendezvous hashing', () => {
  const keys = [key('k1'), key('k2', 2), key('k3')];

  it('sends one affinity to the same key 20 of 20 times, whatever the random source', () => {
    const random = seeded(1);
    const firsts = new Set(Array.from({ length: 20 }, () => orderKeys(keys, all, 'task-123', random)[0].id));
    expect(firsts.size).toBe(1);
    // The whole order is stable, not only the first key.
    expect(orderKeys(keys, all, 'task-123')).toEqual(orderKeys(keys, all, 'task-123', seeded(99)));
  });

  it('moves an affinity only while its key is unavailable, and brings it back', () => {
    const affinity = 'conversation-42';
    const [home, second] = orderKeys(keys, all, affinity);
    const down = new Set([home.ref]);
    const moved = Array.from({ length: 20 }, () => orderKeys(keys, (ref) => !down.has(ref), affinity)[0]);
    expect(new Set(moved.map((k) => k.id))).toEqual(new Set([second.id]));
    down.clear();
    expect(orderKeys(keys, all, affinity)[0]).toBe(home);
  });

  it('an unavailable key moves only the affinities it served first', () => {
    const affinities = Array.from({ length: 2_000 }, (_, i) => `user-${i}`);
    const before = affinities.map((a) => orderKeys(keys, all, a)[0].id);
    const after = affinities.map((a) => orderKeys(keys, (ref) => ref !== 'prov/k3', a)[0].id);
    affinities.forEach((_, i) => {
      if (before[i] !== 'k3') expect(after[i]).toBe(before[i]);
      else expect(after[i]).not.toBe('k3');
    });
  });

  it('spreads different affinities over the keys by weight (1:2:1)', () => {
    const counts = firstCounts(keys, 10_000, (i) => orderKeys(keys, all, `session-${i}`));
    expect(counts.get('k1')! / 10_000).toBeCloseTo(0.25, 1);
    expect(counts.get('k2')! / 10_000).toBeCloseTo(0.5, 1);
    expect(counts.get('k3')! / 10_000).toBeCloseTo(0.25, 1);
  });
});
