// The admission statement's connections (QueryOptions.asyncCommit): on PostgreSQL their commits do not wait
// for the WAL flush; every other statement's do. Embedded PGlite ignores the option.
import { expect, it } from 'vitest';
import { database } from '@/server/db';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('async-commit connections', (kind) => {
  it(kind === 'postgres' ? 'asyncCommit statements run with synchronous_commit off, the others with it on' : 'asyncCommit is accepted and changes nothing', async () => {
    const { sql } = await database();
    const show = async (asyncCommit: boolean) =>
      (await sql.query<{ synchronous_commit: string }>('SHOW synchronous_commit', [], { asyncCommit })).rows[0].synchronous_commit;
    // Several at once: each pool hands out several connections, and every one of them must agree.
    const [asyncRuns, syncRuns] = await Promise.all([Promise.all([1, 2, 3, 4].map(() => show(true))), Promise.all([1, 2, 3, 4].map(() => show(false)))]);
    expect(syncRuns).toEqual(['on', 'on', 'on', 'on']);
    expect(asyncRuns).toEqual(kind === 'postgres' ? ['off', 'off', 'off', 'off'] : ['on', 'on', 'on', 'on']);
  });
});
