import { z } from 'zod';
import { adminRoute } from '@/server/http/admin-route';
import { parseBody } from '@/server/http/api-route';
import { createAdminProvider, listAdminProviders } from '@/server/routing/admin-providers';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

/** Every provider of the compiled table with its source and key health; keys are never returned. */
export const GET = adminRoute(async () => {
  const { routing, health } = await runtimeRouting();
  return listAdminProviders(routing, health);
});

export const POST = adminRoute(
  async ({ request }) => {
    const { routing, health } = await runtimeRouting();
    return createAdminProvider(routing, await parseBody(request, z.unknown()), health);
  },
  { status: 201 },
);
