// GET /api/v1/responses/{id}/input_items (platform.openai.com/docs/api-reference/responses/input-items): the items
// a stored response was generated from, as a cursor page {object: "list", data, first_id, last_id, has_more}.
// As on OpenAI that is the whole conversation: with previous_response_id, the previous responses' input and output
// items come first, then the request's own input (`instructions` are not an item). Every listed item has an id:
// items the client sent without one get `<type prefix>_in<position>_<response suffix>` when the response is stored
// (withInputItemIds), so a continuation lists them under the same ids; those ids are ours only and are taken off
// again before the conversation goes to an upstream (withoutInputItemIds).
import { z } from 'zod';
import { AppError, badRequestFromZod } from '@/server/errors';
import { safeString } from '@/server/validation/fields';
import type { ResponsesInputItem } from './responses-request-schema';
import { findStoredResponse, responseNotFound } from './stored-responses';

type Item = Record<string, unknown>;

const PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  custom_tool_call: 'ctc',
  custom_tool_call_output: 'ctco',
  reasoning: 'rs',
};
/** The ids withInputItemIds gives (no OpenAI id has `_in<digits>_` after its prefix: theirs are hex). */
const ASSIGNED_ID = /^[a-z]+_in\d+_[A-Za-z0-9_-]+$/;

const hasId = (item: Item) => typeof item.id === 'string' && item.id.length > 0;

/** The conversation as stored: each item without an id given one of ours, unique to this response and position. */
export function withInputItemIds(conversation: ResponsesInputItem[], responseId: string): ResponsesInputItem[] {
  const suffix = responseId.replace(/^resp_/, '');
  return conversation.map((item, i) => (hasId(item as Item) ? item : ({ ...item, id: `${PREFIX[item.type] ?? 'item'}_in${i}_${suffix}` } as ResponsesInputItem)));
}

/** The items with the ids withInputItemIds gave taken off: an upstream never saw them (OpenAI would look them up). */
export function withoutInputItemIds(items: ResponsesInputItem[]): ResponsesInputItem[] {
  return items.map((item) => {
    const id = (item as Item).id;
    if (typeof id !== 'string' || !ASSIGNED_ID.test(id)) return item;
    const { id: _, ...rest } = item as Item;
    return rest as ResponsesInputItem;
  });
}

/** The query string; `include` as the SDK sends it (include[]=…) or repeated (include=…&include=…). */
export const inputItemsQuerySchema = z.object({
  after: safeString().min(1).max(200).optional().describe('An item id: list the items after it (in the chosen order)'),
  before: safeString().min(1).max(200).optional().describe('An item id: list the items before it (in the chosen order); older API versions'),
  limit: z.coerce.number({ error: 'limit must be an integer between 1 and 100' }).int('limit must be an integer between 1 and 100').min(1, 'limit must be an integer between 1 and 100').max(100, 'limit must be an integer between 1 and 100').default(20),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc').describe('asc: as the model read them; desc (default): the latest first'),
  include: z.array(safeString().max(100)).max(32).default([]).describe('reasoning.encrypted_content: reasoning items keep their encrypted_content'),
});
export type InputItemsQuery = z.output<typeof inputItemsQuerySchema>;

export function parseInputItemsQuery(params: URLSearchParams): InputItemsQuery {
  const raw: Record<string, unknown> = {};
  for (const key of ['after', 'before', 'limit', 'order'] as const) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  raw.include = [...params.getAll('include'), ...params.getAll('include[]')].flatMap((v) => v.split(',')).filter(Boolean);
  const parsed = inputItemsQuerySchema.safeParse(raw);
  if (!parsed.success) throw badRequestFromZod(parsed.error);
  return parsed.data;
}

/** An item as OpenAI lists it: a message's text as parts and a status; encrypted reasoning only when asked for. */
function listedItem(item: Item, withEncrypted: boolean): Item {
  if (item.type === 'message') {
    const assistant = item.role === 'assistant';
    const content = typeof item.content === 'string' ? [assistant ? { type: 'output_text', text: item.content, annotations: [] } : { type: 'input_text', text: item.content }] : item.content;
    return { ...item, content, status: item.status ?? 'completed' };
  }
  if (item.type === 'reasoning' && !withEncrypted && 'encrypted_content' in item) {
    const { encrypted_content: _, ...rest } = item;
    return rest;
  }
  if ((item.type === 'function_call' || item.type === 'function_call_output' || item.type === 'custom_tool_call') && item.status == null) return { ...item, status: 'completed' };
  return item;
}

export interface InputItemList {
  object: 'list';
  data: Item[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** The page of `items` (in the model's order) that `query` asks for. */
export function pageOfInputItems(items: Item[], query: InputItemsQuery): InputItemList {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  const positionOf = (id: string, param: 'after' | 'before') => {
    const at = ordered.findIndex((item) => item.id === id);
    if (at < 0) throw new AppError('bad_request', `${param}: this response has no input item with id '${id}'`, { param });
    return at;
  };
  const start = query.after ? positionOf(query.after, 'after') + 1 : 0;
  const end = query.before ? positionOf(query.before, 'before') : ordered.length;
  // Paging backwards (before alone) takes the items nearest the cursor.
  const backwards = query.before !== undefined && query.after === undefined;
  const from = backwards ? Math.max(start, end - query.limit) : start;
  const to = backwards ? end : Math.min(end, start + query.limit);
  const data = from < to ? ordered.slice(from, to) : [];
  const withEncrypted = query.include.includes('reasoning.encrypted_content');
  const listed = data.map((item) => listedItem(item, withEncrypted));
  return {
    object: 'list',
    data: listed,
    first_id: (listed[0]?.id as string | undefined) ?? null,
    last_id: (listed.at(-1)?.id as string | undefined) ?? null,
    has_more: backwards ? from > start : to < end,
  };
}

/** GET /api/v1/responses/{id}/input_items, within its account (the route checks the user first). */
export async function listInputItemsOrThrow(input: { id: string; accountId: string; query: InputItemsQuery }): Promise<InputItemList> {
  const found = await findStoredResponse(input.id);
  if (!found || found.accountId !== input.accountId) throw responseNotFound(input.id);
  // Items stored without an id (responses stored before ids were given) get theirs now, by the same rule.
  return pageOfInputItems(withInputItemIds(found.input, input.id) as Item[], input.query);
}
