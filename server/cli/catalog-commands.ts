// CLI commands for the routing catalog: catalog:list, catalog:import FILE, catalog:export. Like every command they run in the CLI process or inside the running server (embedded
// database); a file to import is read where the CLI runs (prepare), so a relative path means the CLI's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { env } from '@/server/env';
import { AppError, badRequestFromZod } from '@/server/errors';
import { ALL_SOURCES, exportCatalog } from '@/server/routing/export-catalog';
import { currentRouting } from '@/server/routing/current-routing';
import { importCatalog } from '@/server/routing/import-catalog';
import { safeString } from '@/server/validation/fields';
import type { EntrySource } from '@/server/routing/config-schema';
import type { RoutingModel } from '@/server/routing/routing-table';
import type { Command } from './commands';

function parse<T extends z.ZodType>(schema: T, args: Record<string, unknown>): z.infer<T> {
  const r = schema.safeParse(args);
  if (!r.success) throw badRequestFromZod(r.error);
  return r.data;
}

/** $/M as configured: at least 2 decimals, up to the 6 a price may have ($0.075, $1.25, $10.00). */
function usd(microsPerMillion: number): string {
  const [whole, fraction = ''] = (microsPerMillion / 1e6).toFixed(6).replace(/0+$/, '').split('.');
  return `$${whole}.${fraction.padEnd(2, '0')}`;
}

function listRow(m: RoutingModel): string[] {
  const first = m.endpoints[0];
  return [
    m.id,
    m.source,
    m.enabled ? 'yes' : 'no',
    m.endpoints.map((e) => `${e.provider.id}:${e.upstreamModel}`).join(', '),
    first ? `${usd(first.inputPrice)} / ${usd(first.outputPrice)}` : '-',
  ];
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}

const sourcesOption = safeString()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return [...ALL_SOURCES];
    const list = v.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = list.filter((s) => !(ALL_SOURCES as readonly string[]).includes(s));
    if (bad.length) ctx.addIssue({ code: 'custom', message: `--source: unknown source ${bad.join(', ')} (one or more of ${ALL_SOURCES.join(', ')})` });
    return list as EntrySource[];
  });

export const CATALOG_COMMANDS: Command[] = [
  {
    name: 'catalog:list',
    summary: 'List the models of the routing table (every source) with endpoints and prices',
    usage: 'catalog:list [--source S]',
    options: { source: { type: 'string', description: `only these sources, comma-separated (${ALL_SOURCES.join(', ')})` } },
    async run(args) {
      const a = parse(z.object({ source: sourcesOption }), args);
      const current = await currentRouting();
      const models = current.table.list.filter((m) => a.source.includes(m.source));
      const rows = [['MODEL', 'SOURCE', 'ENABLED', 'ENDPOINTS (provider:upstream_model)', 'PRICE $/M (in / out)'], ...models.map(listRow)];
      const warnings = current.table.warnings.map((w) => `warning: ${w}`);
      return {
        data: { models: models.map((m) => ({ id: m.id, source: m.source, enabled: m.enabled, endpoints: m.endpoints.map((e) => ({ provider: e.provider.id, upstream_model: e.upstreamModel, input_price_micros: e.inputPrice, output_price_micros: e.outputPrice })) })), warnings: current.table.warnings },
        text: [table(rows), '', `${models.length} model(s)`, ...warnings].join('\n'),
      };
    },
  },
  {
    name: 'catalog:import',
    summary: 'Add or replace operators\' providers and models from a YAML or JSON file (SWITCHBOARD_CONFIG\'s shape)',
    usage: 'catalog:import FILE',
    options: {},
    positional: { name: 'file', description: 'the YAML or JSON file to import' },
    prepare(args) {
      if (typeof args.file !== 'string' || args.text !== undefined) return args;
      const file = path.resolve(args.file);
      try {
        return { ...args, file, text: readFileSync(file, 'utf8') };
      } catch (err) {
        throw new AppError('bad_request', `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    },
    async run(rawArgs) {
      const args = this.prepare!(rawArgs);
      const a = parse(z.object({ file: safeString({ error: 'Give the file to import: catalog:import FILE' }), text: z.string() }), args);
      const r = await importCatalog({ text: a.text, fileName: a.file, current: await currentRouting() });
      const kept = r.kept_keys.length ? `\nKept stored keys the file does not list (an import never deletes a secret): ${r.kept_keys.join(', ')}` : '';
      return {
        data: { ...r },
        text: `Imported ${r.providers} provider(s) and ${r.models} model(s) from ${a.file}: ${r.created} new, ${r.updated} replaced (routing revision ${r.revision}; servers pick it up within 5 s)${kept}`,
      };
    },
  },
  {
    name: 'catalog:export',
    summary: 'Print the routing table as YAML in SWITCHBOARD_CONFIG\'s shape (keys never printed)',
    usage: 'catalog:export [--source S]',
    options: { source: { type: 'string', description: `only these sources, comma-separated (${ALL_SOURCES.join(', ')})` } },
    async run(args) {
      const a = parse(z.object({ source: sourcesOption }), args);
      const yaml = exportCatalog({ current: await currentRouting(), env: env(), sources: a.source });
      return { data: { yaml }, text: yaml.trimEnd() };
    },
  },
];
