// The chat path resolves models through the catalog copy its runtime owns (catalog/resolve-model.ts): a warm
// runtime answers from memory without reading the catalog again, and a new runtime starts from the database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase("the runtime's model catalog", () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
    h.respond = replay('openai', 'text');
  });
  afterAll(() => h?.close());

  it('a warm runtime keeps its copy (no catalog read per request); a renewed one reads the change', async () => {
    const u = await fundedUser(1);
    const post = () =>
      fetch(`${h.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${u.key}` },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await post()).status).toBe(200); // the runtime's copy is loaded
    const prisma = await db();
    await prisma.catalogModel.update({ where: { id: 'openai/gpt-4o-mini' }, data: { enabled: false } });
    try {
      expect((await post()).status).toBe(200); // answered from the copy: the database was not asked
      await h.renewRuntime();
      const refused = await post();
      expect(refused.status).toBe(404);
      expect((await refused.json()).error).toMatchObject({ code: 404, metadata: { model: 'openai/gpt-4o-mini' } });
    } finally {
      await prisma.catalogModel.update({ where: { id: 'openai/gpt-4o-mini' }, data: { enabled: true } });
      await h.renewRuntime();
    }
  });
});
