// Who sees an organization's stored responses: the user who made one, and members whose role may read everyone's
// usage (usage:read-all: owner, admin, billing), as for GET /generation. A plain member gets, for another member's
// response, the same 404 as for a missing one on GET, GET …/input_items, DELETE and previous_response_id (its existence
// is not told). Through HTTP: POST /responses on the gateway over node:http, GET/DELETE /responses/{id} and GET
// /responses/{id}/input_items through their route handlers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET as LIST_INPUT_ITEMS } from '@/app/api/v1/responses/[id]/input_items/route';
import { DELETE, GET } from '@/app/api/v1/responses/[id]/route';
import { describeEachDatabase } from '@/test/db';
import { readFixture } from '@/test/fake-upstream';
import { createTestKey, createTestOrganization, createTestUser } from '@/test/factories';
import { startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';

const answering = (text: string): Responder => (req) => {
  if (!req.path.endsWith('/responses')) return { status: 404, json: { error: { message: `unexpected path ${req.path}` } } };
  const body = JSON.parse(readFixture('openai', 'responses_text.json'));
  body.output[0].content[0].text = text;
  return { status: 200, json: body };
};

describeEachDatabase('stored responses within an organization', () => {
  let h: GatewayHarness;
  let ownerKey: string;
  let adminKey: string;
  let memberKey: string;

  const create = (key: string, body: Record<string, unknown>) =>
    fetch(`${h.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/gpt-6.2-sol', stream: false, ...body }) });
  const call = (handler: typeof GET, method: string, key: string, id: string) =>
    handler(new Request(`${h.baseUrl}/responses/${id}`, { method, headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ id }) });
  const inputItems = (key: string, id: string) =>
    LIST_INPUT_ITEMS(new Request(`${h.baseUrl}/responses/${id}/input_items`, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ id }) });
  const ownerResponse = async (): Promise<string> => {
    const res = await create(ownerKey, { input: 'TOPSECRET' });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    h.respond = answering('TOPSECRET answer');
    const [owner, admin, member] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
    const org = await createTestOrganization({ members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: admin.user.id, role: 'ADMIN' }, { userId: member.user.id, role: 'MEMBER' }], usd: 10 });
    ownerKey = (await createTestKey(owner.user.id, org.id)).key;
    adminKey = (await createTestKey(admin.user.id, org.id)).key;
    memberKey = (await createTestKey(member.user.id, org.id)).key;
  });
  afterAll(() => h?.close());

  it("a plain member gets 404 for the owner's response on GET, input_items, previous_response_id and DELETE, as for a missing id", async () => {
    const id = await ownerResponse();
    const got = await call(GET, 'GET', memberKey, id);
    expect(got.status).toBe(404);
    expect(JSON.stringify(await got.json())).not.toContain('TOPSECRET');
    const missing = await call(GET, 'GET', memberKey, 'resp_doesnotexist');
    expect(missing.status).toBe(404);
    const items = await inputItems(memberKey, id);
    expect(items.status).toBe(404);
    const itemsBody = JSON.stringify(await items.json());
    expect(itemsBody).not.toContain('TOPSECRET');
    expect(itemsBody).toBe(JSON.stringify(await (await inputItems(memberKey, 'resp_doesnotexist')).json()).replace('resp_doesnotexist', id));

    const next = await create(memberKey, { input: 'go on', previous_response_id: id });
    expect(next.status).toBe(404);
    expect(((await next.json()) as any).error.param).toBe('previous_response_id');

    expect((await call(DELETE, 'DELETE', memberKey, id)).status).toBe(404);
    // Still there for its owner.
    const own = await call(GET, 'GET', ownerKey, id);
    expect(own.status).toBe(200);
    expect(((await own.json()) as any).id).toBe(id);
  });

  it('the member sees, continues and deletes their own response', async () => {
    const res = await create(memberKey, { input: 'mine' });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { id: string }).id;
    expect((await call(GET, 'GET', memberKey, id)).status).toBe(200);
    expect((await inputItems(memberKey, id)).status).toBe(200);
    expect((await create(memberKey, { input: 'go on', previous_response_id: id })).status).toBe(200);
    expect((await call(DELETE, 'DELETE', memberKey, id)).status).toBe(200);
  });

  it("the owner continues and deletes their own; an admin (usage:read-all) sees, continues and deletes the owner's", async () => {
    const id = await ownerResponse();
    expect((await create(ownerKey, { input: 'go on', previous_response_id: id })).status).toBe(200);
    const got = await call(GET, 'GET', adminKey, id);
    expect(got.status).toBe(200);
    expect(JSON.stringify(await got.json())).toContain('TOPSECRET');
    const items = await inputItems(adminKey, id);
    expect(items.status).toBe(200);
    expect(((await items.json()) as any).data).toMatchObject([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'TOPSECRET' }] }]);
    expect((await create(adminKey, { input: 'go on', previous_response_id: id })).status).toBe(200);
    expect((await call(DELETE, 'DELETE', adminKey, id)).status).toBe(200);

    const second = await ownerResponse();
    expect((await call(DELETE, 'DELETE', ownerKey, second)).status).toBe(200);
    expect((await call(GET, 'GET', ownerKey, second)).status).toBe(404);
  });
});
