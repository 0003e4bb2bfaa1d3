// The record of a request refused at admission, for the account that made it (the activity log): queued on
// the settlement queue, which writes it with its next batch, so the refusal costs no database round trip.
// Not recorded: a request without a valid credential (401), as it has no account; a client that hammers a
// limit is recorded up to the queue's cap (ledger/settlement-queue.ts).
import { newGenerationId } from '@/server/http/request-id';
import type { Runtime } from '@/server/runtime/runtime';
import type { AdmissionTrace } from './admit';
import { usageErrorOf } from './outcome';
import type { ChatTransport } from './transport';

export function recordRefusal(rt: Runtime, t: Pick<ChatTransport, 'header'>, trace: AdmissionTrace, err: unknown, httpStatus: number, requestId: string, started: number): string | null {
  const principal = trace.principal;
  if (!principal || httpStatus === 401) return null;
  const error = usageErrorOf(err);
  const id = newGenerationId();
  rt.settlements.recordRefusal({
    id,
    accountId: principal.accountId,
    userId: principal.userId,
    apiKeyId: principal.apiKey?.id ?? null,
    authTokenId: principal.authTokenId ?? null,
    model: trace.model ?? '',
    provider: trace.provider ?? '',
    streamed: trace.streamed ?? false,
    httpStatus,
    errorCode: error.code,
    errorMessage: error.message,
    latencyMs: Math.round(performance.now() - started),
    httpReferer: t.header('http-referer') ?? t.header('referer') ?? null,
    xTitle: t.header('x-title') ?? null,
    taskId: t.header('x-task-id') ?? null,
    requestId,
    createdAt: new Date(),
  });
  return id;
}
