'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { safeCallbackUrl, withCallback } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { clientIp } from '@/server/auth/sign-in-throttle';
import { acceptTerms } from '@/server/users/accept-terms';

export async function acceptTermsAction(form: FormData): Promise<void> {
  const callbackUrl = safeCallbackUrl(form.get('callbackUrl'));
  const user = await currentUser();
  if (!user) redirect(withCallback('/sign-in', withCallback('/terms', callbackUrl)));
  const h = await headers();
  await acceptTerms({ userId: user.id, input: { version: String(form.get('version') ?? '') }, ip: clientIp(h), userAgent: h.get('user-agent') ?? undefined });
  redirect(callbackUrl);
}
