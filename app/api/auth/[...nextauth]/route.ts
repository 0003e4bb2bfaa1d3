// next-auth's HTTP endpoints: OAuth callbacks (/api/auth/callback/github, /google), sign-in and sign-out
// posts, the CSRF token and the session. The console's forms start sign-in through server actions
// (app/(auth)/actions.ts); the providers send the browser back here.
import { handlers } from '@/server/auth/next-auth';

export const dynamic = 'force-dynamic';

export const { GET, POST } = handlers;
