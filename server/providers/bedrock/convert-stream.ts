// ConverseStream events (API_runtime_ConverseStream "Response Syntax"; decoded from the binary event stream
// by parse-event-stream.ts) → OpenAI-shaped deltas: messageStart, contentBlockStart (tool use only),
// contentBlockDelta (text, toolUse.input, reasoningContent text/signature/redactedContent), contentBlockStop,
// messageStop (stopReason) and metadata (usage), or an exception event that ends the stream; an event type
// this code does not know is skipped.
import type { FinishReason, MidStreamError, NormalizedUsage, SseEvent, StreamConverter, StreamDelta } from '@/server/providers/types';
import { BEDROCK_REASONING_FORMAT } from './convert-messages';
import { convertStreamError } from './convert-error';
import { bedrockUsageSchema, convertUsage } from './convert-usage';
import { mapFinishReason, stopReasonError } from './map-finish-reason';
import { ERROR_EVENT } from './parse-event-stream';

type Data = Record<string, unknown>;
type Block = { kind: 'tool'; index: number; sentArguments: boolean } | { kind: 'reasoning'; index: number } | { kind: 'text' };

const asRecord = (value: unknown): Data => (typeof value === 'object' && value !== null ? (value as Data) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The stream's event types. */
const STREAM_EVENTS = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);

/**
 * The exception type of a frame that is not one of the stream's events: an exception frame is named by its
 * type, and every exception of the union ends in "Exception" (throttlingException, modelStreamErrorException…);
 * an error frame carries its code. Null for any other name: an event type newer than this code, skipped as
 * AWS's SDKs skip a union member they do not know ($UnknownMember), rather than ending a good answer.
 */
function exceptionType(name: string, data: Data): string | null {
  if (name === ERROR_EVENT) return asString(data.code) ?? 'unknownError';
  return /exception$/i.test(name) ? name : null;
}

/**
 * Tool calls get OpenAI's sequential index (0, 1, …), not Bedrock's contentBlockIndex, which also counts
 * text and reasoning blocks; reasoning_details get a sequential index per reasoning block, as
 * convert-response.ts numbers them, so concatenating fragments by index rebuilds the same details.
 */
export function createStreamConverter(): StreamConverter {
  const blocks = new Map<number, Block>();
  let nextTool = 0;
  let nextReasoning = 0;
  let usage: NormalizedUsage | null = null;
  let finishReason: FinishReason | null = null;
  let error: MidStreamError | null = null;
  let done = false;

  function reasoningBlock(index: number): { kind: 'reasoning'; index: number } {
    const block = blocks.get(index);
    if (block?.kind === 'reasoning') return block;
    const created = { kind: 'reasoning' as const, index: nextReasoning++ };
    blocks.set(index, created);
    return created;
  }

  function delta(index: number, value: Data): StreamDelta[] {
    const text = asString(value.text);
    if (text !== undefined) {
      if (!blocks.has(index)) blocks.set(index, { kind: 'text' });
      return text ? [{ content: text }] : [];
    }
    const block = blocks.get(index);
    if (value.toolUse !== undefined) {
      const input = asString(asRecord(value.toolUse).input);
      if (block?.kind !== 'tool' || !input) return [];
      block.sentArguments = true;
      return [{ tool_calls: [{ index: block.index, function: { arguments: input } }] }];
    }
    if (value.reasoningContent !== undefined) {
      const content = asRecord(value.reasoningContent);
      const thought = asString(content.text);
      const signature = asString(content.signature);
      const redacted = asString(content.redactedContent);
      if (thought) {
        const reasoning = reasoningBlock(index);
        return [{ reasoning: thought, reasoning_details: [{ type: 'reasoning.text', text: thought, format: BEDROCK_REASONING_FORMAT, index: reasoning.index }] }];
      }
      // text '' so that concatenating by index keeps the text and picks up the signature.
      if (signature) return [{ reasoning_details: [{ type: 'reasoning.text', text: '', signature, format: BEDROCK_REASONING_FORMAT, index: reasoningBlock(index).index }] }];
      if (redacted !== undefined) return [{ reasoning_details: [{ type: 'reasoning.encrypted', data: redacted, format: BEDROCK_REASONING_FORMAT, index: reasoningBlock(index).index }] }];
    }
    return [];
  }

  return {
    push(ev: SseEvent): StreamDelta[] {
      const name = ev.event ?? '';
      let data: Data;
      try {
        data = asRecord(JSON.parse(ev.data));
      } catch {
        return [];
      }
      if (!STREAM_EVENTS.has(name)) {
        const exception = exceptionType(name, data);
        if (exception === null) return [];
        error = convertStreamError(exception, asString(data.message) ?? asString(data.Message));
        done = true;
        return [];
      }
      const index = typeof data.contentBlockIndex === 'number' ? data.contentBlockIndex : 0;
      switch (name) {
        case 'contentBlockStart': {
          const toolUse = asRecord(asRecord(data.start).toolUse);
          if (typeof toolUse.toolUseId !== 'string') return [];
          const toolIndex = nextTool++;
          blocks.set(index, { kind: 'tool', index: toolIndex, sentArguments: false });
          return [{ tool_calls: [{ index: toolIndex, id: toolUse.toolUseId, type: 'function', function: { name: asString(toolUse.name) ?? '', arguments: '' } }] }];
        }
        case 'contentBlockDelta':
          return delta(index, asRecord(data.delta));
        case 'contentBlockStop': {
          const block = blocks.get(index);
          // A tool without parameters streams no input; '' would break the client's JSON.parse.
          if (block?.kind === 'tool' && !block.sentArguments) return [{ tool_calls: [{ index: block.index, function: { arguments: '{}' } }] }];
          return [];
        }
        case 'messageStop':
          finishReason = mapFinishReason(asString(data.stopReason));
          error = stopReasonError(asString(data.stopReason)) ?? error;
          return [];
        case 'metadata': {
          const parsed = bedrockUsageSchema.safeParse(data.usage);
          if (parsed.success) usage = convertUsage(parsed.data);
          done = true; // metadata is the last event, after messageStop
          return [];
        }
        default:
          return []; // messageStart
      }
    },
    get finishReason() {
      return finishReason;
    },
    get usage() {
      return usage;
    },
    get error() {
      return error;
    },
    get done() {
      return done;
    },
  };
}
