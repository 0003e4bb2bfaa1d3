// OpenAI messages → the Converse API's `system` and `messages` content blocks
// (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html). Converse, like Anthropic,
// wants strictly alternating user/assistant turns starting with a user turn, tool results in user turns.
// A part's `cache_control` becomes a `cachePoint` block right after the part (Bedrock's prompt caching marks
// the end of the cached prefix with its own block instead of a flag on the block).
import { AppError } from '@/server/errors';
import type { ChatMessage, ChatRequest, ContentPart, FilePart, ReasoningDetail, ResolvedModel, ToolCall } from '@/server/providers/types';
import { mergeReasoningFragments, toolCallInput } from '@/server/providers/replay-reasoning';

/** The `format` stamped on reasoning_details from Bedrock: Bedrock's signatures verify only on Bedrock, not on Anthropic's API. */
export const BEDROCK_REASONING_FORMAT = 'bedrock-anthropic-v1';

type CacheControl = NonNullable<ChatRequest['cache_control']>;

/**
 * A Converse cache point for a client's `cache_control` (API_runtime_CachePointBlock): `ttl` ("5m" or "1h")
 * is passed when the client gave one, else Bedrock's default (5 minutes) applies.
 */
export function cachePoint(control: Pick<CacheControl, 'ttl'>): ContentBlock {
  return { cachePoint: { type: 'default', ...(control.ttl ? { ttl: control.ttl } : {}) } };
}

type Json = Record<string, unknown>;
export type ContentBlock = Json;
export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

const IMAGE_FORMATS: Record<string, string> = { 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };
const PDF_DATA_URL = /^data:application\/pdf(?:;[\w.+-]+=[^;,]*)*;base64,(.+)$/is;

export const isCachePoint = (block: ContentBlock) => 'cachePoint' in block;

function convertImage(url: string, model: ResolvedModel): ContentBlock {
  if (!model.supportsImages) throw new AppError('bad_request', `Model ${model.id} does not accept images`);
  const match = /^data:([^;,]+);base64,(.+)$/s.exec(url);
  // Converse takes image bytes (or an S3 location), never a URL to fetch.
  if (!match) throw new AppError('bad_request', `${model.id} on Bedrock takes images as base64 data URLs (data:image/png;base64,…), not http(s) URLs`);
  const format = IMAGE_FORMATS[match[1].toLowerCase()];
  if (!format) throw new AppError('bad_request', `Unsupported image type ${match[1]}; use JPEG, PNG, GIF or WebP`);
  return { image: { format, source: { bytes: match[2] } } };
}

/**
 * Bedrock's document name allows only letters, digits, whitespace (never two in a row), hyphens, parentheses
 * and square brackets, and is shown to the model: the filename is reduced to that rather than refused.
 */
export function documentName(filename: string | undefined, index: number): string {
  const cleaned = (filename ?? '')
    .replace(/\.pdf$/i, '')
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return cleaned || `document-${index + 1}`;
}

function convertDocument(part: FilePart, model: ResolvedModel, index: number): ContentBlock {
  const { file_data: data, file_id: fileId, filename } = part.file;
  if (data === undefined) {
    throw new AppError('bad_request', `file.file_id ${fileId ?? ''} names a file uploaded to OpenAI, which ${model.id} cannot read: send the PDF as file.file_data`, { model: model.id, param: 'file_id' });
  }
  const match = PDF_DATA_URL.exec(data);
  if (!match) throw new AppError('bad_request', `${model.id} takes file parts as PDF data URLs (data:application/pdf;base64,…)`, { model: model.id });
  return { document: { format: 'pdf', name: documentName(filename, index), source: { bytes: match[1] } } };
}

/** Text, image and document parts, each followed by a cache point when the client marked it. Empty text is dropped (Converse rejects blank text blocks). */
function convertParts(content: string | ContentPart[], model: ResolvedModel, role: string, documents: { count: number }): ContentBlock[] {
  const parts: ContentPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return parts.flatMap((part): ContentBlock[] => {
    let block: ContentBlock | null;
    if (part.type === 'text') block = part.text === '' ? null : { text: part.text };
    else if (role !== 'user' && role !== 'tool') throw new AppError('bad_request', `Bedrock accepts images and documents only in user and tool messages, not in ${role} messages`);
    else if (part.type === 'file') block = convertDocument(part, model, documents.count++);
    else block = convertImage(part.image_url.url, model);
    if (!block) return [];
    return part.cache_control ? [block, cachePoint(part.cache_control)] : [block];
  });
}

/**
 * Only reasoning Bedrock produced is replayed (its signatures fail elsewhere, and Anthropic's fail here).
 * Fragments a client concatenated naively (several entries sharing an index) are joined first; unsigned
 * text cannot be replayed, as Claude rejects unsigned thinking.
 */
function convertReasoningDetails(details: ReasoningDetail[] | undefined): ContentBlock[] {
  const bedrock = (details ?? []).filter((detail) => detail.format === BEDROCK_REASONING_FORMAT);
  return mergeReasoningFragments(bedrock).flatMap((detail): ContentBlock[] => {
    if (detail.type === 'reasoning.text' && detail.signature) return [{ reasoningContent: { reasoningText: { text: detail.text, signature: detail.signature } } }];
    if (detail.type === 'reasoning.encrypted') return [{ reasoningContent: { redactedContent: detail.data } }];
    return [];
  });
}

function convertToolCall(call: ToolCall): ContentBlock {
  return { toolUse: { toolUseId: call.id, name: call.function.name, input: toolCallInput(call) } };
}

/** A tool message's string content: a JSON object is passed as `json` (the model sees structured data), anything else as text. */
function toolResultContent(text: string): ContentBlock[] {
  if (/^\s*\{/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return [{ json: parsed }];
    } catch {
      // not JSON after all: text
    }
  }
  // Converse refuses a blank text block; an empty tool output still has to say something.
  return [{ text: text === '' ? '(no output)' : text }];
}

/** Tool results first in a user turn, as Claude requires (a cache point stays right after its block). */
function toolResultsFirst(content: ContentBlock[]): ContentBlock[] {
  const groups: ContentBlock[][] = [];
  for (const block of content) {
    if (isCachePoint(block) && groups.length > 0) groups[groups.length - 1]!.push(block);
    else groups.push([block]);
  }
  const results = groups.filter((group) => 'toolResult' in group[0]!);
  return [...results, ...groups.filter((group) => !('toolResult' in group[0]!))].flat();
}

/**
 * system/developer messages are hoisted, in order, into `system`; tool messages become toolResult blocks in
 * a user turn; consecutive same-role messages merge. `status` is not set on tool results: only Claude takes
 * it, and OpenAI's tool message has no error flag to map. `name` has no Converse equivalent and is dropped.
 */
export function convertMessages(messages: ChatMessage[], model: ResolvedModel): { system: ContentBlock[]; messages: ConverseMessage[] } {
  const system: ContentBlock[] = [];
  const turns: ConverseMessage[] = [];
  const toolUseIds = new Set<string>();
  const documents = { count: 0 };
  const append = (role: ConverseMessage['role'], blocks: ContentBlock[]) => {
    if (blocks.every(isCachePoint)) return; // an empty turn would break alternation
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...convertParts(message.content, model, message.role, documents));
        break;
      case 'user':
        append('user', convertParts(message.content, model, 'user', documents));
        break;
      case 'assistant':
        for (const call of message.tool_calls ?? []) toolUseIds.add(call.id);
        append('assistant', [
          // Signed reasoning first: Claude requires it before the toolUse it led to.
          ...convertReasoningDetails(message.reasoning_details),
          ...(message.content ? convertParts(message.content, model, 'assistant', documents) : []),
          ...(message.tool_calls ?? []).map(convertToolCall),
        ]);
        break;
      case 'tool': {
        if (!toolUseIds.has(message.tool_call_id)) {
          throw new AppError('bad_request', `Tool message references tool_call_id ${message.tool_call_id}, which no earlier assistant tool call has`);
        }
        const parts = typeof message.content === 'string' ? toolResultContent(message.content) : convertParts(message.content, model, 'tool', documents);
        // A cache point cannot sit inside a tool result: one marked part puts it right after the result.
        // The longest TTL marked inside wins (1h covers what 5m would).
        const points = parts.filter(isCachePoint);
        const content = parts.filter((block) => !isCachePoint(block));
        const result = { toolResult: { toolUseId: message.tool_call_id, content: content.length > 0 ? content : [{ text: '(no output)' }] } };
        const point = points.find((block) => (block.cachePoint as { ttl?: string }).ttl === '1h') ?? points[0];
        append('user', point ? [result, point] : [result]);
        break;
      }
    }
  }

  for (const turn of turns) if (turn.role === 'user') turn.content = toolResultsFirst(turn.content);
  if (turns.length === 0) throw new AppError('bad_request', 'At least one non-empty user or assistant message is required');
  if (turns[0]!.role !== 'user') throw new AppError('bad_request', 'Bedrock requires the conversation to start with a user message');
  return { system, messages: turns };
}
