import { z } from 'zod';
import { adminRoute, entryIdFromPath } from '@/server/http/admin-route';
import { json, parseBody } from '@/server/http/api-route';
import { deleteAdminModelEntry, getAdminModelOrThrow, replaceAdminModel } from '@/server/routing/admin-models';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

type Params = { id: string[] };

export const GET = adminRoute<Params>(async ({ params }) => ({ data: await getAdminModelOrThrow((await runtimeRouting()).routing, entryIdFromPath(params.id)) }));

/** Creates (201) or replaces (200) the operator's entry with this id. */
export const PUT = adminRoute<Params>(async ({ request, params }) => {
  const { created, ...out } = await replaceAdminModel((await runtimeRouting()).routing, entryIdFromPath(params.id), await parseBody(request, z.unknown()));
  return json(out, created ? 201 : 200);
});

export const DELETE = adminRoute<Params>(async ({ params }) => deleteAdminModelEntry((await runtimeRouting()).routing, entryIdFromPath(params.id)));
