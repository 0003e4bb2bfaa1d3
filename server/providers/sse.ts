// The one server-sent-events parser every adapter shares (habit 6: SSE framing is parsed once). It follows
// the WHATWG event-stream rules (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream)
// and is on the hot path of every streamed token, so it works on whole decoded strings with indexOf and
// slices instead of walking bytes, and collects multi-line data in an array joined once per event.
import type { SseEvent } from './types';

export interface SseParser {
  /** Feeds the next chunk (split anywhere: mid-line, mid-CRLF, mid-UTF-8 character) and returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[];
  /** Call once the body has ended: returns the last event if the upstream forgot the final blank line. */
  end(): SseEvent[];
}

const COLON = 58; // ':'
const SPACE = 32; // ' '

/**
 * The `event` of what end() returns for text that was not SSE at all after the last event: Gemini ends a
 * failed stream with a bare, pretty-printed `{"error": {…}}` body (vercel/ai#5217), which the SSE rules
 * would ignore line by line. Converters read it for the provider's own error message; nothing else.
 */
export const UNFRAMED_TAIL_EVENT = 'switchboard.unframed-tail';
/** Only the start of a long non-SSE tail is kept: an error object is short. */
const UNFRAMED_TAIL_MAX = 16 * 1024;
const SSE_FIELD = /^(?:data|event|id|retry)(?::|$)/;

export function createSseParser(): SseParser {
  // A streaming decoder keeps a multi-byte character split across chunks until its last byte arrives,
  // and drops a leading BOM as the spec asks.
  const decoder = new TextDecoder('utf-8');
  /** The unterminated tail of the previous chunks, in pieces (none contains a line break). */
  let pending: string[] = [];
  /** The previous chunk ended on '\r': a '\n' starting the next chunk belongs to that CRLF. */
  let skipLeadingLf = false;
  let sawFirstText = false;
  let dataLines: string[] = [];
  let eventType = '';
  /** Lines since the last event that are no SSE field (see UNFRAMED_TAIL_EVENT). */
  let unframed: string[] = [];
  let unframedLength = 0;

  function dispatch(out: SseEvent[]): void {
    // No data field at all, or only empty `data:` lines, carries nothing an adapter can use: the spec
    // skips the former and we skip the latter too, so converters never see an empty payload.
    if (dataLines.length > 0) {
      const data = dataLines.length === 1 ? dataLines[0] : dataLines.join('\n');
      if (data !== '') {
        out.push(eventType ? { event: eventType, data } : { data });
        if (unframed.length > 0) unframed = [];
        unframedLength = 0;
      }
    }
    dataLines = [];
    eventType = '';
  }

  /** Interprets buf[start, end) as one line (without its terminator). */
  function processLine(buf: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) return dispatch(out);
    if (buf.charCodeAt(start) === COLON) return; // a comment, e.g. DeepSeek's ": keep-alive"
    let colon = buf.indexOf(':', start);
    if (colon === -1 || colon > end) colon = end;
    const nameLength = colon - start;
    let valueStart = colon + 1;
    if (valueStart < end && buf.charCodeAt(valueStart) === SPACE) valueStart++;
    const value = valueStart >= end ? '' : buf.slice(valueStart, end);
    if (nameLength === 4 && buf.startsWith('data', start)) dataLines.push(value);
    else if (nameLength === 5 && buf.startsWith('event', start)) eventType = value;
    // `id` and `retry` only matter to a reconnecting browser EventSource; other fields are ignored by spec,
    // but kept aside (never on the per-token path: upstreams send data lines) in case they end the body.
    else if (!(nameLength === 2 && buf.startsWith('id', start)) && !(nameLength === 5 && buf.startsWith('retry', start))) keepUnframed(buf.slice(start, end));
  }

  function keepUnframed(line: string): void {
    if (unframedLength >= UNFRAMED_TAIL_MAX) return;
    unframed.push(line);
    unframedLength += line.length + 1;
  }

  function push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (!sawFirstText && text.length > 0) {
      sawFirstText = true;
      if (typeof chunk === 'string' && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (skipLeadingLf && text.length > 0) {
      skipLeadingLf = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    if (text.length === 0) return [];

    // A long event arrives in many chunks without a line break: those are only collected, and joined
    // once a line ends, so neither copying nor searching ever goes back over text already seen.
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    if (lf === -1 && cr === -1) {
      pending.push(text);
      return [];
    }
    let buf = text;
    if (pending.length > 0) {
      const head = pending.length === 1 ? pending[0] : pending.join('');
      buf = head + text;
      if (lf !== -1) lf += head.length;
      if (cr !== -1) cr += head.length;
      pending = [];
    }
    const out: SseEvent[] = [];
    let pos = 0;
    while (lf !== -1 || cr !== -1) {
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        processLine(buf, pos, lf, out);
        next = lf + 1;
      } else {
        processLine(buf, pos, cr, out);
        if (cr + 1 === buf.length) {
          skipLeadingLf = true;
          next = cr + 1;
        } else {
          next = buf.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
      }
      pos = next;
      if (lf !== -1 && lf < pos) lf = buf.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = buf.indexOf('\r', pos);
    }
    if (pos < buf.length) pending.push(buf.slice(pos));
    return out;
  }

  function end(): SseEvent[] {
    const out = push(decoder.decode());
    // The spec discards an event that was not closed by a blank line. We deliver it when all its lines
    // were complete (the upstream closed right after `data: [DONE]\n`, say), because dropping a whole,
    // well-formed final event would turn a finished stream into a "truncated" one. A line cut off
    // mid-way (`pending`) is discarded: it may be half a JSON object. Not SSE at all, it ends the unframed tail.
    const last = pending.join('');
    pending = [];
    dispatch(out);
    if (last && !SSE_FIELD.test(last) && last.charCodeAt(0) !== COLON) keepUnframed(last);
    const tail = unframed.join('\n').trim();
    unframed = [];
    unframedLength = 0;
    if (tail) out.push({ event: UNFRAMED_TAIL_EVENT, data: tail });
    return out;
  }

  return { push, end };
}

/** An unframed tail's JSON object (the first, if it is an array of them), or undefined when it is none. */
export function parseUnframedTail(data: string): Record<string, unknown> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (Array.isArray(json)) json = json[0];
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

/** Parses a whole body (undici's body, a web ReadableStream, an array of strings…) into events. */
export async function* parseSse(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const parser = createSseParser();
  for await (const chunk of source) {
    for (const event of parser.push(chunk)) yield event;
  }
  for (const event of parser.end()) yield event;
}

/** One SSE data event, as the gateway writes OpenAI-shaped chunks to its clients. */
export function encodeSseData(json: string): string {
  return `data: ${json}\n\n`;
}
