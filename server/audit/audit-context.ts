// Who is acting, and from where, for the audit log. Each edge (the REST wrapper, tRPC's context, the CLI
// runner) runs its handler inside `withAuditActor`, so services record audit entries without an actor
// parameter threaded through every call. The AsyncLocalStorage lives on globalThis: the custom server's
// bundle and Next's bundle are two copies of this module in one process (see ARCHITECTURE.md "runtime").
import { AsyncLocalStorage } from 'node:async_hooks';

/** anonymous: a public REST route (the device flow's token poll) before anyone is known. */
export type AuditActorKind = 'user' | 'api_key' | 'auth_token' | 'operator' | 'system' | 'anonymous';
export type AuditVia = 'rest' | 'console' | 'cli' | 'system';

export interface AuditActor {
  userId?: string;
  kind: AuditActorKind;
  /**
   * Email, or an API key's hint: readable after the actor is gone. Left out by the edges (one query fewer per
   * request), recordAudit looks it up in its transaction the first time an entry is written and keeps it here.
   */
  label?: string;
  /** The API key acting (kind api_key): its hint becomes the label. */
  apiKeyId?: string;
  via: AuditVia;
  ip?: string;
  userAgent?: string;
}

const KEY = Symbol.for('switchboard.auditContext');
type GlobalWithAudit = typeof globalThis & { [KEY]?: AsyncLocalStorage<AuditActor> };

function storage(): AsyncLocalStorage<AuditActor> {
  const g = globalThis as GlobalWithAudit;
  return (g[KEY] ??= new AsyncLocalStorage<AuditActor>());
}

/** Runs `fn` with `actor` as the actor of every audit entry recorded inside it. */
export function withAuditActor<T>(actor: AuditActor, fn: () => T): T {
  return storage().run(actor, fn);
}

/** The current actor; outside any edge (background jobs, webhooks from Stripe), the system. */
export function currentAuditActor(): AuditActor {
  return storage().getStore() ?? { kind: 'system', via: 'system' };
}

/**
 * Background work (auto top-ups after a settlement batch, sweeps) acts as the system even when a timer that
 * started it was created inside a request: AsyncLocalStorage follows timers and promises.
 */
export function asSystem<T>(label: string, fn: () => T): T {
  return withAuditActor({ kind: 'system', via: 'system', label }, fn);
}
