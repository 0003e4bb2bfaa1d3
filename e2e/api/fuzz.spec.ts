// Malformed requests against the real production server (dist/server.js in front of Next): 400 generated
// requests across every route (chat fast path, the native formats with bodies of their own shapes, REST, tRPC,
// next-auth, the Stripe webhook, pages and server actions) must all be answered, none with a 5xx, each within a
// bound. Then the limits one by one: body size while reading (413), stalled bodies (408), server actions from
// another origin (403).
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { expect, runCli, runCliJson, signInThroughUi, test } from '../fixtures';
import { appRoutes, auth, badMethods, body, contentType, messagesBody, nativeBody, openApiRoutes, PAGES, query, responsesBody, segment, transfer, trpcRoutes, type RouteTemplate } from './malformed-requests';

const ANSWER_WITHIN_MS = 15_000;
const RUNS = 400;
const KIND_WEIGHTS = { rest: 6, trpc: 3, chat: 3, native: 3, auth: 2, webhook: 1, page: 2, health: 1 };

interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

// Keep-alive, as SDKs and browsers connect: a server that answers before reading a whole upload then drains
// it, where with "Connection: close" it would close the socket under the upload.
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One raw HTTP request (node:http, so methods, headers and chunked bodies are exactly what we say). */
function send(origin: string, req: { method: string; path: string; headers: Record<string, string>; body?: string; chunked?: boolean }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const payload = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const framing = payload ? (req.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(payload.length) }) : {};
    const headers = { ...req.headers, ...framing };
    let answered: Reply | undefined;
    const r = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      answered = { status: res.statusCode ?? 0, body: '', headers: res.headers };
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ ...answered!, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve(answered!));
    });
    r.setTimeout(ANSWER_WITHIN_MS, () => r.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)));
    // A server refusing a giant body answers and closes while we are still writing it: the answer counts.
    r.on('error', (err) => (answered ? resolve(answered) : reject(err)));
    if (payload && req.chunked) for (let i = 0; i < payload.length; i += 64 * 1024) r.write(payload.subarray(i, i + 64 * 1024));
    r.end(payload && !req.chunked ? payload : undefined);
  });
}

interface ErrorShape {
  type?: unknown;
  error?: string | { message?: unknown; metadata?: unknown; type?: unknown };
  error_description?: unknown;
}

/**
 * The spec's error body, except on the native formats, which answer in their own: the Anthropic Messages API
 * (`{"type":"error","error":{"type","message"}}`) and the OpenAI Responses API (`{"error":{"message","type",…}}`).
 */
function hasErrorBodyFor(path: string, body: ErrorShape | undefined): boolean {
  const pathname = path.split('?')[0]!;
  const error = typeof body?.error === 'object' ? body.error : undefined;
  const specBody = typeof error?.message === 'string' && typeof error.metadata === 'object';
  // RFC 8628 polls (form-encoded, or with grant_type) are answered in OAuth's shape (RFC 6749 §5.2).
  if (pathname === '/api/v1/auth/device/token') return specBody || (typeof body?.error === 'string' && typeof body.error_description === 'string');
  if (/^\/api\/v1\/messages(\/|$)/.test(pathname)) return specBody || (body?.type === 'error' && typeof error?.type === 'string' && typeof error.message === 'string');
  if (/^\/api\/v1\/responses(\/|$)/.test(pathname)) return specBody || (typeof error?.message === 'string' && typeof error.type === 'string');
  return specBody;
}

let key = '';
let sessionCookie = '';
let routes: RouteTemplate[] = [];

test.beforeAll(async ({ request, browser, baseURL }) => {
  const email = `fuzz-${Date.now()}@example.com`;
  runCli('user:create', '--email', email, '--password', 'password123');
  runCli('credits:grant', '--email', email, '--amount', '5');
  key = runCliJson('key:create', '--email', email).key;
  // A console session, for the tRPC procedures (their inputs are parsed only for a signed-in caller).
  const page = await browser.newPage({ baseURL });
  await signInThroughUi(page, { email, password: 'password123' });
  sessionCookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await page.close();
  expect(sessionCookie).toContain('session-token');

  const openapi = await (await request.get('/api/v1/openapi.json')).json();
  routes = [...appRoutes(), ...openApiRoutes(openapi), ...trpcRoutes(), ...PAGES];
  expect(routes.filter((r) => r.kind === 'rest').length).toBeGreaterThan(50);
  expect(routes.filter((r) => r.kind === 'trpc').length).toBeGreaterThan(30);
  for (const kind of ['chat', 'native', 'auth', 'webhook', 'health', 'page'] as const) expect(routes.some((r) => r.kind === kind), kind).toBe(true);
  expect(baseURL).toBeTruthy();
});

test('400 generated malformed requests across every route: no 5xx, every one answered in time', async ({ origin }) => {
  test.setTimeout(120_000);
  const seen = new Map<string, number>();
  const failures: string[] = [];
  const arbitrary = fc.record({
    // A kind of route first, so each is well covered however many routes it has.
    route: fc.oneof(
      ...Object.entries(KIND_WEIGHTS).map(([kind, weight]) => ({ weight, arbitrary: fc.constantFrom(...routes.filter((r) => r.kind === kind)) })),
    ),
    fill: fc.array(segment, { minLength: 3, maxLength: 3 }),
    method: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...badMethods) }),
    query,
    body,
    // The native routes get a body of their own shape most of the time (known item types with broken fields).
    nativeBody: fc.option(nativeBody.map((v) => JSON.stringify(v)), { freq: 3 }),
    contentType,
    transfer,
    auth,
    serverAction: fc.constantFrom(undefined, undefined, 'abc123', '7f' + '0'.repeat(40), '\u0007'),
  });
  await fc.assert(
    fc.asyncProperty(arbitrary, async (g) => {
      let i = 0;
      const path = g.route.path.replace(/\{[^}]+\}/g, () => g.fill[i++ % 3]) + g.query;
      const method = g.method || g.route.methods[path.length % Math.max(1, g.route.methods.length)] || 'GET';
      const headers: Record<string, string> = {};
      const nativeShaped = g.route.kind === 'native' && g.nativeBody !== null;
      // A native-shaped body goes as JSON, so that it reaches the format's validation.
      if (g.contentType || nativeShaped) headers['content-type'] = nativeShaped ? 'application/json' : g.contentType;
      // DELETE /users/me with our credential, or the console's profile.deleteAccount (it takes no input, so any
      // body will do) with our session, would delete the fuzzing user itself and leave the rest of the run (and
      // the tests below) unauthenticated: they are fuzzed with a bad credential instead.
      const deletesSelf = (method === 'DELETE' && /^\/api\/v1\/users\/me(\?|$)/.test(path)) || /^\/api\/trpc\/profile\.deleteAccount(\?|$)/.test(path);
      const credential = deletesSelf ? 'garbage' : g.auth;
      if (credential === 'key') headers.authorization = `Bearer ${key}`;
      if (credential === 'garbage') headers.authorization = 'Bearer sk-sb-v1-\u00ff\u00fe';
      if (credential === 'session') headers.cookie = sessionCookie;
      if (g.serverAction && g.route.kind === 'page') headers['next-action'] = g.serverAction.replace(/[^\x20-\x7e]/g, '?');
      const withBody = !['GET', 'HEAD'].includes(method);
      const text = nativeShaped ? g.nativeBody! : g.body;
      const label = `${method} ${path.slice(0, 120)} [${headers['content-type'] || 'no type'}, ${g.transfer}, ${credential}, body ${withBody ? text.length : 0} B: ${withBody ? text.slice(0, 80) : ''}]`;
      const started = Date.now();
      let reply: Reply;
      try {
        reply = await send(origin, { method, path, headers, body: withBody ? text : undefined, chunked: g.transfer === 'chunked' });
      } catch (err) {
        failures.push(`${label} → ${(err as Error).message}`);
        return false;
      }
      seen.set(g.route.kind, (seen.get(g.route.kind) ?? 0) + 1);
      // A feature the operator has not configured (Stripe webhooks on the e2e server) is an honest 503.
      const notConfigured = reply.status === 503 && /not configured/.test(reply.body);
      if (reply.status >= 500 && !notConfigured) failures.push(`${label} → ${reply.status} ${reply.body.slice(0, 200)}`);
      // The spec's error body on our own JSON API (tRPC and next-auth speak their own formats).
      if (reply.status >= 400 && (path.startsWith('/api/v1/') || g.route.kind === 'webhook') && method !== 'HEAD') {
        let parsed: ErrorShape | undefined;
        try {
          parsed = JSON.parse(reply.body);
        } catch {
          parsed = undefined;
        }
        if (!hasErrorBodyFor(path, parsed)) failures.push(`${label} → ${reply.status} without the spec body: ${reply.body.slice(0, 200)}`);
      }
      // FUZZ_REPORT_ALL=1 sends every request and lists all failures instead of stopping at the first.
      return (process.env.FUZZ_REPORT_ALL === '1' || failures.length === 0) && Date.now() - started < ANSWER_WITHIN_MS;
    }),
    { numRuns: RUNS, endOnFailure: true, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
  ).catch((err) => {
    // fast-check's own report prints the whole counterexample (bodies of megabytes): keep its first lines.
    const report = (err as Error).message.split('\n').slice(0, 3).map((line) => line.slice(0, 300));
    throw new Error([...failures.slice(0, 5), ...report].join('\n'));
  });
  expect(failures.map((f) => f.slice(0, 400))).toEqual([]);
  // Every kind of route was exercised.
  for (const kind of ['chat', 'native', 'rest', 'trpc', 'auth', 'webhook', 'page']) expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
});

// The general run above breaks many parts of a request at once, so a body rarely gets past the first check. Here
// each request to the native formats is valid but for ONE part: a known Responses input item or Messages content
// block with a field of the wrong type or missing, or one top-level field (a 500 hid behind each in 2026-11).
test('300 native-format requests broken in one place: each answered in its format, none with a 5xx', async ({ origin }) => {
  test.setTimeout(120_000);
  const failures: string[] = [];
  const arbitrary = fc.oneof(
    responsesBody.map((b) => ({ path: '/api/v1/responses', b })),
    messagesBody.map((b) => ({ path: '/api/v1/messages', b })),
    messagesBody.map((b) => ({ path: '/api/v1/messages/count_tokens', b })),
  );
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ path, b }) => {
      const text = JSON.stringify(b);
      const reply = await send(origin, { method: 'POST', path, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: text });
      let parsed: ErrorShape | undefined;
      try {
        parsed = JSON.parse(reply.body);
      } catch {
        parsed = undefined;
      }
      const label = `POST ${path} ${text.slice(0, 300)}`;
      if (reply.status >= 500) failures.push(`${label} → ${reply.status} ${reply.body.slice(0, 200)}`);
      else if (reply.status >= 400 && !hasErrorBodyFor(path, parsed)) failures.push(`${label} → ${reply.status} without its format's error body: ${reply.body.slice(0, 200)}`);
      return process.env.FUZZ_REPORT_ALL === '1' || failures.length === 0;
    }),
    { numRuns: 300, endOnFailure: true, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
  ).catch((err) => {
    const report = (err as Error).message.split('\n').slice(0, 3).map((line) => line.slice(0, 300));
    throw new Error([...failures.slice(0, 5), ...report].join('\n'));
  });
  expect(failures.map((f) => f.slice(0, 400))).toEqual([]);
});

test('a body over the limit is a 413 with the spec body, declared or chunked, on Next routes and the chat path', async ({ origin }) => {
  const big = `{"name":"${'a'.repeat(2 * 1024 * 1024)}"}`;
  for (const chunked of [false, true]) {
    for (const path of ['/api/v1/api-keys', '/api/webhooks/stripe', '/api/trpc/apiKeys.create']) {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, cookie: sessionCookie };
      const reply = await send(origin, { method: 'POST', path, headers, body: big, chunked });
      expect(reply.status, `${path} chunked=${chunked}`).toBe(413);
      expect(JSON.parse(reply.body).error).toMatchObject({ code: 413, metadata: { error_type: 'payload_too_large' } });
    }
  }
  const chat = await send(origin, { method: 'POST', path: '/api/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, body: 'x'.repeat(26 * 1024 * 1024), chunked: true });
  expect(chat.status).toBe(413);
});

test('a request whose body stalls is answered 408 and closed', async ({ origin }) => {
  const url = new URL(origin);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise((r) => socket.once('connect', r));
  socket.write(`POST /api/v1/api-keys HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
  let received = '';
  socket.on('data', (d) => (received += d));
  const started = Date.now();
  await new Promise((r) => socket.once('close', r));
  expect(received).toMatch(/^HTTP\/1\.1 408/);
  expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
});

test('a server action posted from another origin is a 403 with the spec body, not a 500', async ({ origin }) => {
  const reply = await send(origin, { method: 'POST', path: '/sign-in', headers: { 'next-action': '7f' + '0'.repeat(40), origin: 'https://attacker.example', 'content-type': 'text/plain;charset=UTF-8' }, body: '[]' });
  expect(reply.status).toBe(403);
  expect(JSON.parse(reply.body).error).toMatchObject({ code: 403, metadata: { error_type: 'forbidden' } });
});

test('requests Next cannot read get the spec’s 4xx before it sees them (each was a 500 or a bare 400)', async ({ origin }) => {
  const cases = [
    { method: 'GET', path: '/api/v1/models/%ZZ', status: 400 },
    { method: 'GET', path: '/overview%E0%A4%A', status: 400 },
    { method: 'PROPFIND', path: '/api/v1/models', status: 405 },
    { method: 'POST', path: '/sign-in', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '{"not":"a form"}', status: 400 },
    { method: 'POST', path: '/sandbox/checkout/cs_1/submit', headers: { 'content-type': 'application/json' }, body: '{"action":"pay"}', status: 400 },
  ];
  for (const c of cases) {
    const reply = await send(origin, { method: c.method, path: c.path, headers: c.headers ?? {}, body: c.body });
    expect(reply.status, `${c.method} ${c.path}`).toBe(c.status);
    expect(JSON.parse(reply.body).error, `${c.method} ${c.path}`).toMatchObject({ code: c.status, message: expect.any(String) });
  }
  // Bytes that are not HTTP at all.
  const url = new URL(origin);
  const socket = net.connect(Number(url.port), url.hostname);
  let received = '';
  socket.on('data', (d) => (received += d));
  socket.write('GARBAGE / NOT-HTTP\r\n\r\n');
  await new Promise((r) => socket.once('close', r));
  expect(received).toMatch(/^HTTP\/1\.1 400/);
  expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error.code).toBe(400);
});
