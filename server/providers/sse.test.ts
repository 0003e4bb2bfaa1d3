import { describe, expect, it } from 'vitest';
import { createSseParser, encodeSseData, parseSse, parseUnframedTail, UNFRAMED_TAIL_EVENT } from './sse';
import type { SseEvent } from './types';

// A stream that exercises every rule at once: comments, named events, multi-line data, a field without
// a colon, multi-byte UTF-8 (2, 3 and 4 bytes), LF, CRLF and lone-CR line endings.
const FIXTURE =
  ': keep-alive\n\n' +
  'data: {"content":"héllo"}\n\n' +
  'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n' +
  'data: first line\ndata: second line\n\n' +
  'id: 7\nretry: 1000\ndata: 中文 and 🎉\n\n' +
  'data:no-space\r\rdata:  two spaces\r\r' +
  'data\n\n' + // a data field without a colon: empty value, so no event
  'event: ping\n\n' + // no data: skipped
  'unknown: field\ndata: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { data: '{"content":"héllo"}' },
  { event: 'message_start', data: '{"type":"message_start"}' },
  { data: 'first line\nsecond line' },
  { data: '中文 and 🎉' },
  { data: 'no-space' },
  { data: ' two spaces' },
  { data: '[DONE]' },
];

function parseChunks(chunks: Array<Uint8Array | string>): SseEvent[] {
  const parser = createSseParser();
  const out: SseEvent[] = [];
  for (const chunk of chunks) out.push(...parser.push(chunk));
  out.push(...parser.end());
  return out;
}

describe('createSseParser', () => {
  const bytes = new TextEncoder().encode(FIXTURE);

  it('parses the fixture in one chunk', () => {
    expect(parseChunks([bytes])).toEqual(EXPECTED);
    expect(parseChunks([FIXTURE])).toEqual(EXPECTED);
  });

  it('gives the same events when the bytes are split at every offset (mid-line, mid-CRLF, mid-character)', () => {
    for (let i = 0; i <= bytes.length; i++) {
      expect(parseChunks([bytes.subarray(0, i), bytes.subarray(i)]), `split at byte ${i}`).toEqual(EXPECTED);
    }
  });

  it('gives the same events when the string is split at every offset', () => {
    for (let i = 0; i <= FIXTURE.length; i++) {
      expect(parseChunks([FIXTURE.slice(0, i), FIXTURE.slice(i)]), `split at char ${i}`).toEqual(EXPECTED);
    }
  });

  it('gives the same events fed one byte at a time and in three-way splits', () => {
    expect(parseChunks(Array.from(bytes, (b) => Uint8Array.of(b)))).toEqual(EXPECTED);
    for (let i = 0; i < bytes.length; i += 7) {
      for (let j = i; j < bytes.length; j += 11) {
        expect(parseChunks([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)])).toEqual(EXPECTED);
      }
    }
  });

  it('returns events as soon as their blank line arrives', () => {
    const parser = createSseParser();
    expect(parser.push('data: a\n')).toEqual([]);
    expect(parser.push('\ndata: b')).toEqual([{ data: 'a' }]);
    expect(parser.push('\n\n')).toEqual([{ data: 'b' }]);
    expect(parser.end()).toEqual([]);
  });

  it('treats a CR at the end of a chunk as a line end and swallows the LF that follows', () => {
    const parser = createSseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([{ data: 'a' }]);
    expect(parser.push('\ndata: b\r\r')).toEqual([{ data: 'b' }]);
  });

  it('resets the event name after each event', () => {
    expect(parseChunks(['event: delta\ndata: 1\n\ndata: 2\n\n'])).toEqual([{ event: 'delta', data: '1' }, { data: '2' }]);
  });

  it('keeps colons inside the value and only strips one leading space', () => {
    expect(parseChunks(['data: {"a":"b: c"}\n\ndata:   x\n\n'])).toEqual([{ data: '{"a":"b: c"}' }, { data: '  x' }]);
  });

  it('skips comments between data lines of one event', () => {
    expect(parseChunks(['data: a\n: comment\ndata: b\n\n'])).toEqual([{ data: 'a\nb' }]);
  });

  it('delivers a complete final event that lacks its blank line, but not a line cut mid-way', () => {
    expect(parseChunks(['data: {"x":1}\n\ndata: [DONE]\n'])).toEqual([{ data: '{"x":1}' }, { data: '[DONE]' }]);
    expect(parseChunks(['data: {"x":1}\n\ndata: {"cho'])).toEqual([{ data: '{"x":1}' }]);
  });

  it('hands over a body that ends in text that is no SSE (a bare error object) as one unframed tail event', () => {
    // Gemini's way of failing after the 200 (vercel/ai#5217): a pretty-printed google.rpc.Status, no `data:`.
    const tail = '{\n  "error": {\n    "code": 503,\n    "message": "The model is overloaded. Please try again later.",\n    "status": "UNAVAILABLE"\n  }\n}';
    for (const ending of ['\n', '']) {
      const events = parseChunks(['data: {"x":1}\n\n', tail.slice(0, 20), tail.slice(20) + ending]);
      expect(events).toEqual([{ data: '{"x":1}' }, { event: UNFRAMED_TAIL_EVENT, data: tail }]);
      expect(parseUnframedTail(events[1]!.data)).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
    }
    expect(parseUnframedTail('[{"error":{"code":500}}]')).toEqual({ error: { code: 500 } });
    expect(parseUnframedTail('<html>Bad gateway</html>')).toBeUndefined();
  });

  it('forgets non-SSE lines followed by an event, and never counts id, retry, comments or a cut data line as a tail', () => {
    expect(parseChunks(['junk line\ndata: a\n\n'])).toEqual([{ data: 'a' }]);
    expect(parseChunks(['data: a\n\nid: 3\nretry: 10\n: comment\ndata: {"cut'])).toEqual([{ data: 'a' }]);
  });

  it('strips a leading byte-order mark from bytes and from strings', () => {
    expect(parseChunks([Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf, ...new TextEncoder().encode('data: x\n\n'))])).toEqual([{ data: 'x' }]);
    expect(parseChunks(['\ufeffdata: x\n\n'])).toEqual([{ data: 'x' }]);
  });

  it('replaces a UTF-8 sequence left incomplete at the end with U+FFFD instead of hanging on to it', () => {
    expect(parseChunks([Uint8Array.of(...new TextEncoder().encode('data: a'), 0xe4, 0xb8, 0x0a)])).toEqual([{ data: 'a\ufffd' }]);
  });

  it('stays linear on a large event delivered in small chunks', () => {
    const payload = JSON.stringify({ content: 'x'.repeat(2_000_000) });
    const wire = new TextEncoder().encode(`data: ${payload}\n\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < wire.length; i += 512) chunks.push(wire.subarray(i, i + 512));
    const started = performance.now();
    const events = parseChunks(chunks);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(events).toHaveLength(1);
    expect(events[0].data).toBe(payload);
  });
});

describe('parseSse', () => {
  it('parses an async iterable of Buffers', async () => {
    async function* body() {
      const buffer = Buffer.from(FIXTURE);
      for (let i = 0; i < buffer.length; i += 5) yield buffer.subarray(i, i + 5);
    }
    const events: SseEvent[] = [];
    for await (const event of parseSse(body())) events.push(event);
    expect(events).toEqual(EXPECTED);
  });

  it('parses a plain array of strings', async () => {
    const events: SseEvent[] = [];
    for await (const event of parseSse(['data: 1\n', '\n', 'data: 2\n\n'])) events.push(event);
    expect(events).toEqual([{ data: '1' }, { data: '2' }]);
  });
});

describe('encodeSseData', () => {
  it('frames one data event that the parser reads back', () => {
    const wire = encodeSseData('{"a":1}');
    expect(wire).toBe('data: {"a":1}\n\n');
    expect(parseChunks([wire])).toEqual([{ data: '{"a":1}' }]);
  });
});
