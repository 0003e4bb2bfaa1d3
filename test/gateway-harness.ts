// Test support for the gateway: a fake upstream speaking every provider's wire format (replaying the
// fixtures kept next to each adapter), the real chat handler on a real node:http server with a runtime of
// its own (server/runtime), and a funded user with an API key. Tests choose what the upstream answers
// through `upstream.respond`.
import { IDLE_MS } from '@/server/ledger/credit-leases';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { env, resetEnvCache } from '@/server/env';
import type { Logger } from '@/server/observability/logger';
import { handleMetricsRequest, METRICS_PATH } from '@/server/observability/metrics-route';
import { logRequest } from '@/server/observability/request-log';
import { traceRequest } from '@/server/observability/request-trace';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { handleChatNode } from '@/server/gateway/node-handler';
import { fastPathHandlerFor } from '@/server/http/fast-path-routes';
import { grantCredits } from '@/server/ledger/balance';
import { createRuntime, type Runtime, type RuntimeOptions } from '@/server/runtime/runtime';
import { createUser } from '@/server/users/create-user';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeResponse } from './fake-upstream';

export type Responder = (req: { path: string; body: any; headers: Record<string, string | string[] | undefined> }) => FakeResponse | Promise<FakeResponse>;

export interface GatewayHarness {
  baseUrl: string;
  /** http://127.0.0.1:<port>, where GET /metrics is (as on the production server, with METRICS_TOKEN). */
  origin: string;
  upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  respond: Responder;
  /** The runtime the chat handler is served with (its settlement queue, limits, pools). */
  runtime: Runtime;
  /** Closes the runtime (its queued settlements are written) and serves a new one, built from the environment as it is now. */
  renewRuntime(options?: RuntimeOptions): Promise<Runtime>;
  close(): Promise<void>;
}

/** Points every provider at one fake upstream and serves the chat handler; call inside beforeAll. */
/** @param serving.logger gets one line per request, as server/main.ts logs them. */
export async function startGatewayHarness(options: RuntimeOptions = {}, serving: { logger?: Logger } = {}): Promise<GatewayHarness> {
  const h = { respond: (() => ({ status: 500, json: { error: { message: 'no responder set' } } })) as Responder } as GatewayHarness;
  const upstream = await startFakeUpstream((req) => h.respond({ path: req.path, body: req.body, headers: req.headers }));
  process.env.OPENAI_BASE_URL = `${upstream.url}/v1`;
  process.env.OPENAI_API_KEY = 'sk-upstream-openai-SECRET';
  process.env.ANTHROPIC_BASE_URL = upstream.url;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-upstream-SECRET';
  process.env.GEMINI_BASE_URL = upstream.url;
  process.env.GEMINI_API_KEY = 'gemini-upstream-SECRET';
  process.env.DEEPSEEK_BASE_URL = upstream.url;
  process.env.DEEPSEEK_API_KEY = 'sk-deepseek-upstream-SECRET';
  resetEnvCache();

  // Tests send far more than a client would: no rate limit unless a test asks for one.
  const withDefaults = (o: RuntimeOptions): RuntimeOptions => ({ rateLimitRpm: 100_000, ...o });
  h.runtime = createRuntime(withDefaults(options));
  h.renewRuntime = async (next = options) => {
    await h.runtime.close();
    return (h.runtime = createRuntime(withDefaults(next)));
  };
  const server = http.createServer((req, res) => {
    if (serving.logger) logRequest(serving.logger, req, res);
    // As server/main.ts does: a server span per request when the runtime traces (RuntimeOptions.tracing).
    if (h.runtime.tracing) traceRequest(h.runtime.tracing, req, res).route(new URL(req.url ?? '/', 'http://x').pathname, req.method ?? 'POST');
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === METRICS_PATH) return void handleMetricsRequest(h.runtime, req, res, env().METRICS_TOKEN);
    // The production server's fast-path routes; any other path is treated as chat completions.
    const handler = fastPathHandlerFor(pathname) ?? handleChatNode;
    void handler(h.runtime, req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  h.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.baseUrl = `${h.origin}/api/v1`;
  h.upstream = upstream;
  h.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await h.runtime.close();
    await upstream.close();
  };
  return h;
}

/**
 * Writes the queued settlements, then returns every credit lease the runtime holds (ledger/credit-leases.ts),
 * as its idle timer would 10 s later: afterwards an account's reservedMicros holds only in-flight requests.
 */
export async function settleAndReturnLeases(h: GatewayHarness): Promise<void> {
  await h.runtime.settlements.flush();
  await h.runtime.leases.credit.returnIdle(Date.now() + IDLE_MS + 1);
}

/** A user with a personal account holding `usd` of credit, and an API key. */
export async function fundedUser(usd = 10, email = `u${Math.random().toString(36).slice(2)}@example.com`) {
  const user = await createUser({ email, password: 'password123' });
  if (usd > 0) await grantCredits({ accountId: user.personal_account_id, amountMicros: BigInt(Math.round(usd * 1e6)), idempotencyKey: `test:${email}` });
  const { key, apiKey } = await createApiKey({ userId: user.id, input: { name: 'test' } });
  return { user, key, apiKey };
}

/** A responder replaying `<provider>/__fixtures__/<scenario>` as SSE or JSON depending on the request. */
export function replay(provider: string, scenario: string): Responder {
  return (req) => {
    const streaming = req.body?.stream === true || req.path.includes('streamGenerateContent');
    if (streaming) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks(provider, `${scenario}.chunks.txt`) };
    return { status: 200, json: JSON.parse(readFixture(provider, `${scenario}.json`)) };
  };
}

export async function readSse(res: Response): Promise<{ chunks: any[]; raw: string; done: boolean; comments: number }> {
  const raw = await res.text();
  const chunks: any[] = [];
  let done = false;
  let comments = 0;
  for (const block of raw.split('\n\n')) {
    if (!block.trim()) continue;
    if (block.startsWith(':')) {
      comments++;
      continue;
    }
    const data = block.replace(/^data: /, '');
    if (data === '[DONE]') done = true;
    else chunks.push(JSON.parse(data));
  }
  return { chunks, raw, done, comments };
}
