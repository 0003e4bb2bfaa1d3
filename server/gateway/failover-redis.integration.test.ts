// Two instances sharing Redis (REDIS_URL): a 429 seen by one cools the key on the other, so the other sends
// it no request while it cools. Each instance is a real runtime behind its own HTTP server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { handleChatNode } from '@/server/gateway/node-handler';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { createRuntime, type Runtime } from '@/server/runtime/runtime';
import { describeEachDatabase } from '@/test/db';
import { readFixture, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { describeWithRedis } from '@/test/redis';

describeWithRedis('routing: key health shared by two instances', (redisUrl) => {
  describeEachDatabase('through Redis', () => {
    let upstream: FakeUpstream;
    let a: GatewayHarness;
    let b: Runtime;
    let bServer: http.Server;
    let bUrl: string;
    let key: string;
    const prefix = `test:key-health:${randomUUID()}`;

    beforeAll(async () => {
      upstream = await startFakeUpstream((req) =>
        req.headers.authorization === 'Bearer sk-one'
          ? { status: 429, json: { error: { message: 'quota' } }, headers: { 'retry-after': '60' } }
          : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) },
      );
      const config: RoutingFileInput = {
        providers: [{ id: 'shared', type: 'openai-compatible', base_url: `${upstream.url}/v1`, keys: [{ key: 'sk-one', id: 'one' }, { key: 'sk-two', id: 'two' }] }],
        models: [{ id: 'test/shared', name: 'Shared', context_length: 10_000, max_output_tokens: 100, endpoints: [{ provider: 'shared', upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 1 } }] }],
      };
      const options = { routing: { config, database: false }, redisUrl, healthRedisPrefix: prefix };
      a = await startGatewayHarness(options);
      b = createRuntime({ ...options, rateLimitRpm: 100_000 });
      bServer = http.createServer((req, res) => void handleChatNode(b, req, res));
      await new Promise<void>((r) => bServer.listen(0, '127.0.0.1', r));
      bUrl = `http://127.0.0.1:${(bServer.address() as AddressInfo).port}/api/v1`;
      key = (await fundedUser(10)).key;
    });
    afterAll(async () => {
      bServer?.closeAllConnections();
      await new Promise((r) => bServer?.close(r));
      await b?.close();
      await a?.close();
      await upstream?.close();
    });

    const post = (base: string) =>
      fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'test/shared', stream: false, messages: [{ role: 'user', content: 'hi' }] }),
      });

    it('a cooldown learnt by instance A keeps instance B off the key', async () => {
      // A: requests until key one has been tried (weighted random) and answered 429.
      for (let i = 0; i < 30 && !upstream.requests.some((r) => r.headers.authorization === 'Bearer sk-one'); i++) expect((await post(a.baseUrl)).status).toBe(200);
      expect(upstream.requests.some((r) => r.headers.authorization === 'Bearer sk-one')).toBe(true);
      await vi.waitFor(() => expect(b.health.isUsable('shared/one')).toBe(false), { timeout: 5_000, interval: 20 });
      const before = upstream.requests.length;
      for (let i = 0; i < 20; i++) expect((await post(bUrl)).status).toBe(200);
      const toB = upstream.requests.slice(before);
      expect(toB).toHaveLength(20);
      expect(toB.every((r) => r.headers.authorization === 'Bearer sk-two')).toBe(true);
    });
  });
});
