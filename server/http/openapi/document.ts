import { ERROR_STATUS } from '@/server/errors';
import { errorBodySchema, jsonSchema, registeredEndpoints, type EndpointSpec } from './registry';
// Each domain's endpoint declarations (keep one import per line; add yours below the marker).
import '@/server/gateway/gateway.openapi';
import '@/server/api-keys/api-keys.openapi';
import '@/server/auth/auth.openapi';
import '@/server/users/users.openapi';
import '@/server/organizations/organizations.openapi';
import '@/server/invites/invites.openapi';
import '@/server/usage/usage.openapi';
import '@/server/ledger/ledger.openapi';
import '@/server/promotions/promotions.openapi';
import '@/server/billing/billing.openapi';
import '@/server/routing/routing.openapi';
import '@/server/embeddings/embeddings.openapi';
// openapi-imports-end

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: malformed JSON or invalid parameters',
  401: 'Missing or invalid credential',
  402: 'Insufficient credits',
  403: 'The credential may not act on this resource',
  404: 'Not found',
  409: 'Conflict with the current state',
  410: 'Gone: expired',
  413: 'Request body too large',
  428: 'Not yet: the user has not approved (device flow)',
  429: 'Rate limited (see Retry-After)',
  500: 'Internal server error',
  502: 'Upstream provider error',
  503: 'Temporarily unavailable',
};

function operation(e: EndpointSpec) {
  const parameters: unknown[] = [];
  for (const [where, schema] of [['path', e.params], ['query', e.query]] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape)) {
      const js = jsonSchema(field as never, 'input');
      parameters.push({ name, in: where, required: where === 'path' || !(field as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success, schema: js, description: (js.description as string) ?? undefined });
    }
  }
  const errorStatuses = [...new Set([400, ...(e.auth === false ? [] : [401]), ...(e.errors ?? []), 500])].sort();
  const responses: Record<string, unknown> = {
    [String(e.status ?? 200)]: {
      description: 'Success',
      ...(e.response ? { content: { [e.responseContentType ?? 'application/json']: { schema: jsonSchema(e.response, 'output') } } } : {}),
    },
  };
  for (const s of errorStatuses) responses[String(s)] = { description: STATUS_TEXT[s] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  return {
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    tags: e.tags,
    ...(e.auth === false ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(e.body, 'input') } } } } : {}),
    responses,
  };
}

export function openApiDocument(serverUrl = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of registeredEndpoints()) (paths[e.path] ??= {})[e.method] = operation(e);
  void ERROR_STATUS;
  return {
    openapi: '3.0.3',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description:
        'One credential, many model providers. OpenAI-compatible chat completions plus account, organization, billing and key management. ' +
        'Every error has the body { "error": { "code", "message", "metadata" } } and every response carries x-request-id.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (sk-sb-v1-…) or an account auth token (sb-at-v1-…)' } },
      schemas: { Error: jsonSchema(errorBodySchema, 'output') },
    },
    paths,
  };
}
