// Early dispatch: the provider request of an API key that this process admitted moments ago, with credit to
// spare, is sent while its admission statement is still in the database. The database round trip then
// overlaps the provider's time to first byte instead of adding to it: for a stream, time to first token
// through Switchboard is the provider's plus our CPU time, not plus a commit.
//
// Nothing the client sees changes: no byte of the upstream answer is read or forwarded before admission
// succeeded, and a refused admission (deleted or expired key, no credit, a model the key may not use) gets
// the same 401/402/403 as always while the upstream request is aborted and its connection released.
//
// What it may cost us, never the customer: a provider request started and aborted at once, for a key that
// stopped being usable since it was last admitted. Bounded:
//   - only keys admitted by this process in the last WARM_MS (an unknown or invalid key never reaches a
//     provider before the database said yes; a refusal forgets the key at once);
//   - only while nothing admission decides with has changed since: every change that can refuse or reroute a
//     key's next request (key disabled, deleted, rotated, limited; user suspended; organization policy;
//     provider keys; memberships) bumps a revision in the database, and the runtime forgets every warm key
//     when it moves (admission-revision.ts: at once after a REST or console write in this process, within
//     a second of a change made elsewhere). An admission whose statement may have read the state before
//     that does not warm its key again (`since`), and without a successful read of the revision for
//     TRUST_MS nothing is dispatched early;
//   - only while the credit left at the key's last admission covers HEADROOM_FACTOR times this request's
//     reservation, and each early request spends its reservation from that remembered headroom until the
//     next admission result refreshes it (so a burst cannot outrun the balance it was measured against).
// EARLY_DISPATCH=0 turns it off.
import { env } from '@/server/env';
import { Cancellation, type CancelSignal } from '@/server/http/cancel-signal';
import type { ServedRoute } from './open-route';

const WARM_MS = 60_000;
const HEADROOM_FACTOR = 20n;
const MAX_KEYS = 10_000;
/** How long a successful read of the admission revision vouches for the warm keys (5 of its polls). */
export const TRUST_MS = 5_000;

/** The keys this process admitted recently, with the credit they had left: one table per process (server/runtime). */
export class WarmKeys {
  private readonly warm = new Map<string, { until: number; headroom: bigint; plain: boolean }>();
  private gen = 0;
  private trustedUntil: number;

  /** @param trusted false: nothing is dispatched early until the first read of the admission revision (trust()). */
  constructor(trusted = true) {
    this.trustedUntil = trusted ? Infinity : 0;
  }

  /** Counts the times the table was forgotten (forgetAll); an admission started at one generation warms its key only in that generation. */
  get generation(): number {
    return this.gen;
  }

  /** Whether this request may go to the provider before its admission completes; if so, its reservation is taken from the key's remembered headroom. */
  claim(keyHash: string, reservationMicros: bigint, now = Date.now()): boolean {
    if (!env().EARLY_DISPATCH || now > this.trustedUntil) return false;
    const w = this.warm.get(keyHash);
    // An account with a model or provider policy or its own provider keys decides the route only with its
    // admission's answer: never dispatched early (a request must not reach a provider the policy refuses).
    if (!w || w.until < now || !w.plain) return false;
    if (w.headroom < reservationMicros * HEADROOM_FACTOR) return false;
    w.headroom -= reservationMicros;
    return true;
  }

  /**
   * An admission succeeded: remember the key as warm, with the credit it had left, and whether its account
   * is plain (no organization model/provider policy, no provider keys of its own).
   * @param since the generation read before the admission's statement was sent: if the table was forgotten
   *   since, the statement may have read the state from before the change that caused it, and is not remembered.
   */
  remember(keyHash: string, headroomMicros: bigint, plain = true, since = this.gen, now = Date.now()): void {
    if (since !== this.gen) return;
    const warm = this.warm;
    if (warm.size >= MAX_KEYS && !warm.has(keyHash)) {
      for (const [k, w] of warm) if (w.until < now) warm.delete(k);
      if (warm.size >= MAX_KEYS) warm.clear();
    }
    warm.set(keyHash, { until: now + WARM_MS, headroom: headroomMicros, plain });
  }

  /** The key was refused (or is gone): no early dispatch until it is admitted again. */
  forget(keyHash: string): void {
    this.warm.delete(keyHash);
  }

  /** Something admission decides with changed (admission-revision.ts): every key waits for its next admission again. */
  forgetAll(): void {
    this.gen++;
    this.warm.clear();
  }

  /** The admission revision was read (and any change acted on) at `now`: early dispatch may go on until now + TRUST_MS. */
  trust(now = Date.now()): void {
    this.trustedUntil = now + TRUST_MS;
  }

  /** Keys remembered (expired ones included until they are swept): for tests and metrics. */
  get size(): number {
    return this.warm.size;
  }
}

export interface EarlyUpstream {
  /** The opened route (after failover before the first byte), as openRoute would give it. */
  response: Promise<ServedRoute>;
  /** Admission failed: abort the request and release its connection. */
  cancel(): void;
}

/** @param open opens the route (open-route.ts) with the signal given, which aborts when the client goes or admission fails. */
export function dispatchEarly(open: (signal: CancelSignal) => Promise<ServedRoute>, clientSignal: CancelSignal): EarlyUpstream {
  const controller = new Cancellation();
  const onClientAbort = () => controller.abort(clientSignal.reason);
  if (clientSignal.aborted) controller.abort(clientSignal.reason);
  else clientSignal.addEventListener('abort', onClientAbort, { once: true });
  const response = open(controller.signal);
  // Awaited only after admission; until then a failure must not count as an unhandled rejection. (On
  // success the listener stays: a client that goes away later must still abort the provider request.)
  response.catch(() => clientSignal.removeEventListener('abort', onClientAbort));
  return {
    response,
    cancel() {
      clientSignal.removeEventListener('abort', onClientAbort);
      controller.abort(new Error('admission refused'));
      response.then((r) => r.response?.body.destroy(), () => {});
    },
  };
}
