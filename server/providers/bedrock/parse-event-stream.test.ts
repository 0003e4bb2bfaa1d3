import { describe, expect, it } from 'vitest';
import { encodeEvent } from '@/test/fake-bedrock';
import { createEventStreamParser } from './parse-event-stream';

const frames = Buffer.concat([
  encodeEvent({ event: 'messageStart', payload: { role: 'assistant' } }),
  encodeEvent({ event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'héllo' } } }),
  encodeEvent({ event: 'modelStreamErrorException', payload: { message: 'boom' }, exception: true }),
]);

describe('createEventStreamParser', () => {
  it('reassembles frames split at every byte and names events by :event-type / :exception-type', () => {
    const parser = createEventStreamParser();
    const events = [...frames].flatMap((byte) => parser.push(Uint8Array.of(byte)));
    expect(events).toEqual([
      { event: 'messageStart', data: '{"role":"assistant"}' },
      { event: 'contentBlockDelta', data: '{"contentBlockIndex":0,"delta":{"text":"héllo"}}' },
      { event: 'modelStreamErrorException', data: '{"message":"boom"}' },
    ]);
    expect(parser.end()).toEqual([]);
  });

  it('decodes several frames arriving in one chunk', () => {
    expect(createEventStreamParser().push(frames).map((e) => e.event)).toEqual(['messageStart', 'contentBlockDelta', 'modelStreamErrorException']);
  });

  it('throws on a corrupted frame (CRC) or bytes that are not event-stream framing', () => {
    const corrupted = Buffer.from(frames);
    corrupted[20] = corrupted[20]! ^ 0xff;
    expect(() => createEventStreamParser().push(corrupted)).toThrow();
    expect(() => createEventStreamParser().push(Buffer.from('data: {"text":"sse"}\n\n'))).toThrow(/malformed/);
  });
});
