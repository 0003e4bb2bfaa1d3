// A request's "the client went away / stop this upstream call" signal, without Node 20's AbortSignal.
//
// Why: on Node 20 every AbortSignal survives young-generation collections until the next full one (its
// constructor sets the prototype of an EventTarget and then adds properties to it; a loop making nothing but
// `new AbortController().signal` keeps ~2–3 MB alive per scavenge, and a plain object built the same way
// none). Everything its listeners reach survives with it: on the chat path that was the request's closures,
// its upstream request and route, ~5 KB per request. At 500 req/s that was ~1.4 MB promoted per scavenge,
// 7–12 ms scavenge pauses about once a second (the p99 of the chat path) and an old generation that filled
// in about a minute (a 70–90 ms full collection). Measured with `--trace-gc-nvp` and the sampling heap
// profiler keeping only what survived a scavenge (2026-11-29, docs/performance-history.md).
//
// What: the part of AbortSignal that the chat path and the libraries it hands the signal to use — `aborted`,
// `reason`, `throwIfAborted()`, and 'abort' listeners through addEventListener/removeEventListener. undici's
// request() takes any EventTarget-like signal, and Node's own APIs (timers/promises, events) check only that
// `aborted` is there. APIs that insist on a real AbortSignal (fetch, AbortSignal.any) do not take it: the type
// below is not an AbortSignal, so TypeScript refuses such a call.

import type { ServerResponse } from 'node:http';

/** What a consumer of a cancel signal may use: a subset of AbortSignal (a real AbortSignal is one too). */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

type Listener = (this: unknown, event: { type: 'abort'; target: unknown }) => void;

/** A cancel signal and its abort(): like AbortController and its signal in one object. */
export class Cancellation implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  /** Listeners in the order they were added (an 'abort' event fires once: every listener is a once-listener). */
  private listeners: Listener[] | null = null;

  /** The signal to hand to consumers (this object, seen through its read side). */
  get signal(): CancelSignal {
    return this;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: unknown): void {
    // Like EventTarget: other event types are never dispatched, a listener added after the abort is not called,
    // and the same listener added twice is called once.
    if (type !== 'abort' || this.aborted || typeof listener !== 'function') return;
    const list = (this.listeners ??= []);
    if (!list.includes(listener as Listener)) list.push(listener as Listener);
  }

  removeEventListener(type: string, listener: unknown): void {
    const list = this.listeners;
    if (type !== 'abort' || !list) return;
    const i = list.indexOf(listener as Listener);
    if (i !== -1) list.splice(i, 1);
  }

  /** Aborts once: later calls do nothing. The reason defaults to an AbortError, as AbortController's does. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const list = this.listeners;
    this.listeners = null;
    if (!list) return;
    const event = { type: 'abort' as const, target: this };
    for (const listener of list) {
      try {
        listener.call(this, event);
      } catch (err) {
        // As EventTarget does: one listener's error does not stop the others; it is thrown where nothing catches it.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}

/** Aborts when the response's connection closes before the response ended: the client went away. */
export function clientGone(res: ServerResponse): CancelSignal {
  const cancel = new Cancellation();
  res.on('close', () => {
    if (!res.writableFinished) cancel.abort();
  });
  return cancel.signal;
}

/**
 * `promise`, or the signal's reason if it aborts first. The work behind `promise` goes on (a shared token fetch
 * serves the other requests); only this caller stops waiting.
 */
export function untilAborted<T>(promise: Promise<T>, signal: CancelSignal): Promise<T> {
  const reason = () => signal.reason ?? new Error('aborted');
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
