// SWITCHBOARD_CONFIG (and `catalog:import FILE`): a YAML or JSON file → a validated RoutingFile, or a
// ConfigFileError listing every problem as `file:line:column: field: message`. Both formats have their lines
// found by the yaml parser with a LineCounter (JSON is YAML's flow style), so the schema's issues, which only
// know a field's path, can be given the line an operator has to fix.
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { BUILTIN_PROVIDER_IDS } from './builtin-providers';
import { checkRoutingFile } from './check-routing-file';
import { ConfigFileError, formatFieldPath, type ConfigIssue } from './config-file-error';
import { routingFileSchema, type RoutingFile } from './config-schema';
import { locateField } from './locate-yaml-field';

export interface LoadConfigOptions {
  /**
   * Provider ids an endpoint may name besides the file's own. Default: the built-ins. At start the caller
   * adds CUSTOM_PROVIDERS' ids, and the admin entries' when it has them (knownProviderIds in build-routing-table.ts).
   */
  knownProviders?: Iterable<string>;
}

export function loadConfigFile(path: string, options: LoadConfigOptions = {}): RoutingFile {
  return parseConfigText(readConfigText(path), path, options);
}

/** The file's text, or a ConfigFileError naming it and why it cannot be read (ENOENT, EACCES…). */
export function readConfigText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigFileError(path, [{ field: '', message: `cannot read the file (${code ?? (err as Error).message})` }]);
  }
}

export function parseConfigText(text: string, fileName: string, options: LoadConfigOptions = {}): RoutingFile {
  const fail = (issues: ConfigIssue[]): never => {
    throw new ConfigFileError(fileName, issues);
  };
  // The yaml parser is slow on big files (about a second for 5,000 models), so JSON is read by JSON.parse and
  // gets its document tree only when a problem needs a line number. (A key repeated in JSON then follows
  // JSON.parse, as every JSON tool does: the last one counts. In YAML a repeated key is an error.)
  let located: Located | undefined;
  const locate = () => (located ??= parseWithLines(text));

  const json = /\.json$/i.test(fileName);
  let data: unknown;
  if (json) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      const position = /position (\d+)/.exec((err as Error).message);
      const offset = position ? Number(position[1]) : text.length;
      fail([{ ...lineAndColumn(text, offset), field: '', message: `JSON syntax error: ${(err as Error).message.replace(/ in JSON at position.*$/, '')}` }]);
    }
  } else {
    const { doc, at } = locate();
    if (doc.errors.length > 0) fail(doc.errors.map((e) => ({ ...at(e.pos[0]), field: '', message: `YAML syntax error: ${e.message}` })));
    try {
      data = doc.contents === null ? null : doc.toJS({ maxAliasCount: 1000 });
    } catch (err) {
      fail([{ line: 1, column: 1, field: '', message: `YAML: ${(err as Error).message}` }]);
    }
  }
  if (data === null || data === undefined) {
    fail([{ line: 1, column: 1, field: '', message: 'the file holds no configuration (an empty configuration is `providers: []`)' }]);
  }

  const parsed = routingFileSchema.safeParse(data);
  if (!parsed.success) fail(sortByPlace(parsed.error.issues.flatMap((issue) => schemaIssues(locate(), issue))));
  const file = parsed.data as RoutingFile;

  const known = new Set(options.knownProviders ?? BUILTIN_PROVIDER_IDS);
  const problems = checkRoutingFile(file, known);
  if (problems.length > 0) {
    fail(sortByPlace(problems.map((p) => ({ ...place(locate(), p.path), field: formatFieldPath(p.path), message: p.message }))));
  }
  return file;
}

interface Located {
  doc: Document;
  lineCounter: LineCounter;
  at: (offset: number) => { line: number; column: number };
}

function parseWithLines(text: string): Located {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  return {
    doc,
    lineCounter,
    at: (offset) => {
      const { line, col } = lineCounter.linePos(offset);
      return { line, column: col };
    },
  };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function place({ doc, lineCounter }: Located, path: readonly PropertyKey[], atKey = false): { line: number; column: number } {
  const { line, column } = locateField(doc, lineCounter, path, atKey);
  return { line, column };
}

/** One zod issue → the problems an operator reads: an unknown field each at its own key, a missing one as such. */
function schemaIssues(located: Located, issue: z.core.$ZodIssue): ConfigIssue[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const path = [...issue.path, key];
      return { ...place(located, path, true), field: formatFieldPath(path), message: 'unknown field' };
    });
  }
  const location = locateField(located.doc, located.lineCounter, issue.path);
  const missing = !location.found && issue.code === 'invalid_type';
  const message = missing ? `required field missing (expected ${issue.expected})` : issue.message.replace(/^Invalid input: /, '');
  return [{ line: location.line, column: location.column, field: formatFieldPath(issue.path), message }];
}

function sortByPlace(issues: ConfigIssue[]): ConfigIssue[] {
  return issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
