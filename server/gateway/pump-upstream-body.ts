// Reads an upstream body chunk by chunk through 'data' events, synchronously as each chunk arrives. `for await`
// over the body (what this replaces) costs per chunk a promise or two, each through the promise hooks that the
// process's AsyncLocalStorage turns on, a 'readable' event and a tick: on a stream of small chunks, more CPU
// than parsing, converting and rendering the chunk together (see ARCHITECTURE.md, the streaming path).
import type { Readable } from 'node:stream';

/** Returned by a chunk's consumer to stop reading: the body is destroyed, so the upstream sees the connection close. */
export const STOP_READING = Symbol('stop reading');

/** Nothing (go on), a promise (pause the body until it settles: the client is not keeping up) or STOP_READING. */
export type ChunkVerdict = void | Promise<void> | typeof STOP_READING;

/**
 * Feeds every chunk of `body` to `onChunk` and settles once the body ended (resolves), was stopped (resolves),
 * or failed (rejects; a body closed before its end rejects as `Premature close`, as `for await` did). A throw
 * in `onChunk` destroys the body and rejects with it.
 */
export function pumpUpstreamBody(body: Readable, onChunk: (chunk: Buffer) => ChunkVerdict): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (body.errored) return reject(body.errored);
    if (body.destroyed) return reject(new Error('Premature close'));
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      // A late error (after we stopped) must not be an unhandled 'error' event.
      body.on('error', ignore);
      if (err === undefined) resolve();
      else reject(err);
    };
    const resume = () => {
      if (!settled) body.resume();
    };
    const fail = (err: unknown) => {
      settle(err);
      body.destroy();
    };
    function onData(chunk: Buffer): void {
      if (settled) return;
      let verdict: ChunkVerdict;
      try {
        verdict = onChunk(chunk);
      } catch (err) {
        return fail(err);
      }
      if (verdict === STOP_READING) {
        settle();
        body.destroy();
      } else if (verdict) {
        body.pause();
        verdict.then(resume, fail);
      }
    }
    function onEnd(): void {
      settle();
    }
    function onError(err: Error): void {
      settle(err);
    }
    function onClose(): void {
      settle(new Error('Premature close'));
    }
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

function ignore(): void {}
