// The methods a route serves, as its Allow header lists them. An App Router route module exports one handler
// per method (GET, POST, …) and Next implements two more itself: HEAD wherever GET is exported, and OPTIONS
// (answered 204 with this same list). The list is read from the route module Next matched for the request, so
// it cannot drift from the routes.
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { getRequestMeta } from 'next/dist/server/request-meta.js';

/** Every method a route handler can export (Next's HTTP_METHODS); what the server as a whole serves. */
export const ROUTE_METHODS: readonly string[] = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/** Allow for a route module exporting these names (non-method exports such as `dynamic` are ignored). */
export function allowHeader(exported: Iterable<string>): string {
  const methods = new Set([...exported].filter((name) => ROUTE_METHODS.includes(name)));
  methods.add('OPTIONS');
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort().join(', ');
}

interface CompiledRouteModule {
  routeModule?: { userland?: Record<string, unknown> };
}

const requireCompiled = createRequire(import.meta.url);
const allowByModule = new Map<string, string>();

/**
 * Allow of the App Router route that Next matched for this request, once Next has handled it (its 405 for a
 * method the module does not export): Next records the match on the request (request meta `match`, whose
 * definition names the compiled module) and has loaded that module, whose `routeModule.userland` is the
 * route.ts exports. Undefined when Next matched no route handler (a page, no route) or its internals changed
 * shape (then the 405 goes out without Allow; server/main.integration.test.ts fails).
 */
export function allowOfMatchedRoute(req: IncomingMessage): string | undefined {
  const definition = getRequestMeta(req, 'match')?.definition;
  if (!definition || String(definition.kind) !== 'APP_ROUTE') return undefined;
  const known = allowByModule.get(definition.filename);
  if (known) return known;
  try {
    const userland = (requireCompiled(definition.filename) as CompiledRouteModule).routeModule?.userland;
    if (!userland) return undefined;
    const allow = allowHeader(Object.keys(userland));
    allowByModule.set(definition.filename, allow);
    return allow;
  } catch {
    return undefined; // not loaded (yet), or not a module of this shape
  }
}
