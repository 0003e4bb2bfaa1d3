import { AppError } from '@/server/errors';

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/*
 * functionDeclarations[].parameters is Gemini's protobuf `Schema`, "a select subset of an OpenAPI 3.0 schema
 * object". It is parsed strictly: one unknown field anywhere fails the WHOLE request with `Invalid JSON payload
 * received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters'`. A blocklist
 * would trail behind whatever the next MCP server emits, so we keep the documented v1beta fields (below) and
 * drop the rest. Known-unsupported JSON-Schema keywords this removes: $schema, $id, $comment, additionalProperties,
 * patternProperties, unevaluatedProperties, propertyNames, dependentRequired, dependentSchemas, not, if/then/else,
 * exclusiveMinimum, exclusiveMaximum, multipleOf, uniqueItems, contains, minContains, maxContains, examples,
 * readOnly, writeOnly, deprecated, contentMediaType, contentEncoding, strict. Translated rather than dropped:
 * $ref/$defs/definitions (inlined), allOf (merged), oneOf (→ anyOf), const (→ enum), type arrays and
 * null members of anyOf/enum (→ nullable), items arrays / prefixItems (→ items.anyOf). `default` is kept:
 * v1beta accepts and ignores it precisely so such schemas do not fail.
 */
const KEPT = new Set([
  'title', 'description', 'nullable', 'required', 'default', 'example', 'pattern', 'propertyOrdering',
  'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties',
]);
// The Gemini Developer API rejects other string formats ("email", "uri"…) with a 400; these are documented.
const FORMATS = new Set(['enum', 'date-time', 'float', 'double', 'int32', 'int64']);

/** A tool's JSON-Schema parameters → Gemini `parameters`, or undefined for a function without arguments. */
export function convertToolParameters(parameters: Schema | undefined, toolName: string): Schema | undefined {
  if (!parameters) return undefined;
  const converted = convertNode(parameters, { root: parameters, toolName, refs: [] });
  // Gemini rejects `{type:"object", properties:{}}` ("properties: should be non-empty for OBJECT type");
  // omitting `parameters` is how it spells a function that takes no arguments.
  const properties = converted.properties;
  if (converted.type === 'object' && (!isObject(properties) || Object.keys(properties).length === 0)) return undefined;
  return converted;
}

interface Walk {
  root: Schema;
  toolName: string;
  /** $refs being inlined above this node, to stop on recursive schemas. */
  refs: string[];
}

function convertNode(node: unknown, walk: Walk): Schema {
  if (!isObject(node)) return {}; // `true` or a non-schema: accept anything
  if (typeof node.$ref === 'string') return convertRef(node, walk);
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (KEPT.has(key)) out[key] = value;
    else if (key === 'type') applyType(out, value);
    else if (key === 'format' && typeof value === 'string' && FORMATS.has(value)) out.format = value;
    else if (key === 'properties' && isObject(value)) {
      // Walk the property map's values only: its keys are property names, never keywords to strip.
      out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convertNode(schema, walk)]));
    } else if (key === 'items') {
      out.items = Array.isArray(value) ? anyOfSchema(value, walk) : convertNode(value, walk);
    } else if (key === 'prefixItems' && Array.isArray(value) && node.items === undefined) {
      out.items = anyOfSchema(value, walk);
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) applyAnyOf(out, value, walk);
    else if (key === 'const' && typeof value === 'string') out.enum = [value];
  }
  // After the loop: a non-string enum is folded into the description, which must be set by then.
  if (Array.isArray(node.enum)) applyEnum(out, node.enum);
  if (!Array.isArray(node.allOf)) return out;
  // allOf (zod's .and(), pydantic inheritance): members merged, the node's own keywords winning.
  const merged: Schema = {};
  for (const member of node.allOf) merge(merged, convertNode(member, walk));
  merge(merged, out);
  return merged;
}

function convertRef(node: Schema, walk: Walk): Schema {
  const ref = node.$ref as string;
  if (walk.refs.includes(ref)) {
    // Gemini's Schema cannot express recursion; below the first repetition the value is left unconstrained.
    return typeof node.description === 'string' ? { description: node.description } : {};
  }
  const target = resolvePointer(walk.root, ref);
  if (target === undefined) throw new AppError('bad_request', `Tool "${walk.toolName}": cannot resolve $ref "${ref}" in its parameters`);
  const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref'));
  const inner = { ...walk, refs: [...walk.refs, ref] };
  return { ...convertNode(target, inner), ...convertNode(siblings, inner) };
}

/** Local JSON pointers only ("#/$defs/Address", "#/definitions/…", "#"): tools are sent without a base URI. */
function resolvePointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const path = ref.slice(1).split('/').slice(1).map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let current: unknown = root;
  for (const segment of path) current = isObject(current) ? current[segment] : undefined;
  return current;
}

function applyType(out: Schema, type: unknown) {
  if (!Array.isArray(type)) {
    if (typeof type === 'string') out.type = type;
    return;
  }
  const concrete = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
  if (concrete.length < type.length) out.nullable = true;
  if (concrete.length === 1) out.type = concrete[0];
  else if (concrete.length > 1) out.anyOf = concrete.map((t) => ({ type: t }));
}

function applyAnyOf(out: Schema, members: unknown[], walk: Walk) {
  const converted = members.map((m) => convertNode(m, walk));
  const concrete = converted.filter((m) => m.type !== 'null');
  if (concrete.length < converted.length) out.nullable = true;
  // `anyOf: [X, {type: null}]` (how zod and pydantic spell optional-nullable) is just a nullable X.
  if (concrete.length === 1) merge(out, concrete[0]);
  else if (concrete.length > 1) out.anyOf = concrete;
}

function anyOfSchema(members: unknown[], walk: Walk): Schema {
  const out: Schema = {};
  applyAnyOf(out, members, walk);
  return out;
}

function applyEnum(out: Schema, values: unknown[]) {
  const concrete = values.filter((v) => v !== null);
  if (concrete.length < values.length) out.nullable = true;
  if (concrete.every((v) => typeof v === 'string')) {
    out.enum = concrete;
    return;
  }
  // Gemini enums are strings only; rather than lose the constraint, tell the model in words.
  const allowed = `Allowed values: ${concrete.map((v) => JSON.stringify(v)).join(', ')}.`;
  out.description = typeof out.description === 'string' ? `${out.description} ${allowed}` : allowed;
}

function merge(into: Schema, from: Schema) {
  for (const [key, value] of Object.entries(from)) {
    if (key === 'properties' && isObject(into.properties) && isObject(value)) into.properties = { ...into.properties, ...value };
    else if (key === 'required' && Array.isArray(into.required) && Array.isArray(value)) into.required = [...new Set([...into.required, ...value])];
    else into[key] = value;
  }
}
