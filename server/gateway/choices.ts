// Several choices for one request (Chat Completions' `n`): only upstreams that generate them are asked
// (ProviderAdapter.supportsChoices: OpenAI's Chat Completions, Azure OpenAI, xAI); any other refuses the
// request with a 400 naming the model and `n` before credit is reserved — never one choice for n. The
// prompt is billed once and the output of every choice, so the reservation holds n times the output limit
// (cost.ts), and the limit applies to each choice as it does upstream.
import { AppError } from '@/server/errors';
import type { ChatRequest, ConvertContext, ProviderAdapter } from '@/server/providers/types';

/** How many choices the request asks for (1 when `n` is absent). */
export function choicesOf(req: Pick<ChatRequest, 'n'>): number {
  return req.n ?? 1;
}

/** The 400 for n > 1 at an upstream that returns one choice (a fallback endpoint that throws it is skipped). */
export function refuseUnsupportedChoices(req: Pick<ChatRequest, 'n'>, adapter: ProviderAdapter, ctx: ConvertContext): void {
  if (choicesOf(req) <= 1 || adapter.supportsChoices?.(ctx)) return;
  throw new AppError('bad_request', `n > 1 is not supported for ${ctx.model.id}: its provider returns one choice per request (ask for one choice per request)`, { model: ctx.model.id, param: 'n' });
}
