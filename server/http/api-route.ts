// The wrapper every /api/v1 route handler goes through: request id, authentication, zod parsing of the
// body and query, and one error translation into the spec's body. Handlers stay thin: parse, call one
// service, shape the output.
import { z } from 'zod';
import { restActor } from '@/server/audit/audit-actors';
import { withAuditActor } from '@/server/audit/audit-context';
import { authenticateBearer, type Principal } from '@/server/auth/authenticate-bearer';
import { AppError, badRequestFromZod, errorReply } from '@/server/errors';
import { refreshAdmissionRevisions } from '@/server/gateway/admission-revision';
import { jsonDepthExceeds, MAX_JSON_DEPTH, safeString } from '@/server/validation/fields';
import { requestIdFor } from './request-id';
import { bodyTooLargeError, contentCodingsOf, unsupportedCodingError } from './read-body';
import { NEXT_BODY_LIMIT_BYTES } from './request-limits';

export interface ApiContext<P> {
  request: Request;
  requestId: string;
  params: P;
  principal: Principal;
}

/** Path segments are client input like any other: ids PostgreSQL can look up (no NUL), of a sane length. */
const pathParams = z.record(z.string(), z.union([safeString().max(200), z.array(safeString())]));

type Handler<P> = (ctx: ApiContext<P>) => Promise<unknown | Response>;

interface Options {
  /** Routes such as the public model list may be called without a credential. */
  public?: boolean;
  status?: number;
}

/** JSON-safe output: bigint money never reaches JSON.stringify unconverted. */
function replacer(_k: string, v: unknown) {
  return typeof v === 'bigint' ? v.toString() : v;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, replacer), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorResponse(err: unknown, requestId: string): Response {
  const { status, body, headers } = errorReply(err, requestId);
  return json(body, status, { ...headers, 'x-request-id': requestId });
}

export function apiRoute<P = Record<string, string>>(handler: Handler<P>, options: Options = {}) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    const requestId = requestIdFor(request);
    try {
      const principal = options.public
        ? ((await authenticateBearer(request.headers.get('authorization')).catch(() => null)) as Principal)
        : await authenticateBearer(request.headers.get('authorization'));
      const params = parseWith(pathParams, (await context?.params) ?? {}) as P;
      // Who acts, for the audit entries the services record (server/audit/audit-context.ts).
      const out = await withAuditActor(restActor(principal, request.headers), () => handler({ request, requestId, params, principal })).finally(() =>
        // A write may have changed what admission decides with (a key disabled, a policy saved): this
        // process's early dispatch follows before the answer is sent (gateway/admission-revision.ts).
        request.method === 'GET' || request.method === 'HEAD' ? undefined : refreshAdmissionRevisions(),
      );
      if (out instanceof Response) {
        out.headers.set('x-request-id', requestId);
        return out;
      }
      if (out === undefined) return new Response(null, { status: 204, headers: { 'x-request-id': requestId } });
      return json(out, options.status ?? 200, { 'x-request-id': requestId });
    } catch (err) {
      return errorResponse(err, requestId);
    }
  };
}

/**
 * The body as text, refused with 413 as soon as it passes `limit` bytes (counted while reading, never after
 * buffering). server/main.ts enforces the same limit before Next; this holds wherever the route runs.
 */
export async function readRequestText(request: Request, limit = NEXT_BODY_LIMIT_BYTES): Promise<string> {
  if (!request.body) return '';
  // Uncompressed only, as server/main.ts refuses before Next (request-limits.ts limitBody).
  const codings = contentCodingsOf(request.headers.get('content-encoding') ?? undefined);
  if (codings.length) throw unsupportedCodingError(codings.join(', '), 'identity');
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A body cut off mid-way (the client went away, or the server refused it for its size) is not our fault.
    const { done, value } = await reader.read().catch(() => {
      throw new AppError('bad_request', 'The request body could not be read to its end');
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw bodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** A form body (urlencoded or multipart); one that does not parse as a form is the caller's 400. */
export async function parseForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new AppError('bad_request', 'The request body is not a form (application/x-www-form-urlencoded or multipart/form-data)');
  }
}

/** Parses a JSON body with a zod schema; malformed JSON and schema failures are 400s that say what is wrong. */
export async function parseBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let raw: unknown;
  const text = await readRequestText(request);
  try {
    raw = text.length ? JSON.parse(text) : {};
  } catch {
    throw new AppError('bad_request', 'Malformed JSON in request body');
  }
  // Recursive code further on (JSON.stringify, Prisma's JSON columns) overflows the stack on deep documents.
  if (jsonDepthExceeds(raw)) throw new AppError('bad_request', `The request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  return parseWith(schema, raw);
}

export function parseQuery<T extends z.ZodType>(request: Request, schema: T): z.infer<T> {
  return parseWith(schema, Object.fromEntries(new URL(request.url).searchParams));
}

export function parseWith<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const r = schema.safeParse(raw);
  if (!r.success) throw badRequestFromZod(r.error);
  return r.data;
}
