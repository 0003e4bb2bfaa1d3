// Bedrock streams in AWS's binary event-stream framing (application/vnd.amazon.eventstream), not SSE: each
// message is [total length u32][headers length u32][prelude CRC][headers][payload][message CRC]. Frames are
// cut out of the byte stream here (a network chunk may hold part of one or several) and decoded, CRCs
// checked, with AWS's own codec. Each becomes an event named by its headers, its payload as data:
//   :message-type event     → { event: :event-type (messageStart, contentBlockDelta, …), data: payload JSON }
//   :message-type exception → { event: :exception-type (throttlingException, …), data: payload JSON {message} }
//   :message-type error     → { event: "error" (ERROR_EVENT), data: {"code": :error-code, "message": :error-message} }
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { SseEvent, StreamParser } from '@/server/providers/types';

const PRELUDE_BYTES = 4;
/** AWS caps one event-stream message at 16 MiB; a longer length field means the bytes are not event-stream framing. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const codec = new EventStreamCodec(toUtf8, fromUtf8);

type Headers = ReturnType<EventStreamCodec['decode']>['headers'];
const headerText = (headers: Headers, name: string): string | undefined => {
  const value = headers[name]?.value;
  return typeof value === 'string' ? value : undefined;
};

/** The name given to `:message-type error` frames (their code goes in the data): no event type is named so. */
export const ERROR_EVENT = 'error';

function toEvent(frame: Uint8Array): SseEvent {
  const { headers, body } = codec.decode(frame);
  const messageType = headerText(headers, ':message-type');
  if (messageType === 'error') {
    return { event: ERROR_EVENT, data: JSON.stringify({ code: headerText(headers, ':error-code'), message: headerText(headers, ':error-message') }) };
  }
  const name = messageType === 'exception' ? headerText(headers, ':exception-type') : headerText(headers, ':event-type');
  return { event: name ?? 'unknownEvent', data: toUtf8(body) };
}

export function createEventStreamParser(): StreamParser {
  let buffer = new Uint8Array(0);
  return {
    push(chunk) {
      const joined = new Uint8Array(buffer.length + chunk.length);
      joined.set(buffer);
      joined.set(chunk, buffer.length);
      const events: SseEvent[] = [];
      let offset = 0;
      while (joined.length - offset >= PRELUDE_BYTES) {
        const total = new DataView(joined.buffer, joined.byteOffset + offset, PRELUDE_BYTES).getUint32(0, false);
        if (total < 16 || total > MAX_MESSAGE_BYTES) throw new Error(`Bedrock sent a malformed event-stream frame (length ${total})`);
        if (joined.length - offset < total) break;
        // The codec throws on a CRC mismatch: the stream runner ends the response with a server_error.
        events.push(toEvent(joined.subarray(offset, offset + total)));
        offset += total;
      }
      buffer = joined.slice(offset);
      return events;
    },
    // A partial frame at the end is dropped: the converter, never told the stream finished, reports the cut.
    end: () => [],
  };
}
