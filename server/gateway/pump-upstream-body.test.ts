import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pumpUpstreamBody, STOP_READING } from './pump-upstream-body';

const chunks = (...parts: string[]) => parts.map((p) => Buffer.from(p));

describe('pumpUpstreamBody', () => {
  it('hands over every chunk in order, synchronously as each arrives, and resolves at the end', async () => {
    const body = new PassThrough();
    const seen: string[] = [];
    const done = pumpUpstreamBody(body, (chunk) => void seen.push(chunk.toString()));
    body.write('a');
    // No tick in between: the consumer ran inside the write.
    expect(seen).toEqual(['a']);
    body.write('b');
    body.end('c');
    await done;
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('stops reading and destroys the body on STOP_READING', async () => {
    const body = Readable.from(chunks('1', '2', '3'), { objectMode: false });
    const seen: string[] = [];
    await pumpUpstreamBody(body, (chunk) => {
      seen.push(chunk.toString());
      return seen.length === 2 ? STOP_READING : undefined;
    });
    expect(seen).toEqual(['1', '2']);
    expect(body.destroyed).toBe(true);
  });

  it('pauses the body while the consumer’s promise is pending (a slow client) and goes on after it', async () => {
    const body = new PassThrough();
    let release!: () => void;
    const seen: string[] = [];
    const done = pumpUpstreamBody(body, (chunk) => {
      seen.push(chunk.toString());
      if (seen.length === 1) return new Promise<void>((resolve) => (release = resolve));
    });
    body.write('a');
    body.write('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['a']);
    expect(body.isPaused()).toBe(true);
    release();
    body.end();
    await done;
    expect(seen).toEqual(['a', 'b']);
  });

  it('rejects with the body’s error, and with Premature close when it is destroyed before its end', async () => {
    const failing = new PassThrough();
    const failed = pumpUpstreamBody(failing, () => undefined);
    failing.destroy(new Error('socket hang up'));
    await expect(failed).rejects.toThrow('socket hang up');

    const cut = new PassThrough();
    const closed = pumpUpstreamBody(cut, () => undefined);
    cut.write('a');
    cut.destroy();
    await expect(closed).rejects.toThrow('Premature close');

    await expect(pumpUpstreamBody(cut, () => undefined)).rejects.toThrow('Premature close');
  });

  it('destroys the body and rejects when the consumer throws', async () => {
    const body = new PassThrough();
    const done = pumpUpstreamBody(body, () => {
      throw new Error('unreadable');
    });
    body.write('a');
    await expect(done).rejects.toThrow('unreadable');
    expect(body.destroyed).toBe(true);
  });
});
