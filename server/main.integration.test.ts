// What the production server (server/main.ts in front of Next) answers over HTTP to requests a black-box tester
// found answered wrongly, written on raw sockets where fetch would not send them: request targets in absolute and
// asterisk form (RFC 9112 §3.2), 405s and their Allow, the native error shapes of the Messages and Responses
// routes for the errors the server answers itself (405, 408, 431), JSON 404s for every path under /api, and the
// access log's status for a 408. One database (PGlite): nothing here depends on which one serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrashDatabase, type CrashDatabase } from '@/test/crash-gateway';
import { createTestUser } from '@/test/factories';
import { hasNextBuild, rawRequest, startProductionServer, type ProductionServer, type RawReply } from '@/test/production-server';

const ALL_METHODS = 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT';

const suite = hasNextBuild() ? describe : describe.skip;

suite(`production server: request targets, 405s, error shapes${hasNextBuild() ? '' : ' (skipped: no Next build in .next/, run npm run build)'}`, () => {
  let database: CrashDatabase;
  let server: ProductionServer;
  let key = '';

  beforeAll(async () => {
    database = await openCrashDatabase('pglite');
    key = (await createTestUser(1)).key;
    await database.handOver();
    server = await startProductionServer({ DATA_DIR: database.env.CRASH_DATA_DIR, SETTLEMENT_JOURNAL_DIR: database.env.SETTLEMENT_JOURNAL_DIR, REQUEST_TIMEOUT_MS: '1000' });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await database?.dispose();
  });

  const send = (head: string, body = '') => rawRequest(server.port, `${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`);
  const json = (reply: RawReply) => JSON.parse(reply.body) as Record<string, any>;
  /** The access log's line for this reply (written asynchronously, after the response). */
  async function logged(reply: RawReply) {
    const id = reply.headers['x-request-id'];
    await expect.poll(() => server.accessLogLine(id), { timeout: 5_000 }).toBeDefined();
    return server.accessLogLine(id)!;
  }

  function expectSpecError(reply: RawReply, status: number, errorType: string) {
    expect(reply.status, reply.body).toBe(status);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(json(reply).error).toMatchObject({ code: status, metadata: { error_type: errorType, request_id: reply.headers['x-request-id'] } });
  }
  /** A request whose body stops short of its Content-Length (REQUEST_TIMEOUT_MS answers it). */
  const stalledBody = (path: string, auth: string) => send(`POST ${path} HTTP/1.1\nHost: x\n${auth}\nContent-Type: application/json\nContent-Length: 100`, '{"model":');

  /** Anthropic's `{"type":"error","error":{"type","message"}}`. */
  function expectAnthropicError(reply: RawReply, status: number, type: string) {
    expect(reply.status, reply.body).toBe(status);
    const body = json(reply);
    expect(body).toMatchObject({ type: 'error', error: { type, message: expect.any(String) } });
    expect(body.error).not.toHaveProperty('metadata');
  }
  /** OpenAI's `{"error":{"message","type","param","code"}}`. */
  function expectOpenAIError(reply: RawReply, status: number, code: string) {
    expect(reply.status, reply.body).toBe(status);
    const body = json(reply);
    expect(body.error).toEqual({ message: expect.any(String), type: 'invalid_request_error', param: null, code });
  }

  describe('asterisk-form targets (RFC 9112 §3.2.4)', () => {
    it('OPTIONS * is 204 with the methods the server serves; any other method with * is a 400 with the spec body', async () => {
      const options = await send('OPTIONS * HTTP/1.1\nHost: x\nConnection: close');
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe(ALL_METHODS);
      expect(options.headers['x-request-id']).toMatch(/^req_/);
      for (const method of ['GET', 'POST']) expectSpecError(await send(`${method} * HTTP/1.1\nHost: x\nContent-Length: 0\nConnection: close`), 400, 'bad_request');
      expect(server.stdout()).not.toContain('Invalid URL');
    });
  });

  describe('absolute-form targets (RFC 9112 §3.2.2)', () => {
    it('are served from their path, on the fast path and through Next, never redirected', async () => {
      const body = JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false });
      const chat = await send(`POST http://127.0.0.1:${server.port}/api/v1/chat/completions HTTP/1.1\nHost: 127.0.0.1:${server.port}\nAuthorization: Bearer ${key}\nContent-Type: application/json\nContent-Length: ${Buffer.byteLength(body)}\nConnection: close`, body);
      expect(chat.status, chat.body).toBe(200);
      expect(json(chat).choices[0].message.content).toBe('hi');
      const credits = await send(`GET http://evil.example/api/v1/credits HTTP/1.1\nHost: evil.example\nAuthorization: Bearer ${key}\nConnection: close`);
      expect(credits.status, credits.body).toBe(200);
      expect(credits.headers.location).toBeUndefined();
      expect(json(credits).data).toHaveProperty('total_credits');
      expect(await logged(credits)).toMatchObject({ path: '/api/v1/credits', status: 200 });
    });

    it('the target’s host never reaches the links the server builds', async () => {
      const device = await send('POST http://evil.example/api/v1/auth/device/code HTTP/1.1\nHost: evil.example\nContent-Type: application/json\nContent-Length: 2\nConnection: close', '{}');
      expect(device.status, device.body).toBe(200);
      expect(new URL(json(device).verification_uri).origin).toBe(`http://127.0.0.1:${server.port}`);
    });

    it('a target that is neither a path nor an http(s) URL is a 400', async () => {
      expectSpecError(await send('GET ftp://example.com/api/v1/credits HTTP/1.1\nHost: x\nConnection: close'), 400, 'bad_request');
      expectSpecError(await send('GET http://user:pw@example.com/api/v1/credits HTTP/1.1\nHost: x\nConnection: close'), 400, 'bad_request');
    });
  });

  describe('405 under /api', () => {
    it('carries the route’s Allow (what Next answers to OPTIONS there) and names it in the message', async () => {
      const cases = [
        { request: 'PUT /api/v1/credits', allow: 'GET, HEAD, OPTIONS' },
        { request: 'DELETE /api/v1/plans', allow: 'GET, HEAD, OPTIONS' },
        { request: 'POST /api/v1/models', allow: 'GET, HEAD, OPTIONS' },
        { request: 'PROPFIND /api/v1/credits', allow: 'GET, HEAD, OPTIONS' },
        { request: 'PATCH /api/v1/api-keys', allow: 'GET, HEAD, OPTIONS, POST' },
      ];
      for (const { request, allow } of cases) {
        const [method, path] = request.split(' ');
        const reply = await send(`${request} HTTP/1.1\nHost: x\nContent-Length: 0\nConnection: close`);
        expectSpecError(reply, 405, 'method_not_allowed');
        expect(reply.headers.allow, request).toBe(allow);
        expect(json(reply).error.message).toBe(`${method} is not supported on ${path}; use ${allow}`);
        const options = await send(`OPTIONS ${path} HTTP/1.1\nHost: x\nConnection: close`);
        expect(options.headers.allow, `OPTIONS ${path}`).toBe(allow);
        // The access log names the method the client sent (PROPFIND is asked of Next as OPTIONS).
        expect(await logged(reply)).toMatchObject({ method, path, status: 405 });
      }
    });
  });

  describe('native error shapes on the Messages and Responses routes', () => {
    it('405 on /messages and /messages/count_tokens is Anthropic’s, with Allow', async () => {
      for (const path of ['/api/v1/messages', '/api/v1/messages/count_tokens']) {
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'TRACE']) {
          const reply = await send(`${method} ${path} HTTP/1.1\nHost: x\nx-api-key: ${key}\nContent-Length: 0\nConnection: close`);
          expectAnthropicError(reply, 405, 'invalid_request_error');
          expect(reply.headers.allow, `${method} ${path}`).toBe('OPTIONS, POST');
          expect(json(reply).request_id).toBe(reply.headers['x-request-id']);
        }
      }
    });

    it('405 on /responses and /responses/{id} is OpenAI’s, with Allow', async () => {
      const cases = [
        { request: 'GET /api/v1/responses', allow: 'OPTIONS, POST' },
        { request: 'DELETE /api/v1/responses', allow: 'OPTIONS, POST' },
        { request: 'PUT /api/v1/responses/resp_x', allow: 'DELETE, GET, HEAD, OPTIONS' },
        { request: 'POST /api/v1/responses/resp_x', allow: 'DELETE, GET, HEAD, OPTIONS' },
      ];
      for (const { request, allow } of cases) {
        const reply = await send(`${request} HTTP/1.1\nHost: x\nAuthorization: Bearer ${key}\nContent-Length: 0\nConnection: close`);
        expectOpenAIError(reply, 405, 'method_not_allowed');
        expect(reply.headers.allow, request).toBe(allow);
      }
    });

    it('408 for a body shorter than its Content-Length is in the route’s shape', async () => {
      const [messages, responses, chat, rest] = await Promise.all([
        stalledBody('/api/v1/messages', `x-api-key: ${key}`),
        stalledBody('/api/v1/responses', `Authorization: Bearer ${key}`),
        stalledBody('/api/v1/chat/completions', `Authorization: Bearer ${key}`),
        stalledBody('/api/v1/api-keys', `Authorization: Bearer ${key}`),
      ]);
      expectAnthropicError(messages, 408, 'invalid_request_error');
      expectOpenAIError(responses, 408, 'bad_request');
      expectSpecError(chat, 408, 'bad_request');
      expectSpecError(rest, 408, 'bad_request');
      for (const reply of [messages, responses, chat, rest]) expect(reply.headers.connection).toBe('close');
    });

    it('431 for a 100 KB header is in the route’s shape when the request line came with it', async () => {
      const huge = 'a'.repeat(100_000);
      expectAnthropicError(await send(`POST /api/v1/messages HTTP/1.1\nHost: x\nx-api-key: ${huge}`), 431, 'invalid_request_error');
      expectOpenAIError(await send(`POST /api/v1/responses HTTP/1.1\nHost: x\nx-api-key: ${huge}`), 431, 'bad_request');
      expectSpecError(await send(`POST /api/v1/chat/completions HTTP/1.1\nHost: x\nx-api-key: ${huge}`), 431, 'bad_request');
    });
  });

  describe('404 under /api', () => {
    it('is JSON in the spec shape, never Next’s HTML page (compressed or not)', async () => {
      for (const path of ['/api/v1', '/api/v1/models/%2e%2e/%2e%2e/endpoints', '/api', '/api/nothing']) {
        for (const encoding of ['identity', 'gzip']) {
          const reply = await send(`GET ${path} HTTP/1.1\nHost: x\nAccept-Encoding: ${encoding}\nConnection: close`);
          expectSpecError(reply, 404, 'not_found');
          expect(reply.headers['content-encoding'], path).toBeUndefined();
          expect(json(reply).error.message).toContain(`GET ${path}`);
        }
      }
    });

    it('an unknown path under /api/v1 keeps its catch-all’s answer', async () => {
      expectSpecError(await send('GET /api/v1/nothing/here HTTP/1.1\nHost: x\nConnection: close'), 404, 'not_found');
    });
  });

  describe('the access log', () => {
    it('records the 408 that was sent, not a 200 "aborted"', async () => {
      const paths = ['/api/v1/chat/completions', '/api/v1/messages', '/api/v1/api-keys'];
      const replies = await Promise.all(paths.map((path) => stalledBody(path, `Authorization: Bearer ${key}`)));
      for (const reply of replies) expect(reply.status).toBe(408);
      // Found by the id each answer carried (a line by path alone may be an earlier test's, written late: the
      // log goes out in blocks); a line logged under another id, or none, times the poll out.
      const ids = replies.map((reply) => String(reply.headers['x-request-id']));
      const lines = () => server.accessLog().filter((entry) => ids.includes(String(entry.request_id)));
      await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(paths.length);
      for (const line of lines()) {
        expect(line, JSON.stringify(line)).toMatchObject({ method: 'POST', status: 408 });
        expect(line, JSON.stringify(line)).not.toHaveProperty('aborted');
        expect(paths).toContain(line.path);
      }
    });
  });
});
