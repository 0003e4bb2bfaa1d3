import { describe, expect, it } from 'vitest';
import { parseChatRequest } from './chat-request-schema';
import { computeCost, estimatePromptTokens, maxOutputTokens, requestedCacheTtls, reservationMicros } from './cost';
import { tokenCostMicros } from '@/server/ledger/money';

// Claude Sonnet 4.5's list prices in micro-dollars per million tokens: $3 in, $15 out, reads $0.30,
// 5-minute writes $3.75, 1-hour writes $6.
const sonnet = { inputPrice: 3_000_000, outputPrice: 15_000_000, cacheReadPrice: 300_000, cacheWritePrice: 3_750_000, cacheWrite1hPrice: 6_000_000, maxOutputTokens: 64_000 };

describe('computeCost', () => {
  it('prices plain input, cache reads, 5-minute writes and 1-hour writes each at their own price', () => {
    // 10,000 prompt tokens: 1,000 plain, 6,000 read, 3,000 written (2,000 of them for an hour).
    const usage = { promptTokens: 10_000, completionTokens: 100, cachedTokens: 6_000, cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000, reasoningTokens: 0 };
    // 1,000 × $3 + 6,000 × $0.30 + 1,000 × $3.75 + 2,000 × $6 + 100 × $15, per million.
    expect(computeCost(usage, sonnet)).toEqual({ costMicros: 3_000n + 1_800n + 3_750n + 12_000n + 1_500n, cacheSavingsMicros: 18_000n - 1_800n });
  });

  it('bills 1-hour writes as other writes when no 1-hour price is set, and absent 1-hour tokens as none', () => {
    const usage = { promptTokens: 3_000, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000, reasoningTokens: 0 };
    expect(computeCost(usage, { ...sonnet, cacheWrite1hPrice: 0 }).costMicros).toBe(11_250n);
    expect(computeCost(usage, { ...sonnet, cacheWrite1hPrice: 0, cacheWritePrice: 0 }).costMicros).toBe(9_000n);
    expect(computeCost({ ...usage, cacheWrite1hTokens: undefined }, sonnet).costMicros).toBe(11_250n);
  });
});

describe('reservationMicros', () => {
  const text = 'x'.repeat(4_000);
  const request = (extra: Record<string, unknown>, part: Record<string, unknown> = {}) =>
    parseChatRequest({ model: 'anthropic/claude-sonnet-4.5', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text, ...part }] }], ...extra });
  const at = (req: ReturnType<typeof request>, promptPrice: number) => tokenCostMicros(estimatePromptTokens(req), promptPrice) + tokenCostMicros(maxOutputTokens(req, sonnet), sonnet.outputPrice);

  it('reserves the prompt at the input price without breakpoints', () => {
    const req = request({});
    expect(reservationMicros(req, sonnet)).toBe(at(req, sonnet.inputPrice));
  });

  it('reserves it at the dearest price a breakpoint can cost: 5-minute writes, then 1-hour writes', () => {
    const fiveMinutes = request({}, { cache_control: { type: 'ephemeral' } });
    expect(reservationMicros(fiveMinutes, sonnet)).toBe(at(fiveMinutes, sonnet.cacheWritePrice));
    const hour = request({ tools: [{ type: 'function', function: { name: 'f' }, cache_control: { type: 'ephemeral', ttl: '1h' } }] }, { cache_control: { type: 'ephemeral' } });
    expect(reservationMicros(hour, sonnet)).toBe(at(hour, sonnet.cacheWrite1hPrice));
    const auto = request({ cache_control: { type: 'ephemeral', ttl: '1h' } });
    expect(reservationMicros(auto, sonnet)).toBe(at(auto, sonnet.cacheWrite1hPrice));
  });

  it('covers the charge when the whole prompt is written to the 1-hour cache', () => {
    const req = request({ cache_control: { type: 'ephemeral', ttl: '1h' } });
    const prompt = estimatePromptTokens(req);
    const usage = { promptTokens: prompt, completionTokens: 100, cachedTokens: 0, cacheWriteTokens: prompt, cacheWrite1hTokens: prompt, reasoningTokens: 0 };
    expect(computeCost(usage, sonnet).costMicros).toBeLessThanOrEqual(reservationMicros(req, sonnet));
    expect(computeCost(usage, sonnet).costMicros).toBeGreaterThan(at(req, sonnet.inputPrice)); // what the old rule reserved
  });
});

describe('requestedCacheTtls', () => {
  it("finds breakpoints anywhere in a native Anthropic body (the client's own, passed through)", () => {
    const req = parseChatRequest({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    expect([...requestedCacheTtls(req)]).toEqual([]);
    const body = { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] }] };
    expect([...requestedCacheTtls({ ...req, native: { format: 'anthropic-messages', body } })]).toEqual(['1h']);
  });
});
