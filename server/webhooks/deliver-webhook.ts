// One delivery attempt: the event's JSON POSTed to the webhook's URL, signed per the Standard Webhooks
// specification with the `standardwebhooks` library (webhook-id = the event id, the same on every retry;
// webhook-timestamp = this attempt's time in seconds; webhook-signature = "v1,<base64 HMAC-SHA256>"). Any 2xx
// is a success; everything else (other statuses, redirects, timeouts, refused addresses) is a failure with
// what went wrong, for the delivery log.
import { Agent, request } from 'undici';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { isIP } from 'node:net';
import { hostOf, isPrivateAddress, publicOnlyLookup } from './webhook-address';

/** The body every webhook receives. */
export interface WebhookPayload {
  id: string;
  type: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  account_id: string;
  data: unknown;
}

export interface AttemptResult {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

const ATTEMPT_TIMEOUT_MS = 15_000;
/** Bytes of a failing response's body kept in the delivery log. */
const ERROR_BODY_BYTES = 200;

/** The HTTP client of the webhook worker: every connection resolves its host through the public-only lookup. */
export function webhookAgent(allowPrivate: boolean): Agent {
  return new Agent({ connect: { lookup: publicOnlyLookup(allowPrivate), timeout: 10_000 }, keepAliveTimeout: 10_000 });
}

/** The headers and body of one signed attempt (exported for tests of the format). */
export function signedRequest(secret: string, payload: WebhookPayload, at: Date): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  const signature = new StandardWebhook(secret).sign(payload.id, at, body);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1.0',
      'webhook-id': payload.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

async function readSome(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export async function attemptDelivery(p: { agent: Agent; allowPrivate: boolean; url: string; secret: string; payload: WebhookPayload; now?: Date }): Promise<AttemptResult> {
  const url = new URL(p.url);
  // An IP literal is connected to without a lookup, so it is checked here (names are checked by the lookup).
  const host = hostOf(url);
  if (!p.allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return { ok: false, httpStatus: null, error: `refused: ${host} is a private, loopback or link-local address` };
  }
  const { body, headers } = signedRequest(p.secret, p.payload, p.now ?? new Date());
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: p.agent, headersTimeout: ATTEMPT_TIMEOUT_MS, bodyTimeout: ATTEMPT_TIMEOUT_MS, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    // The body is not needed beyond a few bytes of an error: a failure to read it (or our cutting it short) is no error.
    res.body.on('error', () => {});
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const text = ok ? '' : await readSome(res.body, ERROR_BODY_BYTES).catch(() => '');
    await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
    return { ok, httpStatus: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}${text.trim() ? `: ${text.trim().replace(/\s+/g, ' ')}` : ''}`.slice(0, 500) };
  } catch (err) {
    const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.cause?.code ?? e.code;
    const message = e.cause?.message ?? e.message ?? String(err);
    return { ok: false, httpStatus: null, error: (code === 'EPRIVATEADDRESS' ? `refused: ${message}` : `${code ? `${code}: ` : ''}${message}`).slice(0, 500) };
  }
}
