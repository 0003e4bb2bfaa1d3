// Who is acting, and from where, for the audit log. Each edge (the REST wrapper, tRPC's context, the CLI
// runner) runs its handler inside `withAuditActor`, so services record audit entries without an actor
// parameter threaded through every call. The AsyncLocalStorage lives on globalThis: the custom server's
// bundle and Next's bundle are two copies of this module in one process (see ARCHITECTURE.md "runtime").
import { AsyncLocalStorage } from 'node:async_hooks';

export type AuditActorKind = 'user' | 'api_key' | 'auth_token' | 'operator' | 'system';
export type AuditVia = 'rest' | 'console' | 'cli' | 'system';

export interface AuditActor {
  userId?: string;
  kind: AuditActorKind;
  /** Email, or an API key's hint: readable after the actor is gone. */
  label?: string;
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
