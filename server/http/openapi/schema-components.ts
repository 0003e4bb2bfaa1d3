// Turns zod schemas into OpenAPI 3.1 Schema Objects whose shared parts live in components/schemas.
// z.toJSONSchema() answers one self-contained JSON Schema per call, with schemas that carry
// `.meta({ id })` (and recursive ones) under a local `$defs` and `$ref: "#/$defs/X"`. Inside an OpenAPI
// document such local refs dangle (they resolve against the document root), so every definition is
// hoisted into components/schemas and every ref rewritten to point there. OpenAPI 3.1's Schema Object
// is JSON Schema 2020-12, zod's default target, so any zod schema converts without loss (null types,
// const, tuples, $ref with siblings), which the 3.0 dialect cannot express.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

export class SchemaComponents {
  /** The document's components/schemas, filled as schemas are converted. */
  readonly schemas: Record<string, JsonSchema> = {};

  /** The Schema Object for `schema`, read as a request (`input`) or a response (`output`). */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = generated;
    const defs = { ...(($defs as Record<string, JsonSchema> | undefined) ?? {}) };
    // A schema that refers to itself ($ref "#") becomes a component of its own, like any other cycle.
    const selfName = containsRef(root, '#') ? `__root` : undefined;
    if (selfName) defs[selfName] = root;
    const names = this.nameDefinitions(defs, io, selfName);
    if (selfName) return { $ref: COMPONENT_PREFIX + names.get(selfName) };
    return rewriteRefs(root, names) as JsonSchema;
  }

  /**
   * Chooses a component name for each local definition: its zod id when that name is free or holds the
   * same schema, else a variant (the request and response readings of one schema differ when it has
   * defaults or transforms). Renaming one definition changes the text of those referring to it, so the
   * choice is repeated until no name changes.
   */
  private nameDefinitions(defs: Record<string, JsonSchema>, io: 'input' | 'output', selfName?: string): Map<string, string> {
    const names = new Map(Object.keys(defs).map((id) => [id, baseName(id, io, selfName)]));
    for (let round = 0; round <= Object.keys(defs).length; round++) {
      let changed = false;
      for (const [id, def] of Object.entries(defs)) {
        const text = JSON.stringify(rewriteRefs(def, names));
        const current = names.get(id)!;
        if (this.fits(current, text)) continue;
        names.set(id, this.freshName(current, io, text));
        changed = true;
      }
      if (!changed) break;
    }
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id)!] = rewriteRefs(def, names) as JsonSchema;
    return names;
  }

  private fits(name: string, text: string): boolean {
    const existing = this.schemas[name];
    return existing === undefined || JSON.stringify(existing) === text;
  }

  private freshName(name: string, io: 'input' | 'output', text: string): string {
    const variant = `${name}${io === 'input' ? 'Input' : 'Output'}`;
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? variant : `${variant}${n}`;
      if (this.fits(candidate, text)) return candidate;
    }
  }
}

/** Component names must match ^[a-zA-Z0-9.\-_]+$; zod names unnamed recursive schemas __schema0, __schema1… */
function baseName(id: string, io: 'input' | 'output', selfName?: string): string {
  if (id === selfName || /^__schema\d+$/.test(id)) return io === 'input' ? 'RecursiveInput' : 'RecursiveOutput';
  return id.replace(/[^a-zA-Z0-9._-]/g, '_');
}

function containsRef(node: unknown, ref: string): boolean {
  if (Array.isArray(node)) return node.some((item) => containsRef(item, ref));
  if (!node || typeof node !== 'object') return false;
  return Object.entries(node).some(([key, value]) => (key === '$ref' ? value === ref : containsRef(value, ref)));
}

function rewriteRefs(node: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, names));
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') out[key] = rewriteRef(value, names);
    else out[key] = rewriteRefs(value, names);
  }
  return out;
}

function rewriteRef(ref: string, names: Map<string, string>): string {
  if (ref === '#') return COMPONENT_PREFIX + names.get('__root');
  const local = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  if (!local) return ref;
  const name = names.get(decodeURIComponent(local[1]));
  if (!name) throw new Error(`OpenAPI: dangling schema reference ${ref}`);
  return COMPONENT_PREFIX + name;
}
