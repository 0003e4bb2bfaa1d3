// The signed-in browser user for pages and server actions. The session cookie only carries an id; the user
// is read from the database each time, so a deleted user is signed out at once.
import { db } from '@/server/db';
import { hasAcceptedCurrentTerms } from '@/server/users/terms';
import { auth } from './next-auth';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  /** false until the current terms version is accepted */
  acceptedTerms: boolean;
}

export async function currentUser(): Promise<SessionUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id }, select: { id: true, email: true, name: true, image: true, termsVersion: true } });
  if (!user) return null;
  return { id: user.id, email: user.email, name: user.name, image: user.image, acceptedTerms: hasAcceptedCurrentTerms(user.termsVersion) };
}
