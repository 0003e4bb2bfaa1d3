// Records of requests refused at admission (402 credit or limits, 429, 403, 400/404, 503 before any provider
// was called). They have no reservation and no charge: they never touch a balance, a spend window or the
// ledger, and the usage aggregates leave them out (usage/usage-where.ts). The settlement queue writes them
// with its batches (settlement-queue.ts), so recording a refusal costs the chat path no database round trip.
// Unlike settlements they are not journaled: a crash may lose the last few, which only an activity log reads.
import { db } from '@/server/db';
import { storableText, storableTextOrNull } from './storable-text';

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

/**
 * The row as written: every text value made storable (storable-text.ts) and bounded. The model, the headers
 * and our error message quoting the body are the client's text: a NUL in any of them made PostgreSQL refuse
 * the row, so the refusal was retried and given up, lost from the activity log.
 */
function toRow(r: RefusalRecord) {
  return {
    ...r,
    model: storableText(r.model, 200),
    provider: storableText(r.provider, 100),
    status: 'REFUSED' as const,
    errorCode: storableText(r.errorCode, 100),
    errorMessage: storableText(r.errorMessage, 1000),
    httpReferer: storableTextOrNull(r.httpReferer, 500),
    xTitle: storableTextOrNull(r.xTitle, 200),
    taskId: storableTextOrNull(r.taskId, 200),
    requestId: storableText(r.requestId, 100),
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
