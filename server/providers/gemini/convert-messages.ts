// OpenAI chat messages → Gemini `systemInstruction` + `contents`.
import { AppError } from '@/server/errors';
import type { ChatMessage, ContentPart, FilePart, ToolCall } from '../types';
import { GEMINI_REASONING_FORMAT } from './convert-parts';

export type GeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType: string; fileUri: string } }
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: Record<string, unknown> } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface ConvertedMessages {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What Google documents for a function call whose signature is gone (another model's turn, a client that
 * dropped reasoning_details): Gemini 3 and later then skip the check instead of answering 400, at the cost
 * of the reasoning the real signature carried.
 */
export const SKIP_SIGNATURE_VALIDATION = 'skip_thought_signature_validator';

export interface ConvertMessagesOptions {
  /** The model validates thought signatures on function calls (Gemini 3+): give the first call of each model turn one. */
  signedCalls?: boolean;
}

export function convertMessages(messages: ChatMessage[], options: ConvertMessagesOptions = {}): ConvertedMessages {
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  // Gemini matches a functionResponse to its call by function NAME; OpenAI tool messages only carry the id.
  const toolNames = new Map<string, string>();

  // Gemini wants alternating turns; consecutive same-role messages (parallel tool results, a tool result then
  // a user note) become one content.
  const append = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        // One systemInstruction per request: every system/developer message joins it, in order.
        system.push(...textOnly(message.content, 'system').map((text) => ({ text })));
        break;
      case 'user':
        append('user', convertContent(message.content));
        break;
      case 'assistant':
        for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.function.name);
        append('model', convertAssistant(message, options.signedCalls === true));
        break;
      case 'tool': {
        const name = toolNames.get(message.tool_call_id);
        if (!name) throw new AppError('bad_request', `Tool message refers to tool_call_id "${message.tool_call_id}", which no earlier assistant message called`);
        const text = textOnly(message.content, 'tool').join('');
        append('user', [{ functionResponse: { name, response: toFunctionResponse(text) } }]);
        break;
      }
    }
  }
  if (contents.length === 0) throw new AppError('bad_request', 'Gemini needs at least one user or assistant message besides the system prompt');
  return { ...(system.length ? { systemInstruction: { parts: system } } : {}), contents };
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/**
 * Rebuilds the model turn as Gemini produced it: thought parts, text, then function calls, each carrying
 * the thoughtSignature convert-parts surfaced in reasoning_details. Gemini validates the signature on a
 * turn's first functionCall, so losing it breaks reasoning across tool turns (Gemini 3 answers 400).
 * Details in another provider's format are skipped: their signatures mean nothing to Gemini and would fail.
 */
function convertAssistant(message: AssistantMessage, signedCalls: boolean): GeminiPart[] {
  const callIds = new Set((message.tool_calls ?? []).map((c) => c.id));
  const callSignatures = new Map<string, string>();
  const looseSignatures: string[] = []; // signatures Gemini had put on a text part
  const thoughts = new Map<string, { text: string; signature?: string }>();

  (message.reasoning_details ?? []).forEach((detail, position) => {
    if (detail.format !== GEMINI_REASONING_FORMAT) return;
    if (detail.type === 'reasoning.encrypted') {
      if (detail.id && callIds.has(detail.id)) callSignatures.set(detail.id, detail.data);
      else looseSignatures.push(detail.data);
    } else if (detail.type === 'reasoning.text') {
      // A client that replays streamed deltas sends one detail per fragment: fragments share an index.
      const key = detail.index !== undefined ? `i${detail.index}` : `p${position}`;
      const thought = thoughts.get(key) ?? { text: '' };
      thought.text += detail.text;
      if (detail.signature) thought.signature = detail.signature;
      thoughts.set(key, thought);
    }
  });

  const parts: GeminiPart[] = [];
  for (const { text, signature } of thoughts.values()) {
    if (text) parts.push({ text, thought: true, ...(signature ? { thoughtSignature: signature } : {}) });
    else if (signature) looseSignatures.push(signature); // an empty text part cannot be sent back
  }
  const textParts = convertContent(message.content ?? null);
  // Back on the text it came with. Gemini only insists on functionCall signatures, so with no text to carry
  // it (a tool-only turn whose signature came on an empty closing part) the signature is dropped.
  for (const part of textParts) {
    if ('text' in part && looseSignatures.length) part.thoughtSignature = looseSignatures.shift();
  }
  parts.push(...textParts);
  (message.tool_calls ?? []).forEach((call, position) => {
    // Gemini signs only the first of parallel calls and checks that one; the others go back unsigned.
    const signature = callSignatures.get(call.id) ?? (signedCalls && position === 0 ? SKIP_SIGNATURE_VALIDATION : undefined);
    parts.push({ functionCall: { name: call.function.name, args: parseArguments(call) }, ...(signature ? { thoughtSignature: signature } : {}) });
  });
  return parts;
}

function parseArguments(call: ToolCall): Record<string, unknown> {
  const raw = call.function.arguments.trim();
  if (raw === '') return {}; // some clients replay a no-argument call's streamed "" verbatim
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    throw new AppError('bad_request', `Tool call "${call.id}" has arguments that are not valid JSON`);
  }
  if (!isPlainObject(args)) throw new AppError('bad_request', `Tool call "${call.id}" has arguments that are not a JSON object`);
  return args;
}

/** FunctionResponse.response must be a JSON object (a protobuf Struct); anything else is wrapped. */
function toFunctionResponse(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // plain text result
  }
  return { content: text };
}

function textOnly(content: string | ContentPart[], role: 'system' | 'tool'): string[] {
  if (typeof content === 'string') return content ? [content] : [];
  return content.map((part) => {
    if (part.type !== 'text') throw new AppError('bad_request', `Gemini accepts only text in ${role} messages`);
    return part.text;
  }).filter(Boolean);
}

// Empty text parts are skipped: protobuf reads `{"text": ""}` as a part without data and rejects the request.
function convertContent(content: string | ContentPart[] | null): GeminiPart[] {
  if (content === null) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  return content.flatMap((part): GeminiPart[] => {
    if (part.type === 'text') return part.text ? [{ text: part.text }] : [];
    if (part.type === 'file') return [convertDocument(part)];
    return [convertImage(part.image_url.url)];
  });
}

/**
 * A PDF travels as inline data (ai.google.dev "Document understanding": `inlineData {mimeType:
 * 'application/pdf', data}`). Admission has checked supportsPdf; only the file's form is checked here.
 */
function convertDocument(part: FilePart): GeminiPart {
  const data = part.file.file_data;
  if (data === undefined) {
    throw new AppError('bad_request', `file.file_id ${part.file.file_id ?? ''} names a file uploaded to OpenAI, which Gemini cannot read: send the PDF as file.file_data`, { param: 'file_id' });
  }
  const match = DATA_URL.exec(data);
  if (!match || match[1].toLowerCase() !== 'application/pdf') throw new AppError('bad_request', 'Gemini takes file parts as PDF data URLs (data:application/pdf;base64,…)');
  return { inlineData: { mimeType: 'application/pdf', data: match[3] } };
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)((?:;[\w.+-]+=[^;,]*)*);base64,(.*)$/s;
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', heic: 'image/heic', heif: 'image/heif',
};

/**
 * Base64 data URLs travel inline. http(s) URLs become `fileData` with the MIME type guessed from the
 * extension: Gemini fetches some public URLs itself but may reject arbitrary ones (it is built for
 * Files API and Cloud Storage URIs), and the gateway does not download images on a client's behalf.
 */
function convertImage(url: string): GeminiPart {
  if (url.startsWith('data:')) {
    const match = DATA_URL.exec(url);
    if (!match) throw new AppError('bad_request', 'Image data URLs must be base64-encoded (data:<mime>;base64,…)');
    return { inlineData: { mimeType: match[1], data: match[3] } };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('bad_request', 'Image URL is neither a data URL nor a valid http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AppError('bad_request', `Image URLs must be http(s) or base64 data URLs, not ${parsed.protocol}`);
  }
  const extension = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase() ?? '';
  return { fileData: { mimeType: IMAGE_TYPES[extension] ?? 'image/jpeg', fileUri: url } };
}
