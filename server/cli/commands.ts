// CLI commands. Each parses its options with zod and calls one service; it returns plain JSON-able data
// and a human line. The same definitions run in the CLI process (PostgreSQL, or the embedded database
// when no server holds it) and inside the running server (embedded database held by the server); those
// marked inServer read the server's memory and always run there.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { AppError, badRequestFromZod } from '@/server/errors';
import { getBalanceOrThrow, grantCredits } from '@/server/ledger/balance';
import { formatUsd, usdToMicros } from '@/server/ledger/money';
import { createPromotion, normalizePromotionCode } from '@/server/promotions/create-promotion';
import { grantPromotion } from '@/server/promotions/grant-promotion';
import { seed } from '@/server/seed';
import { env } from '@/server/env';
import { formatKeyHealthReport, reportKeyHealth, reportStoredHealth } from '@/server/routing/key-health-report';
import { readStoredHealth } from '@/server/routing/redis-health-sync';
import { getUnbilledUsage } from '@/server/usage/get-unbilled-usage';
import { createUser, findUserByEmailOrThrow } from '@/server/users/create-user';
import { setOperator } from '@/server/auth/operator';
import { cliActor } from '@/server/audit/audit-actors';
import { withAuditActor, type AuditActor } from '@/server/audit/audit-context';
import { CATALOG_COMMANDS } from './catalog-commands';
import { randomUUID } from 'node:crypto';

export interface CommandResult {
  data: Record<string, unknown>;
  text: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; description: string }>;
  /** Needs no database (runs locally whatever the mode). */
  local?: boolean;
  /**
   * Reads the running server's memory rather than the database: the CLI sends it to the server whatever the
   * database mode, and calls `withoutServer` when no server runs here (`run` would read the CLI's own memory).
   */
  inServer?: { withoutServer(args: Record<string, unknown>): Promise<CommandResult> };
  /** One positional argument (`catalog:import FILE`), passed as the option of this name. */
  positional?: { name: string; description: string };
  /** Runs where the CLI runs, before the command is handed to the server (e.g. reads a file named by a relative path). */
  prepare?(args: Record<string, unknown>): Record<string, unknown>;
  run(args: Record<string, unknown>): Promise<CommandResult>;
}

const amountSchema = safeString({ error: '--amount is required (USD, e.g. 10 or 2.50)' })
  .regex(/^\d+(\.\d{1,6})?$/, '--amount must be a positive USD amount with at most 6 decimals, e.g. 10 or 2.50')
  .transform((s) => usdToMicros(s))
  .refine((m) => m > 0n && m <= 1_000_000_000_000n, '--amount must be between $0.000001 and $1,000,000');

function parse<T extends z.ZodType>(schema: T, args: Record<string, unknown>): z.infer<T> {
  const r = schema.safeParse(args);
  if (!r.success) throw badRequestFromZod(r.error);
  return r.data;
}

export const COMMANDS: Command[] = [
  {
    name: 'user:create',
    summary: 'Create a user (with a personal account)',
    usage: 'user:create --email E --password P [--name N]',
    options: { email: { type: 'string', description: 'email address' }, password: { type: 'string', description: 'at least 8 characters' }, name: { type: 'string', description: 'display name' } },
    async run(args) {
      const a = parse(z.object({ email: safeString({ error: '--email is required' }), password: safeString({ error: '--password is required' }), name: safeString().optional() }), args);
      const user = await createUser({ email: a.email, password: a.password, name: a.name, emailVerified: true });
      return { data: { user }, text: `Created user ${user.email} (id ${user.id}, personal account ${user.personal_account_id})` };
    },
  },
  {
    name: 'user:admin',
    summary: 'Make a user an operator (the admin API), or with --revoke no longer one',
    usage: 'user:admin --email E [--revoke]',
    options: { email: { type: 'string', description: "the user's email" }, revoke: { type: 'boolean', description: 'clear the operator flag instead' } },
    async run(args) {
      const a = parse(z.object({ email: safeString({ error: '--email is required' }), revoke: z.boolean().default(false) }), args);
      const user = await setOperator({ email: a.email, operator: !a.revoke });
      const still = a.revoke && user.admin_email ? ` (still an operator: ${user.email} is listed in ADMIN_EMAILS)` : '';
      return { data: { user }, text: a.revoke ? `${user.email} is no longer an operator by the flag${still}` : `${user.email} is now an operator: it may use /api/v1/admin/ with a personal API key or an auth token` };
    },
  },
  {
    name: 'credits:grant',
    summary: "Add credit to a user's personal account or an organization",
    usage: 'credits:grant (--email E | --org ID) --amount USD [--note TEXT]',
    options: { email: { type: 'string', description: "the user's email" }, org: { type: 'string', description: 'organization id' }, amount: { type: 'string', description: 'USD, e.g. 10 or 2.50' }, note: { type: 'string', description: 'reason, kept in the ledger' } },
    async run(args) {
      const a = parse(z.object({ email: safeString().optional(), org: safeString().optional(), amount: amountSchema, note: safeString().max(500).optional() }), args);
      if (!!a.email === !!a.org) throw new AppError('bad_request', 'Give exactly one of --email or --org');
      let accountId: string;
      let label: string;
      if (a.email) {
        const user = await findUserByEmailOrThrow(a.email);
        accountId = user.personal_account_id;
        label = user.email;
      } else {
        const org = await (await db()).organization.findUnique({ where: { id: a.org! }, select: { id: true, name: true } });
        if (!org) throw new AppError('not_found', `No organization with id ${a.org}`);
        accountId = org.id;
        label = `organization ${org.name}`;
      }
      const entry = await grantCredits({ accountId, amountMicros: a.amount, kind: 'ADJUSTMENT', idempotencyKey: `cli-grant:${randomUUID()}`, note: a.note ?? 'Granted with the CLI' });
      const balance = await getBalanceOrThrow(accountId);
      return {
        data: { account_id: accountId, ledger_entry_id: entry.id, amount: Number(a.amount) / 1e6, balance: Number(balance.totalMicros) / 1e6 },
        text: `Granted ${formatUsd(a.amount)} to ${label}; balance is now ${formatUsd(balance.totalMicros)}`,
      };
    },
  },
  {
    name: 'key:create',
    summary: 'Create an API key for a user (printed once)',
    usage: 'key:create --email E [--name N] [--org ID]',
    options: { email: { type: 'string', description: "the key owner's email" }, name: { type: 'string', description: 'key name (default "CLI key")' }, org: { type: 'string', description: 'organization id the key bills to' } },
    async run(args) {
      const a = parse(z.object({ email: safeString({ error: '--email is required' }), name: safeString().optional(), org: safeString().optional() }), args);
      const user = await findUserByEmailOrThrow(a.email);
      const { key, apiKey } = await createApiKey({ userId: user.id, input: { name: a.name ?? 'CLI key', account_id: a.org } });
      return { data: { key, id: apiKey.id }, text: `Created API key "${apiKey.name}" (id ${apiKey.id}) for ${user.email}. It is shown only this once:\n\n  ${key}\n` };
    },
  },
  {
    name: 'promotion:create',
    summary: 'Create a promotion code users can redeem for credit',
    usage: 'promotion:create --code C --amount USD [--name N] [--expires-days N] [--redeemable-days N] [--max-redemptions N]',
    options: {
      code: { type: 'string', description: 'the code users type (case-insensitive), e.g. WELCOME10' },
      amount: { type: 'string', description: 'USD of credit per redemption, e.g. 10 or 2.50' },
      name: { type: 'string', description: 'shown to users (default: the code)' },
      'expires-days': { type: 'string', description: 'granted credit expires N days after redemption (default: never)' },
      'redeemable-days': { type: 'string', description: 'the code can be redeemed for N days from now (default: no deadline)' },
      'max-redemptions': { type: 'string', description: 'how many accounts may redeem it (default: unlimited)' },
    },
    async run(args) {
      const days = (flag: string) => z.coerce.number({ error: `--${flag} must be a whole number` }).int(`--${flag} must be a whole number`).min(1, `--${flag} must be at least 1`).optional();
      const a = parse(
        z.object({
          code: safeString({ error: '--code is required' }),
          amount: amountSchema,
          name: safeString().max(200).optional(),
          'expires-days': days('expires-days'),
          'redeemable-days': days('redeemable-days'),
          'max-redemptions': days('max-redemptions'),
        }),
        args,
      );
      const p = await createPromotion({
        code: a.code,
        name: a.name,
        amountMicros: a.amount,
        creditTtlDays: a['expires-days'] ?? null,
        redeemableUntil: a['redeemable-days'] ? new Date(Date.now() + a['redeemable-days'] * 86_400_000) : null,
        maxRedemptions: a['max-redemptions'] ?? null,
      });
      const limits = [
        p.credit_ttl_days ? `credit expires ${p.credit_ttl_days} day(s) after redemption` : 'credit never expires',
        p.redeemable_until ? `redeemable until ${p.redeemable_until}` : 'no redemption deadline',
        p.max_redemptions ? `at most ${p.max_redemptions} redemption(s)` : 'unlimited redemptions',
      ];
      return { data: { promotion: p }, text: `Created promotion ${p.code} (id ${p.id}): ${formatUsd(a.amount)} per redemption; ${limits.join('; ')}` };
    },
  },
  {
    name: 'promotion:grant',
    summary: "Grant a promotion's credit to a user's personal account or an organization (once per account)",
    usage: 'promotion:grant --code C (--email E | --org ID)',
    options: { code: { type: 'string', description: 'the promotion code' }, email: { type: 'string', description: "the user's email" }, org: { type: 'string', description: 'organization id' } },
    async run(args) {
      const a = parse(z.object({ code: safeString({ error: '--code is required' }), email: safeString().optional(), org: safeString().optional() }), args);
      if (!!a.email === !!a.org) throw new AppError('bad_request', 'Give exactly one of --email or --org');
      const promotion = await (await db()).promotion.findUnique({ where: { code: normalizePromotionCode(a.code) }, select: { id: true } });
      if (!promotion) throw new AppError('not_found', `No promotion with code ${a.code}`);
      const accountId = a.email ? (await findUserByEmailOrThrow(a.email)).personal_account_id : a.org!;
      const { grant, created } = await grantPromotion({ promotionId: promotion.id, accountId });
      return {
        data: { grant, created },
        text: created ? `Granted ${formatUsd(BigInt(grant.amount_micros))} of promotional credit (grant ${grant.id})` : `Account ${accountId} already had this promotion (grant ${grant.id}); nothing changed`,
      };
    },
  },
  {
    name: 'usage:unbilled',
    summary: "What upstreams billed beyond the customers' charges (the operator's loss), per model",
    usage: 'usage:unbilled [--days N]',
    options: { days: { type: 'string', description: 'look back this many days (default 30)' } },
    async run(args) {
      const range = '--days must be a whole number from 1 to 3650';
      const a = parse(z.object({ days: z.coerce.number({ error: '--days must be a number' }).int(range).min(1, range).max(3650, range).default(30) }), args);
      const r = await getUnbilledUsage({ since: new Date(Date.now() - a.days * 86_400_000) });
      const lines = r.by_model.map((m) => `  ${m.model} (${m.provider}): ${formatUsd(BigInt(m.unbilled_micros))} over ${m.generations} generation(s)`);
      return {
        data: { ...r },
        text: [`Unbilled in the last ${a.days} day(s): ${formatUsd(BigInt(r.total_micros))} over ${r.generations} generation(s)`, ...lines].join('\n'),
      };
    },
  },
  {
    name: 'upstream:health',
    summary: "Provider keys' health in the running server: cooling, open circuits, failures, last errors",
    usage: 'upstream:health',
    options: {},
    async run() {
      // Loaded here, not at the top: the CLI process never needs the runtime (gateway, routing sources).
      const { processRuntime } = await import('@/server/runtime/process-runtime');
      const rt = processRuntime();
      const report = reportKeyHealth(rt.routing.table(), rt.health);
      return { data: { ...report }, text: formatKeyHealthReport(report) };
    },
    inServer: {
      async withoutServer() {
        const url = env().REDIS_URL;
        if (!url) {
          throw new AppError('service_unavailable', 'No Switchboard server is running here (none found through DATA_DIR), and REDIS_URL is not set: key health lives in the server\'s memory. Start the server, or set REDIS_URL to the Redis your instances share.');
        }
        const stored = await readStoredHealth(url).catch((err: Error) => {
          throw new AppError('service_unavailable', `No Switchboard server is running here, and key health cannot be read from Redis: ${err.message}`);
        });
        const report = reportStoredHealth(stored);
        return { data: { ...report }, text: formatKeyHealthReport(report) };
      },
    },
  },
  {
    name: 'migrate',
    summary: 'Apply committed database migrations',
    usage: 'migrate',
    options: {},
    async run() {
      // Opening the database applies pending migrations (see server/db/client.ts); report where we stand.
      const prisma = await db();
      const rows = await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*)::bigint AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`;
      const n = Number(rows[0]?.n ?? 0);
      return { data: { applied_migrations: n }, text: `Database is up to date (${n} migration${n === 1 ? '' : 's'} applied)` };
    },
  },
  {
    name: 'seed',
    summary: 'Upsert the plans (the model catalog is configuration: see catalog:list)',
    usage: 'seed',
    options: {},
    async run() {
      const r = await seed();
      return { data: r, text: `Seeded ${r.plans} plans` };
    },
  },
  ...CATALOG_COMMANDS,
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/**
 * Runs a command by name with already-parsed options (used by the server's loopback endpoint too). What it
 * changes is recorded in the audit log as the operator's, via the CLI (`actor`: the endpoint names the OS
 * account the CLI process runs as; in the CLI process itself, that account).
 */
export async function runCommand(name: string, args: Record<string, unknown>, actor: AuditActor = cliActor()): Promise<CommandResult> {
  const cmd = findCommand(name);
  if (!cmd) throw new AppError('bad_request', `Unknown command "${name}". Run with --help to list commands.`);
  return withAuditActor(actor, () => cmd.run(args));
}
