// The chat path's cancel signal must behave as AbortSignal does for everything it is handed to: our own
// listeners, undici's request() and Node's timers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Cancellation, clientGone, untilAborted } from './cancel-signal';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())));

describe('Cancellation', () => {
  it('calls each abort listener once, in order, with the reason set; later aborts change nothing', () => {
    const c = new Cancellation();
    const calls: string[] = [];
    const first = () => calls.push(`first:${String(c.signal.reason)}`);
    c.signal.addEventListener('abort', first);
    c.signal.addEventListener('abort', first); // the same listener twice: once, as EventTarget does
    c.signal.addEventListener('abort', () => calls.push('second'), { once: true });
    expect(c.signal.aborted).toBe(false);
    c.abort('client gone');
    c.abort('again');
    expect(c.signal.aborted).toBe(true);
    expect(c.signal.reason).toBe('client gone');
    expect(calls).toEqual(['first:client gone', 'second']);
  });

  it('does not call a removed listener, nor one added after the abort', () => {
    const c = new Cancellation();
    let removed = 0;
    let late = 0;
    const listener = () => removed++;
    c.signal.addEventListener('abort', listener);
    c.signal.removeEventListener('abort', listener);
    c.abort();
    c.signal.addEventListener('abort', () => late++);
    expect([removed, late]).toEqual([0, 0]);
  });

  it('defaults the reason to an AbortError and throws it from throwIfAborted', () => {
    const c = new Cancellation();
    expect(() => c.signal.throwIfAborted()).not.toThrow();
    c.abort();
    expect(c.signal.reason).toBeInstanceOf(DOMException);
    expect((c.signal.reason as DOMException).name).toBe('AbortError');
    expect(() => c.signal.throwIfAborted()).toThrow(c.signal.reason as Error);
  });

  it('aborts an undici request in flight with its reason and closes the connection', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    server = http.createServer((req) => req.socket.on('close', () => closed())); // never answers
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    const c = new Cancellation();
    const pending = request(`http://127.0.0.1:${port}/`, { signal: c.signal as AbortSignal });
    setTimeout(() => c.abort(new Error('client went away')), 50);
    await expect(pending).rejects.toThrow('client went away');
    await connectionClosed;
  });

  it('cancels a timers/promises sleep', async () => {
    const c = new Cancellation();
    const slept = sleep(10_000, undefined, { signal: c.signal as AbortSignal });
    c.abort();
    await expect(slept).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('is refused where a real AbortSignal is needed (fetch), so TypeScript must keep it away from there', async () => {
    const c = new Cancellation();
    await expect(fetch('http://127.0.0.1:9/', { signal: c.signal as AbortSignal })).rejects.toThrow(TypeError);
  });

  it('clientGone aborts when the client disconnects before the answer, and not after one', async () => {
    const signals: ReturnType<typeof clientGone>[] = [];
    server = http.createServer((req, res) => {
      signals.push(clientGone(res));
      if (req.url === '/answer') res.end('ok'); // the other request is never answered
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/answer`)).text()).toBe('ok');
    const gone = new AbortController();
    const pending = fetch(`${base}/hang`, { signal: gone.signal }).catch(() => 'client aborted');
    await expect.poll(() => signals.length).toBe(2);
    gone.abort();
    expect(await pending).toBe('client aborted');
    await expect.poll(() => signals[1].aborted).toBe(true);
    expect(signals[0].aborted).toBe(false);
  });

  it("untilAborted gives the promise's value, or the reason of an abort that comes first", async () => {
    const c = new Cancellation();
    await expect(untilAborted(Promise.resolve('token'), c.signal)).resolves.toBe('token');
    const waiting = untilAborted(new Promise(() => {}), c.signal);
    c.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    await expect(untilAborted(Promise.resolve('late'), c.signal)).rejects.toThrow('client went away');
  });
});
