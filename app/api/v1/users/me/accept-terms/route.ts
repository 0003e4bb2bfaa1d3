import { clientIp } from '@/server/auth/sign-in-throttle';
import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { acceptTerms, acceptTermsInput } from '@/server/users/accept-terms';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(async ({ request, principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  const input = await parseBody(request, acceptTermsInput);
  return acceptTerms({ userId, input, ip: clientIp(request.headers), userAgent: request.headers.get('user-agent') ?? undefined });
});
