// The routing table changes without a restart and without dropping requests: SWITCHBOARD_CONFIG rewritten
// while a stream is in flight (the stream finishes on the endpoint it started with, the next request uses the
// new file), a broken file refused with the previous configuration kept, and an operator's entry written on
// one instance reaching another instance (sharing the database) within 5 seconds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { env } from '@/server/env';
import { modelConfigSchema } from './config-schema';
import { RoutingState } from './routing-state';
import { putAdminModel } from './routing-store';
import type { RoutingTable } from './routing-table';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

/** Resolves once `read()` returns something other than `before` (the table is swapped, never edited). */
async function changed(read: () => RoutingTable, before: RoutingTable, timeoutMs = 5_000): Promise<number> {
  const started = Date.now();
  while (read() === before) {
    if (Date.now() - started > timeoutMs) throw new Error(`the routing table did not change within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

const yaml = (provider: string) => `
providers:
  - id: first
    type: openai-compatible
    base_url: URL_FIRST/v1
    keys: [{ key: sk-first }]
  - id: second
    type: openai-compatible
    base_url: URL_SECOND/v1
    keys: [{ key: sk-second }]
models:
  - id: test/reloaded
    name: Reloaded
    context_length: 10000
    max_output_tokens: 1000
    endpoints:
      - provider: ${provider}
        upstream_model: gpt-4o-mini
        pricing: { input: 1, output: 1 }
`;

describeEachDatabase('routing: reloads', () => {
  let dir: string;
  let file: string;
  let h: GatewayHarness;
  let first: FakeUpstream;
  let second: FakeUpstream;
  let key: string;
  const write = (provider: string) => writeFileSync(file, yaml(provider).replace('URL_FIRST', first.url).replace('URL_SECOND', second.url));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-routing-'));
    file = path.join(dir, 'switchboard.yaml');
    const stream = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), delayMs: 60 });
    first = await startFakeUpstream(stream);
    second = await startFakeUpstream(stream);
    write('first');
    h = await startGatewayHarness({ routing: { configFile: file } });
    key = (await fundedUser(10)).key;
  });
  afterAll(async () => {
    await h?.close();
    await first?.close();
    await second?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stream = () =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'test/reloaded', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('a rewrite while a stream is in flight: the stream finishes where it started, the next request follows the file', async () => {
    const before = h.runtime.routing.table();
    const inFlight = await stream();
    expect(inFlight.status).toBe(200);
    write('second');
    await changed(() => h.runtime.routing.table(), before);
    const done = await readSse(inFlight);
    expect(done.done).toBe(true);
    const chunks = done.chunks as { provider?: string; choices?: { finish_reason?: string }[] }[];
    expect(chunks.every((c) => c.provider === 'first')).toBe(true);
    expect(chunks.at(-1)?.choices?.[0]?.finish_reason).toBe('stop');
    expect(first.requests).toHaveLength(1);

    const next = await readSse(await stream());
    expect((next.chunks[0] as { provider: string }).provider).toBe('second');
    expect(second.requests).toHaveLength(1);
  });

  it('a broken file is refused with its line and field; the previous configuration stays', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const before = h.runtime.routing.table();
      writeFileSync(file, yaml('second').replace('pricing: { input: 1, output: 1 }', 'pricing: { input: -1, output: 1 }'));
      await vi.waitFor(() => expect(errors).toHaveBeenCalled(), { timeout: 5_000 });
      const message = errors.mock.calls.map((c) => String(c[0])).join('\n');
      expect(message).toMatch(/switchboard\.yaml:\d+:\d+: models\[0\]\.endpoints\[0\]\.pricing\.input/);
      expect(message).toMatch(/previous routing configuration stays in force/);
      expect(h.runtime.routing.table()).toBe(before);
      expect((await stream()).status).toBe(200);
    } finally {
      errors.mockRestore();
    }
  });

  it("an operator's entry reaches another instance sharing the database within 5 s", async () => {
    const other = new RoutingState({ env: env(), configFile: null });
    try {
      await other.ready;
      const before = other.table();
      expect(before.models.get('ops/new')).toBeUndefined();
      const model = modelConfigSchema.parse({ id: 'ops/new', name: 'New', context_length: 1000, max_output_tokens: 100, endpoints: [{ provider: 'echo', upstream_model: 'echo', pricing: { input: 0, output: 0 } }] });
      await putAdminModel(model);
      const waited = await changed(() => other.table(), before);
      expect(waited).toBeLessThan(5_000);
      expect(other.table().models.get('ops/new')?.source).toBe('admin');
    } finally {
      other.close();
    }
  });
});
