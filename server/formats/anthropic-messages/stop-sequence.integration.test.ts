// A stop sequence that ended the answer, through HTTP: Anthropic says which (stop_reason "stop_sequence" and
// stop_sequence, in the message and in the stream's message_delta; recorded fixtures stop_sequence.*), and
// /messages answers it in Anthropic's shape, streaming and not, while /chat/completions keeps OpenAI's
// finish_reason "stop". An OpenAI upstream only says "stop": /messages then answers end_turn.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, readSse, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('stop sequences', () => {
  let h: GatewayHarness;
  let client: Anthropic;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
    client = new Anthropic({ apiKey: key, baseURL: h.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(() => h?.close());
  const params = { model: 'anthropic/claude-sonnet-4.5', max_tokens: 100, stop_sequences: ['6', 'END'], messages: [{ role: 'user' as const, content: 'Count from 1 to 10' }] };

  it('/messages, non-streaming: stop_reason stop_sequence with the sequence', async () => {
    h.respond = replay('anthropic', 'stop_sequence');
    const message = await client.messages.create(params);
    expect(message).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '6', content: [{ type: 'text', text: '1, 2, 3, 4, 5' }] });
    expect((h.upstream.requests.at(-1)!.body as { stop_sequences?: string[] }).stop_sequences).toEqual(['6', 'END']);
  });

  it('/messages, streaming: message_delta carries stop_reason stop_sequence and the sequence', async () => {
    h.respond = replay('anthropic', 'stop_sequence');
    const stream = client.messages.stream(params);
    const deltas: Anthropic.MessageDeltaEvent[] = [];
    stream.on('streamEvent', (e) => void (e.type === 'message_delta' && deltas.push(e)));
    const message = await stream.finalMessage();
    expect(deltas.map((d) => d.delta)).toEqual([{ stop_reason: 'stop_sequence', stop_sequence: '6' }]);
    expect(message).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '6' });
    expect(message.content).toMatchObject([{ type: 'text', text: '1, 2, 3, 4, 5' }]);
  });

  it('/chat/completions with `stop`: finish_reason stays "stop", streaming and not, and in the usage record', async () => {
    h.respond = replay('anthropic', 'stop_sequence');
    const post = (stream: boolean) =>
      fetch(`${h.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'anthropic/claude-sonnet-4.5', stream, stop: ['6', 'END'], messages: [{ role: 'user', content: 'Count from 1 to 10' }] }),
      });
    const plain = await (await post(false)).json();
    expect(plain.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '1, 2, 3, 4, 5' } });
    expect((h.upstream.requests.at(-1)!.body as { stop_sequences?: string[] }).stop_sequences).toEqual(['6', 'END']);
    const { chunks } = await readSse(await post(true));
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(JSON.stringify(chunks)).not.toContain('stop_sequence');
    await h.runtime.settlements.flush();
    const record = await (await db()).usageRecord.findUnique({ where: { id: plain.id } });
    expect(record?.finishReason).toBe('stop');
  });

  it('/messages to an OpenAI model: its finish_reason "stop" cannot tell a stop sequence apart, so end_turn', async () => {
    h.respond = replay('openai', 'text');
    const message = await client.messages.create({ ...params, model: 'openai/gpt-4o-mini' });
    expect(message).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
    expect((h.upstream.requests.at(-1)!.body as { stop?: string[] }).stop).toEqual(['6', 'END']);
  });
});
