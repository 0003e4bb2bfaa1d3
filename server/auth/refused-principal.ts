// Who was refused: an admission error thrown after the credential was checked carries the principal it
// checked, so the gateway can record the refusal on that account (gateway/record-refusal.ts) without
// asking the database again. A WeakMap, so errors stay plain AppErrors and nothing leaks into their bodies.
import type { Principal } from './authenticate-bearer';

const refused = new WeakMap<object, Principal>();

/** Tags `err` (when it is an object) with the principal it refused; returns it for `throw`. */
export function withRefusedPrincipal<E>(err: E, principal: Principal): E {
  if (typeof err === 'object' && err !== null) refused.set(err, principal);
  return err;
}

export function refusedPrincipalOf(err: unknown): Principal | undefined {
  return typeof err === 'object' && err !== null ? refused.get(err) : undefined;
}
