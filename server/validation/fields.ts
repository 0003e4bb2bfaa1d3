// Zod building blocks shared by every input schema (REST bodies and queries, tRPC inputs, the chat
// request, CLI options). Each one refuses, as a 400 at the edge, a value the layers below cannot hold:
// PostgreSQL rejects NUL (\u0000) in text, a JS Date ends at ±8.64e15 ms and PostgreSQL's timestamp(3)
// elsewhere (and Prisma writes years as four digits), money is exact to the micro-dollar, and recursive
// code (JSON.stringify, provider converters) overflows the stack on documents nested thousands deep.
import { z } from 'zod';

const NUL = '\u0000';

/** A string PostgreSQL can store: no NUL characters. Chain `.trim().min().max()` as on z.string(). */
export function safeString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((s) => !s.includes(NUL), 'must not contain NUL (\\u0000) characters');
}

/** An opaque id (path segment, cursor, foreign key): 1–200 safe characters. */
export function safeId(max = 200) {
  return safeString().min(1).max(max);
}

/**
 * Earliest and latest instants accepted anywhere: years 0001–9999, which JS, Prisma (four-digit years in
 * ISO strings) and PostgreSQL (no year 0) all hold. A JS Date alone reaches year 275760.
 */
export const MIN_INSTANT_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const MAX_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function isRepresentableInstant(d: Date): boolean {
  const t = d.getTime();
  return Number.isFinite(t) && t >= MIN_INSTANT_MS && t <= MAX_INSTANT_MS;
}

const rangeMessage = 'must be a time between 0001-01-01 and 9999-12-31';

/** A range whose `from` defaults to a span before `to` (never before MIN_INSTANT_MS) is empty when `to` is the earliest instant. */
export const EARLIEST_TO_MESSAGE = '`to` must be after 0001-01-01T00:00:00Z, the earliest time there is (a default `from` never goes before it)';

/**
 * A stored instant as ISO text for a response, or null when it cannot be represented (a row written before
 * these checks existed reads back as an Invalid Date): one bad row must never fail a whole listing.
 */
export function isoOrNull(d: Date | null | undefined): string | null {
  return d && Number.isFinite(d.getTime()) ? d.toISOString() : null;
}

/** ISO 8601 time with offset (2026-11-21T10:00:00Z) or date (2026-11-21, midnight UTC) → Date, within range. */
export function isoInstant() {
  return z
    .union([z.iso.datetime({ offset: true }), z.iso.date()])
    .transform((s) => new Date(s))
    .refine(isRepresentableInstant, rangeMessage)
    .describe('ISO 8601 time (2026-11-21T10:00:00Z) or date (2026-11-21, midnight UTC)');
}

/** A Date from an ISO string or epoch milliseconds (as z.coerce.date() accepts), within range. */
export function coercedInstant() {
  return z.coerce.date({ error: 'must be an ISO 8601 time' }).refine(isRepresentableInstant, rangeMessage);
}

/**
 * A USD amount as a JSON number, exact at `decimals` places (6 = the micro-dollar, 2 = the cent) and within
 * [min, max]. Finite numbers only; 0.1 + 0.2 style float noise below the precision counts as more precision.
 */
export function usdNumber(p: { min: number; max: number; decimals: 2 | 6; minMessage?: string; maxMessage?: string; exclusiveMin?: boolean }) {
  const scale = 10 ** p.decimals;
  const unit = p.decimals === 2 ? 'two decimals (cents)' : 'six decimals (micro-dollars)';
  // A console form's Number('abc') is NaN: say what to type instead of zod's "expected number, received NaN".
  let n = z.number({ error: (issue) => (typeof issue.input === 'number' && Number.isNaN(issue.input) ? 'Enter an amount in US dollars, such as 25' : undefined) }).finite();
  const usd = (v: number) => `${v < 0 ? '-' : ''}$${Math.abs(v).toLocaleString('en-US')}`;
  n = p.exclusiveMin ? n.gt(p.min, p.minMessage ?? `Enter an amount above ${usd(p.min)}`) : n.min(p.min, p.minMessage ?? `Enter at least ${usd(p.min)}`);
  return n.max(p.max, p.maxMessage ?? `Enter at most ${usd(p.max)}`).refine((v) => Math.abs(v * scale - Math.round(v * scale)) < 1e-6, `Use at most ${unit}`);
}

export const MAX_JSON_DEPTH = 64;

/** Nesting depth of a parsed JSON value (objects and arrays), walked without recursion; stops past `limit`. */
export function jsonDepthExceeds(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** A JSON object (e.g. a JSON Schema) nested at most MAX_JSON_DEPTH levels. */
export function boundedJsonObject() {
  return z.record(z.string(), z.unknown()).refine((v) => !jsonDepthExceeds(v), `must not be nested more than ${MAX_JSON_DEPTH} levels deep`);
}
