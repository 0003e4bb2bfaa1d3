import { signUp, signUpInput } from '@/server/auth/sign-up';
import { clientIp } from '@/server/auth/sign-in-throttle';
import { apiRoute, parseBody } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(
  async ({ request }) => {
    const input = await parseBody(request, signUpInput);
    return { user: await signUp({ input, ip: clientIp(request.headers) }) };
  },
  { public: true, status: 201 },
);
