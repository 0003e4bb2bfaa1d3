// Prisma 7 reads paths and connection URLs from here, not from schema.prisma, and loads no .env by itself.
//
// DATABASE_URL is optional: unset means the app uses embedded PGlite and `prisma generate` needs no URL.
// Prisma's `env('DATABASE_URL')` helper throws when the variable is missing, so read process.env instead
// and leave the datasource out entirely without it.
//
// Offline note: `prisma migrate …` cannot run on these machines (the CLI must download a native engine).
// Author migrations with `npm run db:migration -- <name>`; the app applies them at start (server/db/migrate.ts).
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL?.trim();

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(url ? { datasource: { url } } : {}),
});
