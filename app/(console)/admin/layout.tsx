// The operators' pages: anyone else gets the 404 page (the instance's administration is not advertised to
// its users). The procedures behind the pages check the operator again (server/trpc/init.ts operatorProcedure).
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { requireUser } from '@/app/(auth)/require-user';
import { isOperatorUser } from '@/server/auth/operator';
import { safeCallbackUrl } from '@/server/auth/callback-url';
import { CONSOLE_PATH_HEADER } from '@/server/console/console-path';

export const dynamic = 'force-dynamic';

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await requireUser(safeCallbackUrl((await headers()).get(CONSOLE_PATH_HEADER), '/admin/users'));
  if (!(await isOperatorUser(user.id))) notFound();
  return children;
}
