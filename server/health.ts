import { database } from '@/server/db';

export async function checkHealth() {
  const started = performance.now();
  try {
    const d = await database();
    await d.sql.query('SELECT 1');
    return { status: 'ok' as const, database: { kind: d.kind, ok: true, latency_ms: Math.round((performance.now() - started) * 10) / 10 } };
  } catch (err) {
    return { status: 'degraded' as const, database: { ok: false, error: (err as Error).message.slice(0, 200) } };
  }
}
