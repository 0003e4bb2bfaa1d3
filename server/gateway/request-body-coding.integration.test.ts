// Content-Encoding of request bodies on the gateway's routes (chat, messages, responses, embeddings,
// count_tokens). It was ignored: a real gzip body was a 400 "Malformed JSON", plain JSON labelled gzip, br
// or banana was accepted. Now gzip, deflate and br are decoded, with the 25 MiB limit on the decoded size (a
// zip bomb is a 413 without expanding beyond it); a body that is not what its label says is a 400; any other
// coding is a 415 with Accept-Encoding naming what is accepted (RFC 9110 §15.5.16), in each route's format.
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { MAX_BODY_BYTES } from './chat-request-schema';

const ACCEPTED = 'gzip, deflate, br, identity';

describeEachDatabase('gateway request bodies with a Content-Encoding', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const post = (path: string, body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${h.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const chat = JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'compressed hello' }], stream: false });

  it('chat: gzip, x-gzip, deflate and br bodies are decoded and answered; identity is no coding', async () => {
    const coded: [string, Buffer | string][] = [
      ['gzip', gzipSync(chat)],
      ['x-gzip', gzipSync(chat)],
      ['deflate', deflateSync(chat)],
      ['br', brotliCompressSync(chat)],
      ['identity', chat],
      ['GZip', gzipSync(chat)],
    ];
    for (const [coding, body] of coded) {
      const res = await post('/chat/completions', body, { 'content-encoding': coding });
      expect(res.status, coding).toBe(200);
      expect((await res.json()).choices[0].message.content, coding).toContain('compressed hello');
    }
  });

  it('chat: a body that is not what its coding says is a 400; an unknown or stacked coding a 415 with Accept-Encoding', async () => {
    for (const coding of ['gzip', 'br', 'deflate']) {
      const res = await post('/chat/completions', chat, { 'content-encoding': coding });
      expect(res.status, coding).toBe(400);
      expect((await res.json()).error.message).toBe(`The request body is not valid ${coding} data (Content-Encoding: ${coding})`);
    }
    for (const coding of ['banana', 'zstd', 'compress', 'gzip, br']) {
      const res = await post('/chat/completions', chat, { 'content-encoding': coding });
      expect(res.status, coding).toBe(415);
      expect(res.headers.get('accept-encoding')).toBe(ACCEPTED);
      const { error } = await res.json();
      expect(error).toMatchObject({ code: 415, metadata: { error_type: 'unsupported_media_type', content_encoding: coding } });
      expect(error.message).toBe(`Content-Encoding ${coding} is not supported: request bodies may be sent uncompressed or with Content-Encoding gzip, deflate or br (one of them)`);
    }
  });

  it('a zip bomb is a 413 stating the limit of the decoded body', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1024 * 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(256 * 1024);
    const res = await post('/chat/completions', bomb, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ message: 'Request body is larger than the limit of 25 MiB', metadata: { error_type: 'payload_too_large', limit_bytes: MAX_BODY_BYTES } });
  });

  it('/messages and count_tokens answer in Anthropic’s shape; /responses in OpenAI’s; /embeddings in ours', async () => {
    const messages = JSON.stringify({ model: 'switchboard/echo', max_tokens: 50, messages: [{ role: 'user', content: 'zipped' }] });
    const ok = await post('/messages', gzipSync(messages), { 'content-encoding': 'gzip' });
    expect(ok.status).toBe(200);
    expect((await ok.json()).content[0].text).toContain('zipped');

    for (const path of ['/messages', '/messages/count_tokens']) {
      const res = await post(path, messages, { 'content-encoding': 'banana' });
      expect(res.status, path).toBe(415);
      expect(res.headers.get('accept-encoding'), path).toBe(ACCEPTED);
      expect(await res.json(), path).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/^Content-Encoding banana is not supported/) } });
    }
    // count_tokens decodes too: a gzip body counted like the plain one.
    const { max_tokens: _max, ...countBody } = JSON.parse(messages);
    const plain = await post('/messages/count_tokens', JSON.stringify(countBody), {});
    const zipped = await post('/messages/count_tokens', gzipSync(JSON.stringify(countBody)), { 'content-encoding': 'gzip' });
    expect(zipped.status).toBe(plain.status);
    expect(await zipped.json()).toEqual(await plain.json());

    const responses = await post('/responses', JSON.stringify({ model: 'switchboard/echo', input: 'hi' }), { 'content-encoding': 'banana' });
    expect(responses.status).toBe(415);
    expect(responses.headers.get('accept-encoding')).toBe(ACCEPTED);
    expect((await responses.json()).error).toMatchObject({ message: expect.stringMatching(/^Content-Encoding banana/) });

    // Embeddings: a gzip body is read (the unknown model is then a 404, not "Malformed JSON"); banana a 415.
    const embed = JSON.stringify({ model: 'nope/none', input: 'x' });
    expect((await post('/embeddings', gzipSync(embed), { 'content-encoding': 'gzip' })).status).toBe(404);
    const refused = await post('/embeddings', embed, { 'content-encoding': 'banana' });
    expect(refused.status).toBe(415);
    expect(refused.headers.get('accept-encoding')).toBe(ACCEPTED);
  });
});
