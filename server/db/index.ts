// The database layer. Only services (server/<domain>) import this; app/** and server/trpc/** may not
// (eslint no-restricted-imports).
export { database, db, openDatabase, setDatabase, closeDatabase, type Database, type Db } from './client';
export { Prisma } from './generated/client';
export * as enums from './generated/enums';
