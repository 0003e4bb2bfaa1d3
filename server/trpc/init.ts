// tRPC for the console. The context is the signed-in user (next-auth session, checked against its browser
// session row: console/session-principal.ts); procedures are thin — one service call each — and never
// import server/db (eslint). AppErrors become tRPC errors carrying the same
// code, message and metadata as the REST body, so the console shows the server's own messages.
import { initTRPC, TRPCError } from '@trpc/server';
import { clientOf, consoleActor } from '@/server/audit/audit-actors';
import { withAuditActor } from '@/server/audit/audit-context';
import type { Principal } from '@/server/auth/authenticate-bearer';
import { requireOperatorOrThrow } from '@/server/auth/operator';
import { auth, authOfRequest } from '@/server/auth/next-auth';
import { sessionPrincipal } from '@/server/console/session-principal';
import { AppError, ERROR_STATUS, type ErrorCode, isAppError, toErrorBody } from '@/server/errors';
import { refreshAdmissionRevisions } from '@/server/gateway/admission-revision';
import { publicOrigin } from '@/server/http/public-origin';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import type { Permission } from '@/server/organizations/permissions';

export interface TrpcContext {
  /** The signed-in user as a principal acting on their active account; null when signed out. */
  principal: Principal | null;
  /** Origin for links the server hands out (checkout returns, invite links): server/http/public-origin.ts. */
  origin?: string;
  /** The browser's address and user agent, for the audit log. */
  client?: { ip?: string; userAgent?: string };
}

export async function createTrpcContext(opts?: { req?: Request }): Promise<TrpcContext> {
  const origin = opts?.req ? publicOrigin(opts.req.headers) : undefined;
  const client = opts?.req ? clientOf(opts.req.headers) : undefined;
  const session = opts?.req ? await authOfRequest(opts.req) : await auth();
  const userId = session?.user?.id;
  if (!userId) return { principal: null, origin, client };
  return { principal: await sessionPrincipal({ userId, browserSessionId: session.sid, client }), origin, client };
}

const TRPC_CODE: Record<number, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/**
 * A TRPCError raised by tRPC itself or by our middleware (no session, unknown procedure, a mutation over GET,
 * a body that is not JSON…) in our error vocabulary, so the console sees the same code and message as REST.
 * Its message was written for the client; only INTERNAL_SERVER_ERROR (and anything unmapped) stays generic.
 */
const APP_CODE: Partial<Record<TRPCError['code'], ErrorCode>> = {
  PARSE_ERROR: 'bad_request',
  BAD_REQUEST: 'bad_request',
  UNAUTHORIZED: 'unauthorized',
  PAYMENT_REQUIRED: 'payment_required',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  TOO_MANY_REQUESTS: 'rate_limited',
  BAD_GATEWAY: 'upstream_error',
  SERVICE_UNAVAILABLE: 'service_unavailable',
  GATEWAY_TIMEOUT: 'upstream_timeout',
};

function formattable(error: TRPCError): unknown {
  const cause = error.cause;
  if (isAppError(cause) || (cause as Error)?.name === 'ZodError') return cause;
  if (error.code === 'INTERNAL_SERVER_ERROR') return cause ?? error;
  const code = APP_CODE[error.code];
  return code ? new AppError(code, error.message) : error;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const { body } = toErrorBody(formattable(error));
    return { ...shape, message: body.error.message, data: { ...shape.data, stack: undefined, appError: body.error } };
  },
});

/** Turns AppErrors thrown by services into TRPCErrors with the matching code (the formatter keeps the details). */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const status = ERROR_STATUS[result.error.cause.code];
    throw new TRPCError({ code: TRPC_CODE[status] ?? 'INTERNAL_SERVER_ERROR', message: result.error.cause.message, cause: result.error.cause });
  }
  return result;
});

/**
 * After a mutation, this process's early dispatch follows what it may have changed for admission (a key
 * disabled, a policy or a provider key saved) before the answer is sent (gateway/admission-revision.ts).
 */
const admissionWrites = t.middleware(async ({ type, next }) => {
  const result = await next();
  if (type === 'mutation') await refreshAdmissionRevisions();
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors).use(admissionWrites);
/** A signed-in user; what the procedure changes is recorded in the audit log as theirs, via the console. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  const principal = ctx.principal;
  if (!principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  return withAuditActor(consoleActor(principal.userId, ctx.client), () => next({ ctx: { principal } }));
});
/**
 * An operator of the instance (the same check as every /api/v1/admin/ route: server/auth/operator.ts, read on
 * each call, so a revoked flag takes effect at once); everyone else gets FORBIDDEN with the REST 403's message.
 */
export const operatorProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  await requireOperatorOrThrow(ctx.principal);
  return next();
});
export const createCallerFactory = t.createCallerFactory;

/** Where links go when the context has no request (createCaller in tests, scripts). */
export function originOf(ctx: TrpcContext): string {
  return ctx.origin ?? publicOrigin(new Headers());
}

/**
 * A procedure on the caller's active account (the console's account switcher picks it): resolves their
 * role there with the same authorization step as REST (404 for an account they do not belong to, 403
 * naming the permission) and hands `access` to the procedure. `organizationOnly` refuses personal accounts.
 */
export function accountProcedure(permission: Permission, options: { organizationOnly?: boolean } = {}) {
  return protectedProcedure.use(async ({ ctx, next }) => {
    const access = await assertAccountAccess({ userId: ctx.principal.userId, accountId: ctx.principal.accountId, permission });
    if (options.organizationOnly && access.kind !== 'ORGANIZATION') {
      throw new AppError('bad_request', 'This needs an organization: switch to one in the account menu, or create one');
    }
    return next({ ctx: { access } });
  });
}
