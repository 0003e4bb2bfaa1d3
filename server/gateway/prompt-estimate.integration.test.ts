// A stream the provider cut before reporting usage is billed from our own estimate (run-streaming.ts): the
// prompt's image must count as an image (IMAGE_TOKENS), not as the length of its base64 data URL read as text.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { IMAGE_TOKENS } from '@/server/providers/estimate-tokens';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('prompt estimate of a stream cut before usage', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h?.close());

  it('an image in the prompt is billed as an image, not as its base64 text', async () => {
    const u = await fundedUser(10);
    const image = `data:image/png;base64,${Buffer.alloc(60_000, 7).toString('base64')}`; // 80,000 characters
    const text = 'What is in this picture?';
    // Two events, then the socket is destroyed: content was produced, no usage was reported.
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), destroyAfter: 2 });
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${u.key}` },
      body: JSON.stringify({
        model: 'openai/gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url: image } }] }],
      }),
    });
    const { chunks } = await readSse(res);
    const generationId = chunks[0].id as string;
    expect(chunks.at(-1).choices[0].finish_reason).toBe('error');
    await h.runtime.settlements.flush();
    const record = await (await db()).usageRecord.findUniqueOrThrow({ where: { id: generationId }, select: { promptTokens: true, completionTokens: true } });
    expect(record.completionTokens).toBeGreaterThan(0);
    // The text (24 bytes → 6 tokens) and one image; read as text, the data URL alone would be ~20,000 tokens.
    expect(record.promptTokens).toBe(Math.ceil(text.length / 4) + IMAGE_TOKENS);
  });
});
