// A Responses API body → the internal request (the Chat Completions shape) plus what only this format needs
// later (store, include, the conversation to keep), remembered per request in `responsesStateOf`. The
// client's body rides along as `native` so an OpenAI endpoint receives it nearly unchanged.
import { AppError, badRequestFromZod } from '@/server/errors';
import { parseChatRequest } from '@/server/gateway/chat-request-schema';
import type { ChatRequest } from '@/server/providers/types';
import { convertInput } from './convert-input';
import { customToolAsFunction, customToolsOf } from './custom-tools';
import { withoutInputItemIds } from './input-items';
import { responsesRequestSchema, type ResponsesInputItem, type ResponsesRequest } from './responses-request-schema';
import { findStoredResponse, responseNotFound } from './stored-responses';

export interface ResponsesState {
  request: ResponsesRequest;
  /** The whole conversation as items: the previous response's (expanded, with the ids its input items were listed under) and this request's input. */
  conversation: ResponsesInputItem[];
  /** The account and user that own `previous_response_id` (checked once the caller is known). */
  previousOwner?: { accountId: string; userId: string };
  includeEncrypted: boolean;
}

const states = new WeakMap<ChatRequest, ResponsesState>();

export function responsesStateOf(req: ChatRequest): ResponsesState | undefined {
  return states.get(req);
}

type ChatEffort = 'minimal' | 'low' | 'medium' | 'high';

/** Responses efforts → ours: 'none' switches reasoning off; 'xhigh' is the most we have, 'high'. */
function convertReasoning(r: ResponsesRequest['reasoning']): ChatRequest['reasoning'] {
  const effort = r?.effort;
  if (!effort) return undefined;
  if (effort === 'none') return { enabled: false };
  return { effort: (effort === 'xhigh' ? 'high' : effort) as ChatEffort };
}

function convertTextFormat(text: ResponsesRequest['text']): Record<string, unknown> | undefined {
  const format = text?.format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, strict, description } = format;
  return { type: 'json_schema', json_schema: { name, schema, ...(strict != null ? { strict } : {}), ...(description ? { description } : {}) } };
}

/** The names an allowed_tools tool_choice lets the model call (function and custom tools; hosted ones have no chat equivalent). */
function allowedToolNames(choice: ResponsesRequest['tool_choice']): ReadonlySet<string> | undefined {
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools' || !('tools' in choice)) return undefined;
  return new Set(choice.tools.flatMap((t) => ((t.type === 'function' || t.type === 'custom') && typeof t.name === 'string' ? [t.name] : [])));
}

/**
 * Function tools, and custom tools as functions (custom-tools.ts); hosted tools have no chat equivalent.
 * tool_choice {type: "allowed_tools", mode, tools} becomes the allowed tools alone with tool_choice `mode`
 * ("required" or "auto"): a chat model has no list of tools it sees but may not call.
 */
function convertTools(request: ResponsesRequest): Record<string, unknown> {
  let functions: Record<string, unknown>[] = (request.tools ?? []).flatMap((t) =>
    t.type === 'function' && 'name' in t && typeof t.name === 'string'
      ? [{ type: 'function', function: { name: t.name, ...(t.description ? { description: t.description } : {}), ...(t.parameters ? { parameters: t.parameters } : {}), ...(t.strict != null ? { strict: t.strict } : {}) } }]
      : [],
  );
  functions.push(...customToolsOf(request).map(customToolAsFunction));
  const choice = request.tool_choice;
  const allowed = allowedToolNames(choice);
  if (allowed) functions = functions.filter((f) => allowed.has((f.function as { name: string }).name));
  if (functions.length === 0) return {};
  // {type: "function" | "custom", name}: either is a function to the chat model.
  const named = typeof choice === 'object' && (choice.type === 'function' || choice.type === 'custom') && 'name' in choice && typeof choice.name === 'string' ? choice.name : undefined;
  const mode = typeof choice === 'object' && choice.type === 'allowed_tools' && 'mode' in choice ? choice.mode : undefined;
  const toolChoice = typeof choice === 'string' ? choice : named ? { type: 'function', function: { name: named } } : mode;
  return { tools: functions, ...(toolChoice ? { tool_choice: toolChoice } : {}), ...(request.parallel_tool_calls != null ? { parallel_tool_calls: request.parallel_tool_calls } : {}) };
}

/** Throws AppError 400 for what is wrong, 404 for a previous_response_id that does not exist (or expired). */
export async function parseResponsesRequest(json: Record<string, unknown>): Promise<ChatRequest> {
  const parsed = responsesRequestSchema.safeParse(json);
  if (!parsed.success) throw badRequestFromZod(parsed.error);
  const request = parsed.data;
  // OpenAI would queue a background response or keep the conversation's items; answering at once without them
  // would look like success while doing something else.
  if (request.background) throw new AppError('bad_request', 'background is not supported: responses are answered while the request is open (use stream: true for long ones)', { param: 'background' });
  if (request.conversation != null) throw new AppError('bad_request', 'conversation is not supported: continue a stored response with previous_response_id instead', { param: 'conversation' });
  if (request.input === undefined || (Array.isArray(request.input) && request.input.length === 0)) {
    throw new AppError('bad_request', 'input is required: a string or an array of input items', { param: 'input' });
  }
  const own: ResponsesInputItem[] = typeof request.input === 'string' ? [{ type: 'message', role: 'user', content: request.input }] : request.input;
  let conversation = own;
  /** What an upstream gets: the conversation without the ids only we gave (input-items.ts). */
  let sent = own;
  let previousOwner: { accountId: string; userId: string } | undefined;
  if (request.previous_response_id) {
    // The one read this format adds, only for a request that continues a stored response.
    const previous = await findStoredResponse(request.previous_response_id);
    if (!previous) throw responseNotFound(request.previous_response_id, 'previous_response_id');
    previousOwner = { accountId: previous.accountId, userId: previous.userId };
    conversation = [...previous.input, ...(previous.output as ResponsesInputItem[]), ...own];
    sent = [...withoutInputItemIds(previous.input), ...(previous.output as ResponsesInputItem[]), ...own];
  }

  const messages = convertInput(request.instructions, conversation);
  if (messages.length === 0) {
    // Only items a chat model has no use for (hosted-tool calls, item references, reasoning alone).
    const types = [...new Set(conversation.map((item) => item.type))].join(', ');
    throw new AppError('bad_request', `input needs a message, a call or a call output: items of type ${types} alone give the model nothing to answer`, { param: 'input' });
  }
  const chat = {
    model: request.model,
    messages,
    stream: request.stream,
    ...(request.temperature != null ? { temperature: request.temperature } : {}),
    ...(request.top_p != null ? { top_p: request.top_p } : {}),
    ...(request.max_output_tokens != null ? { max_tokens: request.max_output_tokens } : {}),
    ...convertTools(request),
    ...(convertTextFormat(request.text) ? { response_format: convertTextFormat(request.text) } : {}),
    ...(convertReasoning(request.reasoning) ? { reasoning: convertReasoning(request.reasoning) } : {}),
    ...(request.user ? { user: request.user } : {}),
    ...(request.prompt_cache_key ? { prompt_cache_key: request.prompt_cache_key } : {}),
  };
  const req = parseChatRequest(chat);
  // The client's body with the conversation expanded: the OpenAI adapter picks what it sends from it.
  const body: Record<string, unknown> = { ...json, input: sent };
  delete body.previous_response_id;
  req.native = { format: 'openai-responses', body };
  states.set(req, { request, conversation, previousOwner, includeEncrypted: request.include?.includes('reasoning.encrypted_content') ?? false });
  return req;
}
