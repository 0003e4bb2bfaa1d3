// Generators for the malformed-request fuzz test (fuzz.spec.ts). Routes are enumerated, not listed by
// hand: every app/**/route.ts with the methods it exports, every path and method of the OpenAPI
// document, every tRPC procedure in server/trpc, and pages (server actions). fast-check then combines a
// route with broken parts: ids, query strings, cursors, methods, content types and bodies.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';

const ROOT = path.resolve(__dirname, '..', '..');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface RouteTemplate {
  /** e.g. /api/v1/organizations/{id}/members: `{name}` segments are filled by the generator. */
  path: string;
  methods: string[];
  kind: 'chat' | 'native' | 'rest' | 'trpc' | 'auth' | 'webhook' | 'page' | 'health';
}

function routeFiles(dir: string, segments: string[] = []): { segments: string[]; file: string }[] {
  const out: { segments: string[]; file: string }[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routeFiles(full, /^\(.*\)$/.test(name) ? segments : [...segments, name]));
    else if (name === 'route.ts') out.push({ segments, file: full });
  }
  return out;
}

function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|async function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) found.add(m[1]);
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) for (const n of m[1].matchAll(/as\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) found.add(n[1]);
  for (const m of source.matchAll(/export const \{([^}]*)\}\s*=\s*handlers/g)) for (const n of m[1].matchAll(/\b(GET|POST)\b/g)) found.add(n[1]);
  return [...found];
}

function kindOf(p: string): RouteTemplate['kind'] {
  if (p === '/api/v1/chat/completions') return 'chat';
  // The native formats coding agents speak, and embeddings: bodies of their own shapes (nativeBody).
  if (/^\/api\/v1\/(messages|responses|embeddings)(\/|$)/.test(p)) return 'native';
  if (p.startsWith('/api/trpc')) return 'trpc';
  if (p.startsWith('/api/auth') || p.startsWith('/api/v1/auth')) return 'auth';
  if (p.startsWith('/api/webhooks')) return 'webhook';
  if (p.startsWith('/api/health')) return 'health';
  if (p.startsWith('/api/')) return 'rest';
  return 'page';
}

/** The routes on disk, with [param] as {param} and [...rest] as {rest}. */
export function appRoutes(): RouteTemplate[] {
  return routeFiles(path.join(ROOT, 'app')).map(({ segments, file }) => {
    const p = '/' + segments.map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}')).join('/');
    return { path: p, methods: exportedMethods(readFileSync(file, 'utf8')), kind: kindOf(p) };
  });
}

/** Every path and method the OpenAPI document publishes. */
export function openApiRoutes(doc: { paths: Record<string, Record<string, unknown>> }): RouteTemplate[] {
  return Object.entries(doc.paths).map(([p, ops]) => {
    const full = `/api/v1${p}`;
    return { path: full, methods: Object.keys(ops).map((m) => m.toUpperCase()).filter((m) => (METHODS as readonly string[]).includes(m)), kind: kindOf(full) };
  });
}

/** Every tRPC procedure, as /api/trpc/<router>.<procedure>. */
export function trpcRoutes(): RouteTemplate[] {
  const root = readFileSync(path.join(ROOT, 'server/trpc/root.ts'), 'utf8');
  const files = Object.fromEntries([...root.matchAll(/import \{ (\w+) \} from '\.\/routers\/([\w-]+)'/g)].map((m) => [m[1], m[2]]));
  const out: RouteTemplate[] = [];
  for (const [, key, routerName] of root.matchAll(/^\s+(\w+): (\w+Router),$/gm)) {
    const source = readFileSync(path.join(ROOT, 'server/trpc/routers', `${files[routerName]}.ts`), 'utf8');
    for (const [, procedure] of source.matchAll(/^ {2}(\w+):/gm)) out.push({ path: `/api/trpc/${key}.${procedure}`, methods: ['GET', 'POST'], kind: 'trpc' });
  }
  return out;
}

export const PAGES: RouteTemplate[] = ['/', '/sign-in', '/sign-up', '/keys', '/device', '/terms', '/authorize', '/invite/{token}'].map((p) => ({ path: p, methods: ['GET', 'POST'], kind: 'page' as const }));

// ---- the broken parts ------------------------------------------------------------------------------

const DEEP = 3_000;
const hugeNumbers = ['1e309', '-1e309', '8640000000000001', '1e-400', '18446744073709551616', '-0', '0.0000001', '123456789012345678901234567890'];
const badStrings = ['\u0000', 'a\u0000b', '\uD800', '\u202E', "'; DROP TABLE \"User\";--", '../../etc/passwd', '%00', '%', 'x'.repeat(5_000), '🙂'.repeat(200), ' ', ''];
const badDates = ['+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '0000-01-01', '9999-12-31T23:59:59.999Z', '2026-02-30', 'yesterday', '1e15', '8.64e15'];

/** encodeURIComponent, which refuses lone surrogates: those go out as the raw bytes a client could send. */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

/** A path segment where an id goes. */
export const segment = fc.oneof(
  fc.constantFrom('cmabc123', 'me', 'gen-1', '%00', 'a%00b', '%ZZ', '..', '%2F', 'x'.repeat(300), '%F0%9F%99%82', '-1', '0', 'null', '%E2%80%AE'),
  fc.string({ minLength: 1, maxLength: 20 }).map(encode),
);

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const cursor = fc.oneof(
  fc.constantFrom(b64('999999999999999:gen-1'), b64('1700000000000:a\u0000'), b64('+275760-09-13T00:00:00.000Z|pay_1'), b64('2026-01-01T00:00:00Z|\u0000'), '!!!', '%00', b64('x'.repeat(190))),
  fc.string({ maxLength: 60 }).map(b64),
);

const queryValue = fc.oneof(fc.constantFrom(...badStrings, ...badDates, ...hugeNumbers, 'true', '[]', '{}'), cursor, fc.string({ maxLength: 30 }));
const queryKey = fc.constantFrom('cursor', 'limit', 'from', 'to', 'model', 'status', 'group_by', 'interval', 'account_id', 'user_id', 'api_key_id', 'id', 'input', 'batch', 'callbackUrl', 'x\u0000');

export const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&') : ''));

const jsonLeaf = fc.oneof(fc.constantFrom(...badStrings, ...badDates), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.bigInt().map((b) => b.toString()));
const fieldNames = ['name', 'model', 'messages', 'input', 'content', 'output', 'summary', 'encrypted_content', 'previous_response_id', 'type', 'tool_choice', 'system', 'amount', 'credit_limit', 'expires_at', 'allowed_models', 'email', 'password', 'role', 'emails', 'seats', 'plan_id', 'code', 'account_id', 'member_ids', 'threshold', 'enabled', 'token', 'device_code', 'settings', 'slug', 'tools', 'response_format', 'stream', 'max_tokens', 'limit_reset', 'version', 'idempotency_key', '0', 'json'];
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, jsonLeaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...fieldNames), tie('value'), { maxKeys: 4 })),
})).value;

const chatBody = fc.record({
  model: fc.oneof(fc.constantFrom('switchboard/echo', 'openai/gpt-4o-mini', 'nope/none', 'switchboard/echo\u0000'), jsonLeaf),
  messages: fc.oneof(fc.constant([{ role: 'user', content: 'hi' }]), jsonValue),
  stream: fc.oneof(fc.boolean(), jsonLeaf),
  max_tokens: fc.oneof(fc.integer(), jsonLeaf),
  tools: fc.oneof(fc.constant(undefined), jsonValue),
});

// The native formats: a valid request with ONE broken part — a known input item (Responses) or content block
// (Messages) with a field of the wrong type or missing, or one top-level field broken. A body broken in several
// places is refused for the first and never reaches the code that handles items.
const RESPONSES_ITEMS: Record<string, unknown>[] = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
  { role: 'user', content: 'hi' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x' }] },
  { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
  { type: 'custom_tool_call', call_id: 'call_2', name: 'g', input: 'x' },
  { type: 'custom_tool_call_output', call_id: 'call_2', output: 'ok' },
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'x' }], encrypted_content: 'abc' },
];
const MESSAGES_BLOCKS: Record<string, unknown>[] = [
  { type: 'text', text: 'hi' },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
  { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
  { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' },
  { type: 'thinking', thinking: 'x', signature: 'sig' },
];
/** A broken value for a field: of another type, NUL, deep, or absent (undefined: JSON drops the key). */
const brokenValue = fc.oneof(jsonLeaf, jsonValue, fc.constantFrom(undefined, null, [null], 'x', 5, { a: 1 }));
/** One of `valid`, with one of its fields (or a field of its first nested object) broken. */
function withOneBrokenField(valid: Record<string, unknown>[]) {
  return fc.tuple(fc.constantFrom(...valid), fc.nat(), fc.boolean(), brokenValue).map(([item, n, nested, value]) => {
    const keys = Object.keys(item);
    const key = keys[n % keys.length]!;
    const inner = Array.isArray(item[key]) ? (item[key] as unknown[])[0] : undefined;
    if (nested && inner && typeof inner === 'object') {
      const innerKeys = Object.keys(inner);
      return { ...item, [key]: [{ ...inner, [innerKeys[n % innerKeys.length]!]: value }] };
    }
    return { ...item, [key]: value };
  });
}
const oneOrTheOther = <T>(valid: T[], broken: fc.Arbitrary<T>) => fc.array(fc.oneof(fc.constantFrom(...valid), broken), { minLength: 1, maxLength: 3 });
const responsesExtra = fc.oneof(
  fc.constant({}),
  fc.constant({ stream: true }),
  fc.record({ previous_response_id: fc.oneof(fc.constantFrom('resp_\u0000', 'resp_missing', 'x'.repeat(300)), jsonLeaf) }),
  fc.record({ tool_choice: brokenValue }),
  fc.record({ tools: fc.oneof(fc.constant([{ type: 'function', parameters: {} }]), fc.array(brokenValue, { maxLength: 2 })) }),
  fc.record({ model: fc.oneof(fc.constantFrom('switchboard/echo\u0000', 'x'.repeat(300)), jsonLeaf) }),
  fc.record({ instructions: brokenValue }),
  fc.record({ reasoning: brokenValue }),
);
const messagesExtra = fc.oneof(
  fc.constant({}),
  fc.constant({ stream: true }),
  fc.record({ max_tokens: fc.oneof(fc.constantFrom(-1, 1.5, 0), jsonLeaf) }),
  fc.record({ system: brokenValue }),
  fc.record({ tools: fc.array(brokenValue, { maxLength: 2 }) }),
  fc.record({ tool_choice: brokenValue }),
  fc.record({ thinking: brokenValue }),
  fc.record({ model: fc.oneof(fc.constantFrom('switchboard/echo\u0000', 'x'.repeat(300)), jsonLeaf) }),
);

/** A Responses API request with one broken part. */
export const responsesBody = fc
  .tuple(oneOrTheOther(RESPONSES_ITEMS, withOneBrokenField(RESPONSES_ITEMS)), responsesExtra)
  .map(([input, extra]) => ({ model: 'switchboard/echo', input, ...extra }));
/** A Messages API request with one broken part. */
export const messagesBody = fc
  .tuple(oneOrTheOther(MESSAGES_BLOCKS, withOneBrokenField(MESSAGES_BLOCKS)), messagesExtra)
  .map(([content, extra]) => ({ model: 'switchboard/echo', max_tokens: 16, messages: [{ role: 'user', content }], ...extra }));
/** A body in the shape of the Responses or Messages API, with one broken part (for the native routes). */
export const nativeBody = fc.oneof(responsesBody, messagesBody);

/** Raw body text: broken JSON, wrong types, huge numbers, NUL, deep nesting, or a giant body. */
export const body = fc.oneof(
  { weight: 4, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 2, arbitrary: chatBody.map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: nativeBody.map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.constantFrom('{', '{"name":', '[1,2', 'nul', '{"a":1}}', '\u0000', '{"name":"\\u0000"}', '\uFEFF{}', '{"__proto__":{"x":1}}', 'name=x&amount=5') },
  { weight: 1, arbitrary: fc.constantFrom(...hugeNumbers).map((n) => `{"amount":${n},"credit_limit":${n},"seats":${n},"limit":${n},"max_tokens":${n},"expires_at":${n}}`) },
  { weight: 1, arbitrary: fc.constantFrom('[', '{"a":').map((open) => `{"name":"deep","settings":${open.repeat(DEEP)}1${(open === '[' ? ']' : '}').repeat(DEEP)}}`) },
  {
    weight: 1,
    arbitrary: fc.constant(
      `{"model":"switchboard/echo","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${'{"type":"object","properties":{"a":'.repeat(DEEP)}{}${'}}'.repeat(DEEP)}}}]}`,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(2, 30).map((mb) => `{"name":"${'a'.repeat(mb * 1024 * 1024)}"}`) },
  { weight: 1, arbitrary: fc.constant('') },
);

export const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '', '*/*');
export const badMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'];
export const transfer = fc.constantFrom<'length' | 'chunked'>('length', 'length', 'chunked');
export const auth = fc.constantFrom<'key' | 'session' | 'none' | 'garbage'>('key', 'key', 'session', 'none', 'garbage');
