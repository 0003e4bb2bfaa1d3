// The credit history of an account as people read a bank statement: purchases, grants, promotions, plan
// credit, refunds, disputes, expiries and adjustments one line each, usage one line per UTC day (with how
// many charged requests it holds), newest first, each with the balance right after it.
//
// Running balance: the ledger is the only writer of balances (post-ledger-entry.ts) and every entry holds
// its signed amount, so the balance after a line is the sum of every amount up to it. A day's usage line
// is placed at the time of that day's last charge; a purchase made in the middle of a day therefore shows
// the balance without that day's later usage, and each line's balance is the previous one plus its amount.
// Computed by the database in one statement (GROUP BY for the days, a window sum for the balances).
import { z } from 'zod';
import { db, Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { isoInstant, safeString } from '@/server/validation/fields';
import { microsToUsd } from './money';

export const CREDIT_HISTORY_PAGE_MAX = 200;

export const creditHistoryQuery = z.object({
  from: isoInstant().optional().describe('Only lines at or after this time (inclusive); balances still count everything before'),
  to: isoInstant().optional().describe('Only lines before this time (exclusive)'),
  limit: z.coerce.number().int().min(1).max(CREDIT_HISTORY_PAGE_MAX).default(50).describe(`Page size, 1–${CREDIT_HISTORY_PAGE_MAX} (default 50)`),
  cursor: safeString().max(200).optional().describe('next_cursor of the previous page'),
});
export type CreditHistoryQuery = z.infer<typeof creditHistoryQuery>;

export const CREDIT_KINDS = ['purchase', 'promotion', 'plan_credit', 'usage', 'refund', 'dispute', 'dispute_reversal', 'promotion_expiry', 'adjustment'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

const LABELS: Record<CreditKind, string> = {
  purchase: 'Credit purchase',
  promotion: 'Promotional credit',
  plan_credit: 'Plan credit',
  usage: 'Usage',
  refund: 'Refund',
  dispute: 'Payment disputed',
  dispute_reversal: 'Dispute resolved: credit restored',
  promotion_expiry: 'Promotional credit expired',
  adjustment: 'Credit adjustment',
};

export interface CreditHistoryLine {
  id: string;
  at: string;
  kind: CreditKind;
  /** In words: "Credit purchase", "Usage: 42 requests"… */
  label: string;
  note: string | null;
  /** UTC day (YYYY-MM-DD) of a usage line. */
  day: string | null;
  /** Charged requests in a usage line; 1 for the other lines. */
  entries: number;
  amount: number;
  amount_micros: string;
  balance: number;
  balance_micros: string;
  payment_id: string | null;
}

export interface CreditHistoryPage {
  data: CreditHistoryLine[];
  next_cursor: string | null;
}

interface Row {
  id: string;
  kind: string;
  at: Date;
  amount: bigint;
  entries: number;
  note: string | null;
  payment_id: string | null;
  balance: bigint;
}

const encodeCursor = (at: Date, id: string) => Buffer.from(`${at.getTime()}:${id}`, 'utf8').toString('base64url');

function decodeCursor(s: string): { at: Date; id: string } {
  const m = /^(\d{1,15}):([^\u0000]{1,150})$/.exec(Buffer.from(s, 'base64url').toString('utf8'));
  if (!m) throw new AppError('bad_request', 'cursor: not a cursor returned by this endpoint');
  return { at: new Date(Number(m[1])), id: m[2]! };
}

/** `query` as creditHistoryQuery parsed it (the edges parse: REST's parseQuery, tRPC's input). */
export async function getCreditHistory(p: { accountId: string; query: CreditHistoryQuery }): Promise<CreditHistoryPage> {
  const q = p.query;
  if (q.from && q.to && q.from.getTime() >= q.to.getTime()) throw new AppError('bad_request', 'from must be before to');
  const cursor = q.cursor ? decodeCursor(q.cursor) : null;
  const filters: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (q.from) filters.push(Prisma.sql`at >= ${q.from}`);
  if (q.to) filters.push(Prisma.sql`at < ${q.to}`);
  if (cursor) filters.push(Prisma.sql`(at, id) < (${cursor.at}::timestamp, ${cursor.id})`);
  const prisma = await db();
  const rows = await prisma.$queryRaw<Row[]>`
    WITH lines AS (
      SELECT id, lower(kind::text) AS kind, "createdAt" AS at, "amountMicros" AS amount, 1 AS entries, note, "paymentId" AS payment_id
      FROM "LedgerEntry" WHERE "accountId" = ${p.accountId} AND kind <> 'USAGE'::"LedgerKind"
      UNION ALL
      SELECT 'usage-' || to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD'), 'usage', max("createdAt"), sum("amountMicros")::bigint, count(*)::int, NULL, NULL
      FROM "LedgerEntry" WHERE "accountId" = ${p.accountId} AND kind = 'USAGE'::"LedgerKind"
      GROUP BY date_trunc('day', "createdAt")
    ), running AS (
      SELECT *, sum(amount) OVER (ORDER BY at, id ROWS UNBOUNDED PRECEDING)::bigint AS balance FROM lines
    )
    SELECT * FROM running WHERE ${Prisma.join(filters, ' AND ')}
    ORDER BY at DESC, id DESC
    LIMIT ${q.limit + 1}`;
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { data: page.map(toLine), next_cursor: rows.length > q.limit && last ? encodeCursor(last.at, last.id) : null };
}

function toLine(r: Row): CreditHistoryLine {
  const kind = r.kind as CreditKind;
  const usage = kind === 'usage';
  return {
    id: r.id,
    at: r.at.toISOString(),
    kind,
    label: usage ? `Usage: ${r.entries} charged request${r.entries === 1 ? '' : 's'}` : (LABELS[kind] ?? kind),
    note: r.note,
    day: usage ? r.id.slice('usage-'.length) : null,
    entries: Number(r.entries),
    amount: microsToUsd(r.amount),
    amount_micros: r.amount.toString(),
    balance: microsToUsd(r.balance),
    balance_micros: r.balance.toString(),
    payment_id: r.payment_id,
  };
}
