import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exposedGc, startIdleCollection, type IdleCollection } from './idle-collection';

const response = () => new EventEmitter() as unknown as ServerResponse;

describe('idle collection', () => {
  let clock = 0;
  let gcCalls = 0;
  let idle: IdleCollection;
  /** Moves the clock and runs the check timer for that long. */
  const wait = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };
  /** A request that starts now and ends after `ms`. */
  const serve = (ms = 1) => {
    const res = response();
    idle.track(res);
    wait(ms);
    res.emit('close');
  };

  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    gcCalls = 0;
    idle = startIdleCollection({ gc: () => gcCalls++, idleMs: 100, minRequests: 3, secondAfterMs: 50, checkEveryMs: 10, now: () => clock });
  });
  afterEach(() => {
    idle.stop();
    vi.useRealTimers();
  });

  it('collects twice, secondAfterMs apart, when the server has been idle for idleMs after minRequests requests', () => {
    for (let i = 0; i < 3; i++) serve();
    wait(90);
    expect(gcCalls).toBe(0); // idle for less than 100 ms
    wait(20);
    expect(gcCalls).toBe(1);
    wait(40);
    expect(gcCalls).toBe(1);
    wait(20);
    expect(gcCalls).toBe(2);
    wait(1_000);
    expect(gcCalls).toBe(2); // nothing served since: no more collections
    expect(idle.collections).toBe(1);
  });

  it('skips the second collection when a request came after the first', () => {
    for (let i = 0; i < 3; i++) serve();
    wait(110);
    expect(gcCalls).toBe(1);
    serve();
    wait(1_000);
    expect(gcCalls).toBe(1);
    expect(idle.collections).toBe(0);
    for (let i = 0; i < 2; i++) serve(); // three since the first collection: the next idle period collects again
    wait(110);
    expect(gcCalls).toBe(2);
    wait(60);
    expect(gcCalls).toBe(3);
    expect(idle.collections).toBe(1);
  });

  it('does not collect after fewer than minRequests requests', () => {
    serve();
    serve();
    wait(1_000);
    expect(gcCalls).toBe(0);
    serve();
    wait(150);
    expect(gcCalls).toBe(1);
  });

  it('does not collect while a request is in flight, however long it runs', () => {
    for (let i = 0; i < 3; i++) serve();
    const stream = response();
    idle.track(stream);
    wait(5_000);
    expect(gcCalls).toBe(0);
    stream.emit('close');
    wait(50);
    expect(gcCalls).toBe(0); // idle since the stream closed, for less than 100 ms
    wait(60);
    expect(gcCalls).toBe(1);
  });

  it('does not collect under steady traffic with gaps shorter than idleMs', () => {
    for (let i = 0; i < 50; i++) {
      serve(5);
      wait(60);
    }
    expect(gcCalls).toBe(0);
  });
});

describe('exposedGc', () => {
  it("returns V8's collector without a node flag", () => {
    const gc = exposedGc();
    expect(typeof gc).toBe('function');
    gc!();
  });
});
