// One JSON log line per request (pino, destination injected): parsed, checked for request_id and the
// generation's fields, and for the absence of the API key, the Authorization header and the prompt.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { createLogger } from './logger';

describeEachDatabase('request log lines', () => {
  let h: GatewayHarness;
  let u: Awaited<ReturnType<typeof fundedUser>>;
  const written: string[] = [];

  beforeAll(async () => {
    h = await startGatewayHarness({}, { logger: createLogger({ format: 'json', destination: { write: (line: string) => void written.push(line) } }) });
    u = await fundedUser(10);
  });
  afterAll(() => h?.close());

  /** The request's line, once its response is closed (logged on 'close', right after the client got it). */
  const lineFor = async (requestId: string) => {
    for (let i = 0; i < 100; i++) {
      const found = written.map((l) => JSON.parse(l)).find((entry) => entry.request_id === requestId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no log line for ${requestId}`);
  };

  it('logs each request once with request_id, method, path, status, duration and the generation fields; never a secret or the prompt', async () => {
    const prompt = 'PROMPT-SENTINEL the launch codes are 0000';
    const post = (body: unknown, key: string) =>
      fetch(`${h.baseUrl}/chat/completions?api_key=${encodeURIComponent(key)}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });

    const ok = await post({ model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: prompt }] }, u.key);
    expect(ok.status).toBe(200);
    const answer = await ok.json();
    const line = await lineFor(ok.headers.get('x-request-id')!);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'POST',
      path: '/api/v1/chat/completions',
      status: 200,
      model: 'switchboard/echo',
      provider: 'echo',
      generation_id: answer.id,
      account_id: u.user.personal_account_id,
    });
    expect(line.request_id).toMatch(/^req_/);
    expect(typeof line.duration_ms).toBe('number');
    expect(typeof line.time).toBe('string');

    const streamed = await post({ model: 'switchboard/echo', stream: true, messages: [{ role: 'user', content: prompt }] }, u.key);
    await streamed.text();
    expect(await lineFor(streamed.headers.get('x-request-id')!)).toMatchObject({ status: 200, model: 'switchboard/echo', provider: 'echo', account_id: u.user.personal_account_id });

    const wrongKey = 'sk-sb-v1-' + 'w'.repeat(40);
    const refused = await post({ model: 'switchboard/echo', messages: [{ role: 'user', content: prompt }] }, wrongKey);
    expect(refused.status).toBe(401);
    const refusedLine = await lineFor(refused.headers.get('x-request-id')!);
    expect(refusedLine).toMatchObject({ status: 401, method: 'POST', path: '/api/v1/chat/completions' });
    expect(refusedLine.generation_id).toBeUndefined();

    const scrape = await fetch(`${h.origin}/metrics?token=x`);
    expect(scrape.status).toBe(200);
    expect(await lineFor(scrape.headers.get('x-request-id')!)).toMatchObject({ method: 'GET', path: '/metrics', status: 200 });

    const all = written.join('');
    expect(written.every((l) => l.endsWith('\n') && l.indexOf('\n') === l.length - 1)).toBe(true);
    for (const secret of ['token=x', u.key, wrongKey, `Bearer ${u.key}`, 'sk-upstream-openai-SECRET', 'PROMPT-SENTINEL', 'launch codes']) {
      expect(all).not.toContain(secret);
    }
    expect(written.length).toBe(4);
  });
});
