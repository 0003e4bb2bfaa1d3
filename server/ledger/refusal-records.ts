// Records of requests refused at admission (402 credit or limits, 429, 403, 400/404, 503 before any provider
// was called). They have no reservation and no charge: they never touch a balance, a spend window or the
// ledger, and the usage aggregates leave them out (usage/usage-where.ts). The settlement queue writes them
// with its batches (settlement-queue.ts), so recording a refusal costs the chat path no database round trip.
// Unlike settlements they are not journaled: a crash may lose the last few, which only an activity log reads.
import { db } from '@/server/db';

export interface RefusalRecord {
  id: string;
  accountId: string;
  userId: string | null;
  apiKeyId: string | null;
  authTokenId: string | null;
  /** The model asked for (its id when it resolved), '' when the body had none. */
  model: string;
  provider: string;
  streamed: boolean;
  httpStatus: number;
  errorCode: string;
  errorMessage: string;
  latencyMs: number;
  httpReferer: string | null;
  xTitle: string | null;
  taskId: string | null;
  requestId: string;
  createdAt: Date;
}

/** A refusal is given up after this many failed writes (it is not money; the log says so). */
export const REFUSAL_WRITE_ATTEMPTS = 3;

const clip = (s: string | null, n: number) => (s == null ? null : s.slice(0, n));

function toRow(r: RefusalRecord) {
  return {
    ...r,
    model: r.model.slice(0, 200),
    provider: r.provider.slice(0, 100),
    status: 'REFUSED' as const,
    errorCode: r.errorCode.slice(0, 100),
    errorMessage: r.errorMessage.slice(0, 1000),
    httpReferer: clip(r.httpReferer, 500),
    xTitle: clip(r.xTitle, 200),
    taskId: clip(r.taskId, 200),
    requestId: r.requestId.slice(0, 100),
  };
}

/**
 * Writes refusal records in one statement; if it fails (a user or key deleted meanwhile), one by one
 * without their references to a user, key or token. Returns those that still failed.
 */
export async function writeRefusalRecords(items: RefusalRecord[]): Promise<RefusalRecord[]> {
  const prisma = await db();
  try {
    await prisma.usageRecord.createMany({ data: items.map(toRow), skipDuplicates: true });
    return [];
  } catch {
    const failed: RefusalRecord[] = [];
    for (const r of items) {
      try {
        await prisma.usageRecord.createMany({ data: [{ ...toRow(r), userId: null, apiKeyId: null, authTokenId: null }], skipDuplicates: true });
      } catch {
        failed.push(r);
      }
    }
    return failed;
  }
}
