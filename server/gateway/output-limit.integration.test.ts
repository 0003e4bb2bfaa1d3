// An upstream that ignores max_tokens (some OpenAI-compatible servers do) cannot take an account below its
// floor: the stream is cut at the limit the reservation was computed for (finish_reason `length`, the
// upstream connection closed), a complete answer is shortened to it, and the charge never exceeds the
// reservation — also when the provider reports more prompt tokens than estimated. What the upstream's usage
// costs beyond the charge is recorded as the operator's loss and shown by the generation lookup and the CLI.
import { primaryEndpoint } from '@/server/catalog/models-dto';
import { resolveModelOrThrow } from '@/server/routing/plan-route';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCommand } from '@/server/cli/commands';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { usdToMicros } from '@/server/ledger/money';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { overrunCompletion, overrunStream } from '@/test/fake-upstream-overrun';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { parseChatRequest } from './chat-request-schema';
import { reservationMicros } from './cost';

const MODEL = 'openai/gpt-4o-mini';
const chatBody = (p: { stream: boolean; max_tokens: number; content?: string }) => ({ model: MODEL, messages: [{ role: 'user', content: p.content ?? 'Say hello' }], stream: p.stream, max_tokens: p.max_tokens });

describeEachDatabase('an upstream that ignores max_tokens', () => {
  let h: GatewayHarness;
  let api: ApiServer;
  beforeAll(async () => {
    h = await startGatewayHarness();
    api = await startApiServer();
  });
  afterAll(async () => {
    await api.runtime.settlements.flush();
    await api?.close();
    await h?.close();
  });

  const post = (key: string, body: unknown) =>
    fetch(`${api.origin}/api/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const generation = async (key: string, id: string) => (await (await fetch(`${api.origin}/api/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } })).json()).data;
  const reservation = async (body: ReturnType<typeof chatBody>) => reservationMicros(parseChatRequest(body), primaryEndpoint(resolveModelOrThrow(h.runtime.routing.table(), MODEL)));

  /** After settlement: charged exactly usage.cost, never more than the reservation, never below zero. */
  async function expectChargedAtMostTheReservation(u: Awaited<ReturnType<typeof fundedUser>>, id: string, cost: number, reserved: bigint, fundedMicros: bigint) {
    await api.runtime.settlements.flush();
    const prisma = await db();
    const charged = usdToMicros(cost);
    expect(charged).toBeGreaterThan(0n);
    expect(charged).toBeLessThanOrEqual(reserved);
    const balance = await getBalanceOrThrow(u.user.personal_account_id);
    expect(balance.totalMicros).toBe(fundedMicros - charged);
    expect(balance.totalMicros).toBeGreaterThanOrEqual(0n);
    expect(balance.reservedMicros).toBe(0n);
    expect(await prisma.ledgerEntry.findMany({ where: { generationId: id }, select: { amountMicros: true } })).toEqual([{ amountMicros: -charged }]);
    expect(await prisma.reservation.findUnique({ where: { generationId: id }, select: { status: true, settledMicros: true } })).toEqual({ status: 'SETTLED', settledMicros: charged });
  }

  it('streaming: cut at max_tokens with finish_reason length, the upstream hung up on, charged at most the reservation', { timeout: 60_000 }, async () => {
    const body = chatBody({ stream: true, max_tokens: 50 });
    const reserved = await reservation(body);
    // The balance covers the reservation, not the 2,000 tokens the upstream would bill (1,200 µ$).
    const funded = reserved + 20n;
    const u = await fundedUser(Number(funded) / 1e6);
    h.respond = () => overrunStream({ tokens: 2_000, delayMs: 1 });

    const res = await post(u.key, body);
    expect(res.status).toBe(200);
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    const contentDeltas = chunks.filter((c) => c.choices?.[0]?.delta?.content);
    expect(contentDeltas.length).toBe(50);
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('length');
    expect(last.usage).toMatchObject({ completion_tokens: 50 });
    expect((await h.upstream.whenClosed()).aborted).toBe(true); // we stopped reading: the upstream stops generating
    await expectChargedAtMostTheReservation(u, last.id, last.usage.cost, reserved, funded);
    expect(await generation(u.key, last.id)).toMatchObject({ finish_reason: 'length', tokens_completion: 50, total_cost: last.usage.cost });
  });

  it('non-streaming: the answer is shortened to max_tokens, charged at most the reservation; the loss is recorded and shown', async () => {
    const body = chatBody({ stream: false, max_tokens: 100 });
    const reserved = await reservation(body);
    const funded = reserved + 20n;
    const u = await fundedUser(Number(funded) / 1e6);
    h.respond = () => overrunCompletion({ tokens: 50_000 }); // $0.03 at gpt-4o-mini's output price

    const res = await post(u.key, body);
    expect(res.status).toBe(200);
    const completion = await res.json();
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.usage.completion_tokens).toBe(100);
    expect(completion.choices[0].message.content.length).toBe(400); // 100 of the 50,000 " tok"
    await expectChargedAtMostTheReservation(u, completion.id, completion.usage.cost, reserved, funded);

    const lookup = await generation(u.key, completion.id);
    const upstreamMicros = 2n + 30_000n; // 10 prompt tokens at $0.15/M (rounded up) + 50,000 at $0.60/M
    expect(lookup).toMatchObject({ total_cost: completion.usage.cost, tokens_completion: 100, finish_reason: 'length' });
    expect(BigInt(lookup.unbilled_cost_micros)).toBe(upstreamMicros - usdToMicros(completion.usage.cost));
    const cli = await runCommand('usage:unbilled', { days: '1' });
    expect(BigInt(cli.data.total_micros as string)).toBeGreaterThanOrEqual(upstreamMicros - usdToMicros(completion.usage.cost));
    expect(cli.text).toMatch(/openai\/gpt-4o-mini \(openai\): \$0\.0\d+ over \d+ generation/);
  });

  it('more prompt tokens than estimated: the charge stops at the reservation, the rest is unbilled', async () => {
    const body = chatBody({ stream: false, max_tokens: 10 });
    const reserved = await reservation(body);
    const funded = reserved + 20n;
    const u = await fundedUser(Number(funded) / 1e6);
    h.respond = () => overrunCompletion({ tokens: 5, promptTokens: 1_000_000 }); // $0.15 of prompt

    const res = await post(u.key, body);
    const completion = await res.json();
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(usdToMicros(completion.usage.cost)).toBe(reserved);
    await expectChargedAtMostTheReservation(u, completion.id, completion.usage.cost, reserved, funded);
    expect(BigInt((await generation(u.key, completion.id)).unbilled_cost_micros)).toBe(150_000n + 3n - reserved);
  });

  it('an upstream that honours max_tokens is not cut: every delta arrives, its own finish reason stands, nothing unbilled', async () => {
    const body = chatBody({ stream: true, max_tokens: 50 });
    const u = await fundedUser(1);
    h.respond = () => overrunStream({ tokens: 50 });
    const { chunks } = await readSse(await post(u.key, body));
    expect(chunks.filter((c) => c.choices?.[0]?.delta?.content)).toHaveLength(50);
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage.completion_tokens).toBe(50);
    await api.runtime.settlements.flush();
    expect(await generation(u.key, last.id)).toMatchObject({ total_cost: last.usage.cost, unbilled_cost_micros: '0' });
  });
});
