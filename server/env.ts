// The only reader of process.env. Every variable is validated here with zod, once, and the rest of the
// code asks `env()` for a typed, frozen object. A bad value stops the process with a message that names
// the variable and what was expected.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensureOwnerOnlyDir, writeOwnerOnlyFile } from './db/owner-only-files';

const url = (what: string) => z.string().url(`${what} must be a URL, e.g. https://example.com`);
const optionalNonEmpty = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes');
/** A switch that is on unless set to 0/false/no. */
const boolDefaultOn = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => !(v === '0' || v === 'false' || v === 'no'));

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int('PORT must be an integer').min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    /** Public origin used in links we hand out (invites, checkout redirects, device flow, e-mails). */
    PUBLIC_URL: url('PUBLIC_URL').optional(),
    /** A proxy in front sets X-Forwarded-Host/-Proto: trust them for links and https (server/http/public-origin.ts). */
    TRUST_PROXY: bool,
    DATABASE_URL: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.trim() : undefined))
      .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must start with postgresql:// (leave it unset for the embedded database)'),
    DATA_DIR: z.string().default('./.data'),
    REDIS_URL: optionalNonEmpty.refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'REDIS_URL must start with redis:// or rediss://'),
    AUTH_SECRET: optionalNonEmpty.refine((v) => v === undefined || v.length >= 32, 'AUTH_SECRET must be at least 32 characters (try: openssl rand -base64 32)'),
    /**
     * Encrypts secrets stored in the database (operators' provider keys): 32 bytes as base64 or hex. Unset on
     * the embedded database, one is generated and kept in DATA_DIR/encryption-key (see encryptionKey()).
     */
    ENCRYPTION_KEY: optionalNonEmpty.refine(
      (v) => v === undefined || decodeEncryptionKey(v) !== null,
      'ENCRYPTION_KEY must be 32 bytes as base64 (44 characters) or hex (64 characters) (try: openssl rand -base64 32)',
    ),
    /** Operators by email (comma-separated, case-insensitive), besides users promoted with `user:admin`. */
    ADMIN_EMAILS: optionalNonEmpty
      .transform((v) => (v ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean))
      .refine((list) => list.every((e) => /^[^\s@]+@[^\s@]+$/.test(e)), 'ADMIN_EMAILS must be email addresses separated by commas'),

    OPENAI_API_KEY: optionalNonEmpty,
    OPENAI_BASE_URL: url('OPENAI_BASE_URL').default('https://api.openai.com/v1'),
    ANTHROPIC_API_KEY: optionalNonEmpty,
    ANTHROPIC_BASE_URL: url('ANTHROPIC_BASE_URL').default('https://api.anthropic.com'),
    GEMINI_API_KEY: optionalNonEmpty,
    GEMINI_BASE_URL: url('GEMINI_BASE_URL').default('https://generativelanguage.googleapis.com'),
    DEEPSEEK_API_KEY: optionalNonEmpty,
    DEEPSEEK_BASE_URL: url('DEEPSEEK_BASE_URL').default('https://api.deepseek.com'),
    MISTRAL_API_KEY: optionalNonEmpty,
    MISTRAL_BASE_URL: url('MISTRAL_BASE_URL').default('https://api.mistral.ai/v1'),
    XAI_API_KEY: optionalNonEmpty,
    XAI_BASE_URL: url('XAI_BASE_URL').default('https://api.x.ai/v1'),
    GROQ_API_KEY: optionalNonEmpty,
    GROQ_BASE_URL: url('GROQ_BASE_URL').default('https://api.groq.com/openai/v1'),
    OPENROUTER_API_KEY: optionalNonEmpty,
    OPENROUTER_BASE_URL: url('OPENROUTER_BASE_URL').default('https://openrouter.ai/api/v1'),
    /** Extra OpenAI-compatible providers, a JSON array or the path of a JSON file (see README). */
    CUSTOM_PROVIDERS: optionalNonEmpty,
    /** The routing configuration: a YAML or JSON file of providers, keys and models, reloaded when it changes (see README). */
    SWITCHBOARD_CONFIG: optionalNonEmpty,
    /**
     * The only directory whose files the admin API may name as a provider's `credentials_file` (a Vertex AI
     * service-account key). Unset: the admin API refuses credentials_file (use credentials_env). The
     * configuration file may name any path: the operator who writes it has the server's files anyway.
     */
    SWITCHBOARD_CREDENTIALS_DIR: optionalNonEmpty,

    STRIPE_SECRET_KEY: optionalNonEmpty,
    STRIPE_WEBHOOK_SECRET: optionalNonEmpty,
    STRIPE_API_URL: url('STRIPE_API_URL').optional(),

    SMTP_URL: optionalNonEmpty,
    AUTH_GITHUB_ID: optionalNonEmpty,
    AUTH_GITHUB_SECRET: optionalNonEmpty,
    AUTH_GOOGLE_ID: optionalNonEmpty,
    AUTH_GOOGLE_SECRET: optionalNonEmpty,
    /** GitHub's web origin: a GitHub Enterprise Server (API at <url>/api/v3), or a local fake in tests. */
    AUTH_GITHUB_URL: url('AUTH_GITHUB_URL').optional(),
    /** The OpenID Connect issuer behind the Google button (discovery at <issuer>/.well-known/openid-configuration). */
    AUTH_GOOGLE_ISSUER: url('AUTH_GOOGLE_ISSUER').default('https://accounts.google.com'),
    /** Instance-wide OpenID Connect sign-in (all three, or none): the issuer (discovery at <issuer>/.well-known/openid-configuration). */
    OIDC_ISSUER: url('OIDC_ISSUER').optional(),
    OIDC_CLIENT_ID: optionalNonEmpty,
    OIDC_CLIENT_SECRET: optionalNonEmpty,
    /** The button's label: "Continue with <OIDC_NAME>". */
    OIDC_NAME: optionalNonEmpty.transform((v) => v ?? 'SSO'),
    /**
     * DNS servers that check organizations' SSO domain verification records (comma-separated `ip` or `ip:port`,
     * `[ipv6]:port`); the system's resolvers when unset.
     */
    SSO_DNS_SERVERS: optionalNonEmpty
      .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean))
      .refine((list) => list.every((s) => /^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(s)), 'SSO_DNS_SERVERS must be IP addresses (optionally with :port) separated by commas'),
    /** Lets organizations' SSO issuers be plain http:// (local test issuers); https only otherwise. */
    SSO_ALLOW_HTTP_ISSUERS: bool,

    /**
     * What a request served with the account's own provider key (BYOK) costs, in percent of the list price
     * (0–100, at most two decimals; default 0: free).
     */
    BYOK_FEE_PERCENT: z.coerce
      .number()
      .min(0, 'BYOK_FEE_PERCENT must be between 0 and 100')
      .max(100, 'BYOK_FEE_PERCENT must be between 0 and 100')
      .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, 'BYOK_FEE_PERCENT: at most two decimals')
      .default(0),
    /** Requests per minute per API key on the chat endpoint (a key's own rate_limit_rpm overrides it). */
    RATE_LIMIT_RPM: z.coerce.number().int().min(1, 'RATE_LIMIT_RPM must be at least 1').default(600),
    /** Send a warm API key's provider request while its admission is in the database (gateway/early-dispatch.ts). */
    EARLY_DISPATCH: boolDefaultOn,
    /** A busy account's admissions drawn from this process's credit lease, without its row lock (ledger/credit-leases.ts). */
    CREDIT_LEASES: boolDefaultOn,
    /** PostgreSQL: the admission statement's commit does not wait for the disk (db/client.ts, ledger/settle-generation.ts settleLost). */
    ADMISSION_ASYNC_COMMIT: boolDefaultOn,
    /**
     * Where each generation's settlement is appended before its usage reaches the client, replayed at start
     * after a crash (ledger/settlement-journal.ts). Default: DATA_DIR/journal. Local to this instance.
     */
    SETTLEMENT_JOURNAL_DIR: optionalNonEmpty,
    /** A reservation's lease: renewed every third of it while its generation runs (ledger/reservation-leases.ts). */
    RESERVATION_LEASE_MS: z.coerce.number().int().min(300, 'RESERVATION_LEASE_MS must be at least 300').default(90_000),
    /** How often reservations past their lease are released (a dead process's: within lease + this). */
    SWEEP_INTERVAL_MS: z.coerce.number().int().min(50, 'SWEEP_INTERVAL_MS must be at least 50').default(15_000),
    /** Time a client has to send a request's headers and whole body; a stalled upload gets 408 (responses may run longer). */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000, 'REQUEST_TIMEOUT_MS must be at least 1000').default(60_000),
    /**
     * Webhook URLs may point at private, loopback and link-local addresses (refused by default, at creation and
     * at each delivery after DNS resolution: server/webhooks/webhook-address.ts). For local development and tests.
     */
    WEBHOOK_ALLOW_PRIVATE: bool,
    /** New accounts per client address per hour (POST /auth/sign-up and the sign-up page): a bound on scripted sign-ups. */
    SIGN_UPS_PER_HOUR: z.coerce.number().int('SIGN_UPS_PER_HOUR must be an integer').min(1, 'SIGN_UPS_PER_HOUR must be at least 1').max(1_000_000, 'SIGN_UPS_PER_HOUR must be at most 1000000').default(20),
    /** How often balances and spend limits are checked for balance.low and limit.threshold crossings. */
    ALERT_CHECK_INTERVAL_MS: z.coerce.number().int().min(50, 'ALERT_CHECK_INTERVAL_MS must be at least 50').default(30_000),
    /** Skip creating the demo account on an empty embedded database. */
    SKIP_DEMO: bool,
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Log lines: one JSON object per line (default, but in development) or readable lines (default in development). */
    LOG_FORMAT: z.enum(['json', 'pretty'], 'LOG_FORMAT must be json or pretty').optional(),
    /** GET /metrics wants `Authorization: Bearer <this>` when set; open to anyone who reaches the port otherwise. */
    METRICS_TOKEN: optionalNonEmpty,
    /** Off (0/false/no): no Prometheus metrics are recorded and GET /metrics answers 404 (the bench measures what they cost this way). */
    METRICS_ENABLED: boolDefaultOn,

    // Traces (server/observability/tracing.ts), with OpenTelemetry's standard names. Off unless an endpoint is set.
    /** The OTLP/HTTP collector's base URL; spans go to <this>/v1/traces. */
    OTEL_EXPORTER_OTLP_ENDPOINT: url('OTEL_EXPORTER_OTLP_ENDPOINT').optional(),
    /** The full URL spans are posted to (wins over OTEL_EXPORTER_OTLP_ENDPOINT). */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').optional(),
    OTEL_SERVICE_NAME: optionalNonEmpty.transform((v) => v ?? 'switchboard'),
    /** true: no traces even with an endpoint set. */
    OTEL_SDK_DISABLED: bool,
    OTEL_TRACES_SAMPLER: z
      .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'], 'OTEL_TRACES_SAMPLER must be always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio')
      .default('parentbased_always_on'),
    /** The ratio of the *traceidratio samplers, 0–1 (default 1). */
    OTEL_TRACES_SAMPLER_ARG: optionalNonEmpty
      .transform((v) => (v === undefined ? undefined : Number(v)))
      .refine((v) => v === undefined || (v >= 0 && v <= 1), 'OTEL_TRACES_SAMPLER_ARG must be a number between 0 and 1'),
    /**
     * Server processes on this host sharing PORT (node:cluster: a primary forks them, restarts one that dies and
     * sums their /metrics). PostgreSQL only: the embedded database is one process and says so (server/cluster/).
     */
    WORKERS: z.coerce.number().int('WORKERS must be an integer').min(1, 'WORKERS must be at least 1').max(256, 'WORKERS must be at most 256').default(1),
    /** On SIGTERM: how long streams in flight may run on before their connections are closed (seconds). */
    SHUTDOWN_GRACE_S: z.coerce.number().min(0, 'SHUTDOWN_GRACE_S must be between 0 and 3600').max(3600, 'SHUTDOWN_GRACE_S must be between 0 and 3600').default(30),
    /**
     * Named prepared statements for the chat path's few statements on PostgreSQL (parsed once per connection).
     * Set to false behind a transaction-pooling pooler (PgBouncer pool_mode=transaction, managed poolers);
     * `?pgbouncer=true` on DATABASE_URL does the same (server/db/pooler.ts).
     */
    DATABASE_PREPARED_STATEMENTS: boolDefaultOn,
  })
  .superRefine((v, ctx) => {
    const oidc = [v.OIDC_ISSUER, v.OIDC_CLIENT_ID, v.OIDC_CLIENT_SECRET].filter((x) => x !== undefined).length;
    if (oidc !== 0 && oidc !== 3) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three, or none' });
    }
    if (v.DATABASE_URL && !v.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'AUTH_SECRET is required when DATABASE_URL is set (try: openssl rand -base64 32)' });
    }
  });

export type Env = Omit<z.infer<typeof envSchema>, 'LOG_FORMAT'> & { LOG_FORMAT: 'json' | 'pretty'; dataDir: string; settlementJournalDir: string; embedded: boolean };

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  const settlementJournalDir = path.resolve(parsed.data.SETTLEMENT_JOURNAL_DIR ?? path.join(dataDir, 'journal'));
  const logFormat = parsed.data.LOG_FORMAT ?? (parsed.data.NODE_ENV === 'development' ? 'pretty' : 'json');
  return Object.freeze({ ...parsed.data, LOG_FORMAT: logFormat, dataDir, settlementJournalDir, embedded: !parsed.data.DATABASE_URL });
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change process.env between cases; this forgets the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}

/**
 * next-auth reads AUTH_URL from process.env itself to build its callback and action URLs, from the request's
 * Host otherwise: with PUBLIC_URL set, it gets PUBLIC_URL's origin (the links rule of server/http/public-origin.ts).
 */
export function exposeAuthUrl(): void {
  const publicUrl = env().PUBLIC_URL;
  if (publicUrl) process.env.AUTH_URL = new URL(publicUrl).origin;
}

/** Reads a variable that is not ours (e.g. CI, TEST_DATABASE_URL in test support). */
export function rawEnv(name: string): string | undefined {
  return process.env[name];
}

/** 32 bytes from base64, base64url or hex; null for anything else (wrong length included). */
export function decodeEncryptionKey(text: string): Buffer | null {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)
      ? Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : null;
  return bytes?.length === 32 ? bytes : null;
}

/**
 * The key that encrypts secrets at rest: ENCRYPTION_KEY, or on the embedded database one generated once and
 * kept owner-only in DATA_DIR/encryption-key (as authSecret() does). Null on PostgreSQL without ENCRYPTION_KEY:
 * several instances share that database, and a key generated on one host would be unknown to the others, so
 * callers refuse to store a secret instead.
 */
export function encryptionKey(): Buffer | null {
  const e = env();
  if (e.ENCRYPTION_KEY) return decodeEncryptionKey(e.ENCRYPTION_KEY);
  if (!e.embedded) return null;
  const file = path.join(e.dataDir, 'encryption-key');
  if (existsSync(file)) {
    const kept = decodeEncryptionKey(readFileSync(file, 'utf8'));
    if (!kept) throw new EnvError([`${file} does not hold a 32-byte key (base64); restore it from a backup or set ENCRYPTION_KEY`]);
    return kept;
  }
  ensureOwnerOnlyDir(e.dataDir);
  const key = randomBytes(32);
  writeOwnerOnlyFile(file, key.toString('base64') + '\n');
  return key;
}

/**
 * AUTH_SECRET, or in embedded mode one generated once and kept in DATA_DIR so sessions survive restarts.
 */
export function authSecret(): string {
  const e = env();
  if (e.AUTH_SECRET) return e.AUTH_SECRET;
  const file = path.join(e.dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensureOwnerOnlyDir(e.dataDir);
  const secret = randomBytes(32).toString('base64url');
  writeOwnerOnlyFile(file, secret + '\n');
  return secret;
}
