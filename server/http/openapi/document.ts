import type { z } from 'zod';
import { errorBodySchema, registeredEndpoints, type EndpointSpec } from './registry';
import { SchemaComponents } from './schema-components';
// Each domain's endpoint declarations (keep one import per line; add yours below the marker).
import '@/server/gateway/gateway.openapi';
import '@/server/catalog/models.openapi';
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
import '@/server/formats/openai-responses/responses.openapi';
import '@/server/formats/anthropic-messages/messages.openapi';
import '@/server/embeddings/embeddings.openapi';
import '@/server/provider-keys/provider-keys.openapi';
import '@/server/webhooks/webhooks.openapi';
import '@/server/audit/audit.openapi';
import '@/server/sso/sso.openapi';
import '@/server/admin/admin.openapi';
import '@/server/probes.openapi';
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

function operation(e: EndpointSpec, components: SchemaComponents, serverUrl: string) {
  const parameters: unknown[] = [];
  for (const [where, schema] of [['path', e.params], ['query', e.query]] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape)) {
      const js = components.convert(field as z.ZodType, 'input');
      const required = where === 'path' || !(field as z.ZodType).safeParse(undefined).success;
      parameters.push({ name, in: where, required, schema: js, ...(typeof js.description === 'string' ? { description: js.description } : {}) });
    }
  }
  const errorStatuses = [...new Set([400, ...(e.auth === false ? [] : [401]), ...(e.errors ?? []), ...Object.keys(e.errorBodies ?? {}).map(Number), 500])].sort();
  const success: Record<string, unknown> = {};
  if (e.response) success[e.responseContentType ?? 'application/json'] = { schema: components.convert(e.response, 'output') };
  if (e.stream) success['text/event-stream'] = { schema: { type: 'string', ...(e.sseDescription ? { description: e.sseDescription } : {}) } };
  for (const [type, description] of Object.entries(e.textAlternatives ?? {})) success[type] = { schema: { type: 'string', description } };
  const responses: Record<string, unknown> = {
    [String(e.status ?? 200)]: { description: 'Success', ...(Object.keys(success).length ? { content: success } : {}) },
  };
  const error = components.convert(errorBodySchema, 'output');
  for (const s of errorStatuses) {
    const special = e.errorBodies?.[s];
    const schema = special ? components.convert(special.body, 'output') : error;
    responses[String(s)] = { description: special?.description ?? STATUS_TEXT[s] ?? 'Error', content: { 'application/json': { schema } } };
  }
  return {
    operationId: e.operationId ?? derivedOperationId(e),
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    tags: e.tags,
    ...(e.auth === false ? { security: [] } : {}),
    ...(e.outsideV1 ? { servers: [{ url: serverUrl.replace(/\/v1\/?$/, '') }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(e.body ? { requestBody: { required: true, content: requestContent(e.body, e.bodyContentTypes, components) } } : {}),
    responses,
  };
}

function requestContent(body: z.ZodType, types: string[] = ['application/json'], components: SchemaComponents) {
  const schema = components.convert(body, 'input');
  return Object.fromEntries(types.map((type) => [type, { schema }]));
}

/** GET /models/{author}/{slug} → getModelsByAuthorBySlug; DELETE /api-keys/{key_id} → deleteApiKeysByKeyId. */
export function derivedOperationId(e: Pick<EndpointSpec, 'method' | 'path'>): string {
  const words = e.path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const parts = (param ? param[1] : segment).split(/[^a-zA-Z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
      return [...(param ? ['By'] : []), ...parts.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())];
    });
  return e.method + words.join('');
}

const built = new Map<string, { endpoints: number; document: ReturnType<typeof buildDocument> }>();

/** Built once per server URL (~100 ms of schema conversion); again only if more endpoints were declared since. */
export function openApiDocument(serverUrl = '/api/v1') {
  const endpoints = registeredEndpoints().length;
  const cached = built.get(serverUrl);
  if (cached?.endpoints === endpoints) return cached.document;
  const document = buildDocument(serverUrl);
  built.set(serverUrl, { endpoints, document });
  return document;
}

function buildDocument(serverUrl: string) {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const e of registeredEndpoints()) {
    const op = operation(e, components, serverUrl);
    // Client generators name methods after operationId: two operations with one name would clash silently.
    if (operationIds.has(op.operationId)) throw new Error(`OpenAPI: duplicate operationId ${op.operationId} (${e.method} ${e.path})`);
    operationIds.add(op.operationId);
    (paths[e.path] ??= {})[e.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description:
        'One credential, many model providers. OpenAI-compatible chat completions plus account, organization, billing and key management. ' +
        'Every error has the body { "error": { "code", "message", "metadata" } } and every response carries x-request-id.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    // Listed once, in order of first use: renderers group operations by these.
    tags: [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as { tags: string[] }).tags)))].map((name) => ({ name })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (sk-sb-v1-…) or an account auth token (sb-at-v1-…)' } },
      schemas: components.schemas,
    },
    paths,
  };
}
