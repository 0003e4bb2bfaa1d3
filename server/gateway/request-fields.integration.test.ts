// Request fields that used to be dropped, through real HTTP against a fake upstream speaking each
// provider's format: a PDF reaching Anthropic as a document block, logprobs passing through an OpenAI
// model, refusals (no supportsPdf, logprobs where there are none, n > 1) answered 400 before any credit is
// touched, and Gemini's own "model is overloaded" text in the mid-stream error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { describeEachDatabase } from '@/test/db';
import { readFixture } from '@/test/fake-upstream';
import { pdfDataUrl } from '@/test/fixtures/pdf';
import { fundedUser, readSse, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('chat completions: PDF input, n, logprobs, provider error text', () => {
  let h: GatewayHarness;
  let key: string;
  let account: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    const u = await fundedUser(10);
    key = u.key;
    account = u.user.personal_account_id;
  });
  afterAll(() => h?.close());
  beforeEach(() => h.renewRuntime());

  const post = (body: unknown) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const pdf = pdfDataUrl(2);
  const withPdf = [{ role: 'user', content: [{ type: 'text', text: 'Summarise this.' }, { type: 'file', file: { filename: 'report.pdf', file_data: pdf } }] }];

  it('a PDF reaches Anthropic as a base64 document block', async () => {
    h.respond = replay('anthropic', 'text');
    const res = await post({ model: 'anthropic/claude-haiku-4.5', messages: withPdf, stream: false });
    expect(res.status).toBe(200);
    const sent = h.upstream.requests.at(-1)!.body as any;
    expect(sent.messages[0].content).toEqual([
      { type: 'text', text: 'Summarise this.' },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.slice(pdf.indexOf(',') + 1) }, title: 'report.pdf' },
    ]);
  });

  describe('refused with a 400 naming the model, before any credit is reserved or upstream called', () => {
    async function expectRefusal(body: unknown, message: RegExp, metadata: Record<string, unknown>) {
      const before = await getBalanceOrThrow(account);
      const calls = h.upstream.requests.length;
      const res = await post(body);
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.message).toMatch(message);
      expect(error.metadata).toMatchObject(metadata);
      expect(h.upstream.requests.length).toBe(calls);
      expect(await getBalanceOrThrow(account)).toEqual(before);
    }

    it('a PDF for a model without supportsPdf', () =>
      expectRefusal({ model: 'deepseek/deepseek-v4-pro', messages: withPdf }, /deepseek\/deepseek-v4-pro does not accept PDF input \(supportsPdf is false\)/, { model: 'deepseek/deepseek-v4-pro', capability: 'supportsPdf' }));

    it('logprobs for Anthropic', () =>
      expectRefusal({ model: 'anthropic/claude-haiku-4.5', messages: [{ role: 'user', content: 'x' }], logprobs: true }, /^logprobs is not supported for anthropic\/claude-haiku-4\.5/, { param: 'logprobs' }));

    it('n > 1 for a model whose provider returns one choice', () =>
      expectRefusal({ model: 'anthropic/claude-haiku-4.5', messages: [{ role: 'user', content: 'x' }], n: 2 }, /^n > 1 is not supported for anthropic\/claude-haiku-4\.5/, { model: 'anthropic/claude-haiku-4.5', param: 'n' }));
  });

  it('n: 1 is fine', async () => {
    h.respond = replay('openai', 'text');
    expect((await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], n: 1, stream: false })).status).toBe(200);
    expect((h.upstream.requests.at(-1)!.body as any).n).toBeUndefined();
  });

  // The logprobs fixtures are constructed from OpenAI's Chat Completions reference (choices[].logprobs).
  it('logprobs pass through an OpenAI model, in the answer and on stream chunks', async () => {
    h.respond = replay('openai', 'logprobs');
    const res = await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], logprobs: true, top_logprobs: 2, stream: false });
    expect(res.status).toBe(200);
    expect(h.upstream.requests.at(-1)!.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
    const expected = JSON.parse(readFixture('openai', 'logprobs.json')).choices[0].logprobs;
    expect((await res.json()).choices[0].logprobs).toEqual(expected);

    const { chunks, done } = await readSse(await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], logprobs: true, top_logprobs: 2, stream: true }));
    expect(done).toBe(true);
    const tokens = chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? []);
    expect(tokens).toEqual(expected.content);
  });

  it("Gemini's own message survives into the mid-stream error when its stream ends with a bare error object", async () => {
    // Gemini's documented 503 google.rpc.Status, unframed after a data line (as reported in vercel/ai#5217).
    h.respond = replay('gemini', 'overloaded_midstream');
    const { chunks, done } = await readSse(await post({ model: 'google/gemini-2.5-flash', messages: [{ role: 'user', content: 'x' }] }));
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Okay');
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.error).toMatchObject({ code: 'server_error', message: 'The model is overloaded. Please try again later.' });
  });

  describe('OpenAI request shapes the official SDK types', () => {
    const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } };
    const time = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } };

    it('tool_choice allowed_tools: the upstream gets only the allowed tools, and the mode as tool_choice (Anthropic and OpenAI)', async () => {
      const allowed = { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'get_time' } }] } };
      h.respond = replay('anthropic', 'text');
      expect((await post({ model: 'anthropic/claude-haiku-4.5', messages: [{ role: 'user', content: 'x' }], tools: [weather, time], tool_choice: allowed, stream: false })).status).toBe(200);
      const toAnthropic = h.upstream.requests.at(-1)!.body as any;
      expect(toAnthropic.tools.map((t: { name: string }) => t.name)).toEqual(['get_time']);
      expect(toAnthropic.tool_choice).toMatchObject({ type: 'any' });
      h.respond = replay('openai', 'text');
      expect((await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], tools: [weather, time], tool_choice: { ...allowed, allowed_tools: { ...allowed.allowed_tools, mode: 'auto' } }, stream: false })).status).toBe(200);
      const toOpenAI = h.upstream.requests.at(-1)!.body as any;
      expect(toOpenAI.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['get_time']);
      expect(toOpenAI.tool_choice).toBe('auto');
    });

    it('an assistant message sent back with a refusal part: accepted, its text passed on', async () => {
      h.respond = replay('openai', 'text');
      const res = await post({
        model: 'openai/gpt-4o-mini',
        stream: false,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] },
          { role: 'user', content: 'y' },
        ],
      });
      expect(res.status).toBe(200);
      const sent = h.upstream.requests.at(-1)!.body as any;
      expect(JSON.stringify(sent.messages[1])).toContain('I cannot help with that.');
    });

    it('reasoning_effort "none" is reasoning off and "xhigh" is high; verbosity and safety_identifier reach OpenAI (verbosity GPT-5 and later only)', async () => {
      h.respond = replay('openai', 'text');
      const sent = async (body: Record<string, unknown>) => {
        const res = await post({ model: 'openai/gpt-5-mini', messages: [{ role: 'user', content: 'x' }], stream: false, ...body });
        expect(res.status, await res.clone().text()).toBe(200);
        return h.upstream.requests.at(-1)!.body as Record<string, unknown>;
      };
      expect((await sent({ reasoning_effort: 'none' })).reasoning_effort).toBe('minimal'); // gpt-5-mini's lowest
      expect((await sent({ reasoning: { effort: 'xhigh' } })).reasoning_effort).toBe('high');
      expect(await sent({ verbosity: 'low', safety_identifier: 'user-123' })).toMatchObject({ verbosity: 'low', safety_identifier: 'user-123' });
      const res = await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: false, verbosity: 'low', safety_identifier: 'u' });
      expect(res.status).toBe(200);
      const toChatModel = h.upstream.requests.at(-1)!.body as Record<string, unknown>;
      expect(toChatModel.verbosity).toBeUndefined();
      expect(toChatModel.safety_identifier).toBe('u');
    });

    it('what is not supported is named: an input_audio part, a custom tool, allowed_tools naming an undefined tool', async () => {
      const cases: [unknown, RegExp][] = [
        [{ messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }] }, /^messages\.0\.content: 0\.type: Unsupported content part "input_audio": use/],
        [{ messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'custom', custom: { name: 'apply_patch' } }] }, /tools\.0\.type: only function tools are supported here .*\/api\/v1\/responses/],
        [{ messages: [{ role: 'user', content: 'x' }], tools: [weather], tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'nope' } }] } } }, /allowed_tools names "nope", which tools does not define/],
        [{ messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'mystery' } }, /^tool_choice: tool_choice must be "none", "auto", "required"/],
      ];
      for (const [body, message] of cases) {
        const res = await post({ model: 'openai/gpt-4o-mini', stream: false, ...(body as object) });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await res.json()).error.message).toMatch(message);
      }
    });
  });
});
