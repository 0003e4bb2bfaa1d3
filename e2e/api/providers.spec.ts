// Each provider family through the real production server (dist/server.js), the way an SDK would call it.
// The server's providers point at a local fake replaying each provider's recorded wire format
// (scripts/e2e.mjs). The key comes from the CLI, which reaches the server's embedded database through it.
import { expect, runCli, runCliJson, test } from '../fixtures';

let key = '';

test.beforeAll(() => {
  const email = `providers-${Date.now()}@example.com`;
  runCli('user:create', '--email', email, '--password', 'password123');
  runCli('credits:grant', '--email', email, '--amount', '20');
  key = runCliJson('key:create', '--email', email).key;
});

const families = [
  { family: 'OpenAI', model: 'openai/gpt-4o-mini' },
  { family: 'Anthropic', model: 'anthropic/claude-sonnet-4.5' },
  { family: 'Gemini', model: 'google/gemini-2.5-flash' },
  { family: 'DeepSeek (OpenAI-compatible)', model: 'deepseek/deepseek-v4.1-flash' },
  { family: 'echo (built in)', model: 'switchboard/echo' },
];

for (const { family, model } of families) {
  test(`${family}: streaming and non-streaming through the production server`, async ({ request, apiBaseURL }) => {
    const body = { model, messages: [{ role: 'user', content: 'Hello from the e2e test' }] };
    const headers = { authorization: `Bearer ${key}` };

    const streamed = await request.post(`${apiBaseURL}/chat/completions`, { data: body, headers });
    expect(streamed.status()).toBe(200);
    expect(streamed.headers()['content-type']).toContain('text/event-stream');
    expect(streamed.headers()['x-request-id']).toMatch(/^req_/);
    const events = (await streamed.text()).split('\n\n').filter((b) => b.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => (c.choices[0].delta.content ?? '') + (c.choices[0].delta.reasoning ?? '')).join('');
    expect(text.length).toBeGreaterThan(0);
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('stop');
    // Echo is free (a new account's first request always succeeds); the providers' models are not.
    if (model === 'switchboard/echo') expect(last.usage.cost).toBe(0);
    else expect(last.usage.cost).toBeGreaterThan(0);

    const plain = await request.post(`${apiBaseURL}/chat/completions`, { data: { ...body, stream: false }, headers });
    expect(plain.status()).toBe(200);
    const json = await plain.json();
    expect(json.model).toBe(model);
    expect(json.choices[0].message.role).toBe('assistant');
    expect(json.usage.prompt_tokens).toBeGreaterThan(0);
  });
}

test('errors through the production server keep the spec body', async ({ request, apiBaseURL }) => {
  const res = await request.post(`${apiBaseURL}/chat/completions`, { data: { model: 'nope/nope', messages: [{ role: 'user', content: 'x' }] }, headers: { authorization: `Bearer ${key}` } });
  expect(res.status()).toBe(404);
  const body = await res.json();
  expect(body.error).toMatchObject({ code: 404, metadata: { error_type: 'not_found' } });
  const unauth = await request.post(`${apiBaseURL}/chat/completions`, { data: {}, headers: {} });
  expect(unauth.status()).toBe(401);
});

test('every response carries x-request-id, and /api errors are JSON even for an unsupported method', async ({ request, apiBaseURL, origin }) => {
  const put = await request.put(`${apiBaseURL}/models`, { data: {} });
  expect(put.status()).toBe(405);
  expect(put.headers()['x-request-id']).toMatch(/^req_/);
  expect((await put.json()).error).toMatchObject({ code: 405, metadata: { error_type: 'method_not_allowed' } });
  const page = await request.get(`${origin}/`);
  expect(page.headers()['x-request-id']).toMatch(/^req_/);
  const models = await request.get(`${apiBaseURL}/models`);
  expect(models.headers()['x-request-id']).toBe(models.headers()['x-request-id']);
  expect(models.headers()['x-request-id']).toMatch(/^req_/);
});
