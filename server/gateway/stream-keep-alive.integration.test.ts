// While the upstream has not answered yet, a streaming client gets response headers after at most
// streamHeadersAfterMs and `: keep-alive` comments every streamKeepAliveMs (proxies and SDKs cut idle
// connections); once the upstream answers, the stream goes on, and if it fails, the failure is reported
// inside the stream with the provider's own message, then [DONE]. The fake upstream holds its answer until
// the test has seen the keep-alives, so "before the upstream answered" is certain, not timed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Reads the response body as text, chunk by chunk, until `until(text)` holds or the body ends. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, sofar: { text: string }, until: (text: string) => boolean) {
  const decoder = new TextDecoder();
  while (!until(sofar.text)) {
    const { value, done } = await reader.read();
    if (done) return false;
    sofar.text += decoder.decode(value, { stream: true });
  }
  return true;
}

const keepAlives = (text: string) => text.split('\n').filter((line) => line === ': keep-alive').length;

describeEachDatabase('stream headers and keep-alives while the upstream is slow', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ streamHeadersAfterMs: 100, streamKeepAliveMs: 50 });
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const post = (model = 'openai/gpt-4o-mini') =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello' }], stream: true }),
    });

  it('sends headers and repeated keep-alives before the upstream answers, then the whole stream', async () => {
    const upstream = gate();
    h.respond = async () => {
      await upstream.opened;
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt') };
    };
    const res = await post(); // resolves on the response headers: the upstream has not answered yet
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-generation-id')).toMatch(/^gen-/);
    const reader = res.body!.getReader();
    const seen = { text: '' };
    // Several comments, not only the one sent with the headers: the wait itself is kept alive.
    expect(await readUntil(reader, seen, (text) => keepAlives(text) >= 3)).toBe(true);
    expect(seen.text).not.toContain('data:');
    upstream.open();
    await readUntil(reader, seen, () => false);
    const events = seen.text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => block.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello there, friend!');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it("ends with an error chunk carrying the provider's message, then [DONE], when the upstream then fails", async () => {
    const upstream = gate();
    // Gemini's recorded 503 (UNAVAILABLE, "The model is overloaded. Please try again later."); the issue's
    // case: this message became "closed the stream".
    const overloaded = JSON.parse(readFixture('gemini', 'overloaded.error.json'));
    h.respond = async () => {
      await upstream.opened;
      return { status: 503, json: overloaded };
    };
    const res = await post('google/gemini-4-carbon');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const seen = { text: '' };
    expect(await readUntil(reader, seen, (text) => keepAlives(text) >= 1)).toBe(true);
    upstream.open();
    await readUntil(reader, seen, () => false);
    const events = seen.text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => block.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const last = JSON.parse(events.at(-2)!);
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.choices[0].error.code).toBe('server_error');
    expect(last.choices[0].error.message).toContain(overloaded.error.message);
  });
});
