import { z } from 'zod';
import { adminRoute } from '@/server/http/admin-route';
import { json, parseBody } from '@/server/http/api-route';
import { deleteAdminProviderEntry, getAdminProviderOrThrow, replaceAdminProvider } from '@/server/routing/admin-providers';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const GET = adminRoute<Params>(async ({ params }) => {
  const { routing, health } = await runtimeRouting();
  return { data: await getAdminProviderOrThrow(routing, params.id, health) };
});

/** Creates (201) or replaces (200) the operator's entry; a key sent as { id, stored: true } keeps its secret. */
export const PUT = adminRoute<Params>(async ({ request, params }) => {
  const { routing, health } = await runtimeRouting();
  const { created, ...out } = await replaceAdminProvider(routing, params.id, await parseBody(request, z.unknown()), health);
  return json(out, created ? 201 : 200);
});

export const DELETE = adminRoute<Params>(async ({ params }) => {
  const { routing, health } = await runtimeRouting();
  return deleteAdminProviderEntry(routing, params.id, health);
});
