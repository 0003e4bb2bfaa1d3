// Next calls register() once when a server starts. Under `next dev`, or `next start` without our production
// server, this is what puts the model catalog and the plans into the database; the production server
// (server/main.ts) has seeded before Next starts, and ensureSeeded runs once per process.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ensureSeeded } = await import('@/server/seed');
  try {
    await ensureSeeded();
  } catch (err) {
    // The server still starts: /api/health reports the database problem, and requests fail with its error.
    console.error(`Switchboard: could not seed the model catalog: ${(err as Error).message}`);
  }
}
