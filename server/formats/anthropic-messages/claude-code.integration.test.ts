// Claude Code's own requests, and count_tokens both ways. The request shape is constructed from Claude
// Code's documentation (code.claude.com/docs/en/llm-gateway-protocol: /v1/messages and the optional
// /v1/messages/count_tokens, anthropic-beta and anthropic-version forwarded unchanged; llm-gateway: the key
// as x-api-key from ANTHROPIC_API_KEY or as Bearer from ANTHROPIC_AUTH_TOKEN) and Anthropic's Messages API
// reference: system blocks with cache_control, tools with JSON-schema input, metadata.user_id, thinking,
// streaming, a breakpoint on the last user block.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { convertMessagesRequest } from './convert-messages-request';
import { countTokensLocally } from './count-tokens-locally';
import { handleCountTokensNode } from './handle-count-tokens';
import { parseCountTokensRequest } from './messages-request-schema';

const BETA = 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14';

function claudeCodeBody(model: string) {
  return {
    model,
    max_tokens: 32_000,
    stream: true,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'You are an interactive CLI tool that helps users with software engineering tasks…', cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>\nThis is a reminder…\n</system-reminder>' },
          { type: 'text', text: 'What does package.json say the test command is?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
    tools: [
      {
        name: 'Read',
        description: 'Reads a file from the local filesystem.',
        input_schema: {
          type: 'object',
          properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' }, offset: { type: 'number' }, limit: { type: 'number' } },
          required: ['file_path'],
          additionalProperties: false,
          $schema: 'http://json-schema.org/draft-07/schema#',
        },
      },
    ],
    metadata: { user_id: 'user_2f6a0c0e7d_account_5b3c9a1e-0c77-4a5e-9d1e-8a2b6c4d3e1f_session_7e1d2c3b-4a59-4f6e-8b7c-1d2e3f4a5b6c' },
    thinking: { type: 'enabled', budget_tokens: 31_999 },
  };
}

describeEachDatabase('Claude Code through /api/v1/messages', () => {
  let h: GatewayHarness;
  let key: string;
  let countServer: http.Server;
  let countUrl: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
    // count_tokens is served by server/main.ts before Next (not a gateway route): here on the harness's runtime.
    countServer = http.createServer((req, res) => void handleCountTokensNode(h.runtime, req, res));
    await new Promise<void>((r) => countServer.listen(0, '127.0.0.1', r));
    countUrl = `http://127.0.0.1:${(countServer.address() as AddressInfo).port}/api/v1/messages/count_tokens`;
  });
  afterAll(async () => {
    countServer?.closeAllConnections();
    await new Promise((r) => countServer?.close(r));
    await h?.close();
  });

  it("passes Claude Code's streaming request to Anthropic unchanged but for the model, headers forwarded", async () => {
    h.respond = replay('anthropic', 'thinking_tool_use');
    const body = claudeCodeBody('claude-sonnet-4-5-20250929');
    const res = await fetch(`${h.baseUrl}/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETA, 'content-type': 'application/json', 'x-app': 'cli', 'user-agent': 'claude-cli/2.1.77 (external, cli)' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text()).split('\n\n').filter((e) => e.startsWith('event: ')).map((e) => e.slice(7, e.indexOf('\n')));
    expect(events.filter((e) => e !== 'ping')).toEqual([
      'message_start',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const sent = h.upstream.requests.at(-1)!;
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toEqual({ ...body, model: 'claude-sonnet-4-5' });
    expect(Object.keys(sent.body as object)).toEqual(Object.keys(body));
  });

  it('the same request with Authorization: Bearer (ANTHROPIC_AUTH_TOKEN) runs on a non-Anthropic model', async () => {
    h.respond = replay('openai', 'text');
    const client = new Anthropic({ authToken: key, apiKey: null, baseURL: h.baseUrl.replace(/\/v1$/, ''), maxRetries: 0, defaultHeaders: { 'anthropic-beta': BETA } });
    const message = await client.messages.stream(claudeCodeBody('openai/gpt-4o-mini') as unknown as Anthropic.MessageStreamParams).finalMessage();
    expect(message.content.some((b) => b.type === 'text' && b.text.length > 0)).toBe(true);
    expect(message.stop_reason).toBe('end_turn');
    const sent = h.upstream.requests.at(-1)!.body as any;
    expect(sent.messages[0]).toMatchObject({ role: 'system' });
    expect(sent.tools[0].function.name).toBe('Read');
    expect(sent.user).toBe(claudeCodeBody('x').metadata.user_id);
  });

  it('count_tokens asks Anthropic for an Anthropic model, without the generation fields', async () => {
    h.respond = () => ({ status: 200, json: { input_tokens: 2095 } });
    const { max_tokens: _max, stream: _stream, metadata: _metadata, ...countBody } = claudeCodeBody('claude-sonnet-4-5');
    const client = new Anthropic({ apiKey: key, baseURL: countUrl.replace(/\/v1\/messages\/count_tokens$/, ''), maxRetries: 0 });
    const counted = await client.messages.countTokens(countBody as unknown as Anthropic.MessageCountTokensParams, { headers: { 'anthropic-beta': BETA } });
    expect(counted).toEqual({ input_tokens: 2095 });
    const sent = h.upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream-SECRET');
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    expect(sent.body).toEqual({ ...countBody, model: 'claude-sonnet-4-5' });
  });

  it('count_tokens estimates with a tokenizer elsewhere, and answers errors in Anthropic shape', async () => {
    const before = h.upstream.requests.length;
    const body = { ...claudeCodeBody('openai/gpt-4o-mini') };
    const res = await fetch(countUrl, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    const { input_tokens } = await res.json();
    expect(input_tokens).toBe(await countTokensLocally(convertMessagesRequest(parseCountTokensRequest(body), body)));
    expect(input_tokens).toBeGreaterThan(50);
    expect(h.upstream.requests.length).toBe(before);

    const unauthorized = await fetch(countUrl, { method: 'POST', headers: { 'x-api-key': 'nope' }, body: JSON.stringify(body) });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    // As /messages: the credential is checked before the body (fetch labels a string body text/plain), and a
    // body that is not labelled JSON is a 415.
    const unlabelled = await fetch(countUrl, { method: 'POST', headers: { 'x-api-key': key }, body: JSON.stringify(body) });
    expect(unlabelled.status).toBe(415);
    const unknown = await fetch(countUrl, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ ...body, model: 'no/such-model' }) });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});
