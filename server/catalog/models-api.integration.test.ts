// GET /api/v1/models and GET /api/v1/models/{author}/{slug} through HTTP, with the official OpenAI SDK as
// the client: models.list() and models.retrieve("author/slug") (which sends the id as ONE percent-encoded
// segment, /models/author%2Fslug) answer the same model objects.
import OpenAI, { NotFoundError } from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { modelSchema } from './models.openapi';
import { describeEachDatabase } from '@/test/db';

const DECIMAL = /^\d+(\.\d+)?$/;

describeEachDatabase('models API', () => {
  let api: ApiServer;
  let client: OpenAI;
  beforeAll(async () => {
    api = await startApiServer();
    client = new OpenAI({ apiKey: 'unused: the model list is public', baseURL: `${api.origin}/api/v1`, maxRetries: 0 });
  });
  afterAll(() => api.close());

  it('retrieves one model in the shape of an item of the list, by either path form', async () => {
    const list = (await (await fetch(`${api.origin}/api/v1/models`)).json()) as { data: { id: string }[] };
    const echo = list.data.find((m) => m.id === 'switchboard/echo');
    expect(echo).toBeDefined();
    expect(await client.models.retrieve('switchboard/echo')).toEqual(echo);
    const byTwoSegments = await fetch(`${api.origin}/api/v1/models/switchboard/echo`);
    expect(byTwoSegments.status).toBe(200);
    expect(await byTwoSegments.json()).toEqual(echo);
    // The documented schema is exactly what is served: no undocumented field (strict), none missing.
    for (const m of list.data) expect(() => modelSchema.strict().parse(m), m.id).not.toThrow();
    const listed = [];
    for await (const m of client.models.list()) listed.push(m.id);
    expect(listed).toEqual(list.data.map((m) => m.id));
  });

  it('retrieves a model by an alias the gateway takes (claude-sonnet-4-5): the model under its own id', async () => {
    const list = (await (await fetch(`${api.origin}/api/v1/models`)).json()) as { data: { id: string; aliases: string[] }[] };
    const sonnet = list.data.find((m) => m.aliases.includes('claude-sonnet-4-5'));
    expect(sonnet?.id).toBe('anthropic/claude-sonnet-4.5');
    expect(await client.models.retrieve('claude-sonnet-4-5')).toEqual(sonnet);
  });

  it('answers 404 with the error body for a model it does not list', async () => {
    await expect(client.models.retrieve('acme/missing')).rejects.toBeInstanceOf(NotFoundError);
    const res = await fetch(`${api.origin}/api/v1/models/acme/missing`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: unknown; message: string; metadata: Record<string, unknown> } };
    expect(body.error).toMatchObject({ code: 404, message: expect.stringContaining('acme/missing'), metadata: { model: 'acme/missing' } });
  });

  it('writes every price as a plain decimal string, also those below a millionth of a dollar', async () => {
    const { data } = (await (await fetch(`${api.origin}/api/v1/models`)).json()) as { data: { id: string; pricing: Record<string, string> }[] };
    const prices = data.flatMap((m) => Object.values(m.pricing));
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.filter((p) => !DECIMAL.test(p))).toEqual([]);
    // Floats print these as 1e-7 and 1.0000000000000001e-7; the catalog has such prices.
    expect(prices.some((p) => p !== '0' && Number(p) < 1e-6)).toBe(true);
  });
});
