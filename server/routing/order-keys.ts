// The order in which to try a provider's keys. Both orders are one formula, Efraimidis–Spirakis weighted
// sampling: each key scores ln(u) / weight for a u in (0, 1), highest first. The first key is then key i with
// probability weight_i / Σ weight, and the rest follow likewise (weighted sampling without replacement).
// - No affinity: u is random, so requests spread over the keys by weight.
// - With an affinity (X-Task-ID, prompt_cache_key, user): u is a hash of affinity and key ref, which makes it
//   weighted rendezvous hashing: the same affinity puts the same key first for as long as that key is
//   available (its provider-side prompt cache stays warm); when it is not, the affinity moves to its
//   second-best key, and returns when the first is back. Keys joining or leaving move only the affinities
//   that rank them first, and the spread across affinities follows the weights.
// Cost: one small array, a hash over the affinity's characters, and an insertion sort of ≤ 10 keys.
import type { RoutingKey } from './routing-table';

/** Scores of the keys being ordered, reused between calls (orderKeys is synchronous, so never shared). */
let scratch = new Float64Array(16);

/**
 * Healthy keys of a provider in the order to try: the first by weight (weighted rendezvous hash of `affinity`
 * when given — the same affinity gets the same key while it is healthy —, else weighted random), then the
 * rest likewise. Keys for which `available(ref)` is false are left out.
 */
export function orderKeys(keys: readonly RoutingKey[], available: (ref: string) => boolean, affinity?: string, random: () => number = Math.random): RoutingKey[] {
  const result: RoutingKey[] = [];
  for (const key of keys) if (available(key.ref)) result.push(key);
  const n = result.length;
  if (n < 2) return result;
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, scratch.length * 2));
  const scores = scratch;
  const seed = affinity ? hashString(FNV_OFFSET, affinity) : 0;
  for (let i = 0; i < n; i++) {
    const key = result[i];
    const u = affinity ? unitInterval(hashString(seed, key.ref)) : 1 - random(); // (0, 1]: ln stays finite
    // A weight of 0 or less cannot come from the schema (positive); were it to, the key goes last.
    scores[i] = key.weight > 0 ? Math.log(u) / key.weight : -Infinity;
  }
  // Insertion sort, highest score first, moving keys and scores together (stable for equal scores).
  for (let i = 1; i < n; i++) {
    const key = result[i];
    const score = scores[i];
    let j = i - 1;
    while (j >= 0 && scores[j] < score) {
      result[j + 1] = result[j];
      scores[j + 1] = scores[j];
      j--;
    }
    result[j + 1] = key;
    scores[j + 1] = score;
  }
  return result;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units, continuing from `hash`: the affinity's hash is computed once and extended per key. */
function hashString(hash: number, s: string): number {
  let h = hash;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  // A separator, so ("ab", "c") and ("a", "bc") hash apart.
  return Math.imul(h ^ 0xff, FNV_PRIME);
}

/** MurmurHash3's finalizer (FNV's low bits mix poorly), mapped into (0, 1). */
function unitInterval(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) + 0.5) / 4294967296;
}
