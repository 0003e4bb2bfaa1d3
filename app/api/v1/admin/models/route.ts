import { z } from 'zod';
import { adminRoute } from '@/server/http/admin-route';
import { parseBody } from '@/server/http/api-route';
import { createAdminModel, listAdminModels } from '@/server/routing/admin-models';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

/** Every model of the compiled table with its source, then operators' entries the table left out. */
export const GET = adminRoute(async () => listAdminModels((await runtimeRouting()).routing));

export const POST = adminRoute(
  async ({ request }) => createAdminModel((await runtimeRouting()).routing, await parseBody(request, z.unknown())),
  { status: 201 },
);
