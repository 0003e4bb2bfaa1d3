// Stack traces in the logs name server/*.ts, not the bundle, without `--enable-source-maps`.
// Node's flag parses and keeps the source map of every module that has one as it loads: with Next's runtime and
// chunks that was ~35 MB of the server's heap (~20–30 MB of RSS), held for the life of the process. And once Next
// is loaded it replaces Error.prepareStackTrace with an unmapped one, so `err.stack` (what the logs print) was not
// mapped anyway. Here a stack is mapped when it is logged: each frame of our code (not node_modules) whose file has
// a `.map` beside it is looked up in that map (node:module's SourceMap), read on the first error that needs it.
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';

const maps = new Map<string, SourceMap | null>();
// `    at fn (/abs/file.js:12:34)` or `    at /abs/file.js:12:34`
const FRAME = /^(\s+at (?:.*? \()?)((?:file:\/\/)?\/[^():]+\.js):(\d+):(\d+)(\)?)$/;

function mapFor(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map !== undefined) return map;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
  } catch {
    map = null; // no map, or an unreadable one: the frame stays as it is
  }
  maps.set(file, map);
  return map;
}

/** `stack` with each frame in a file that has a source map replaced by its original position (others unchanged). */
export function sourceMappedStack(stack: string): string {
  if (!stack.includes('.js:')) return stack;
  return stack
    .split('\n')
    .map((line) => {
      const m = FRAME.exec(line);
      if (!m) return line;
      const file = m[2]!.startsWith('file://') ? new URL(m[2]!).pathname : m[2]!;
      // Our code only: a dependency's map (Next's runtime: 4 MB of JSON) would stay in memory after one error.
      if (file.includes('/node_modules/')) return line;
      const map = mapFor(file);
      const entry = map?.findEntry(Number(m[3]) - 1, Number(m[4]) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
      if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return line;
      const original = entry.originalSource;
      // esbuild names sources relative to the map; a bundler's own scheme (turbopack://…) is printed as it is
      const source = original.startsWith('file://')
        ? path.relative(process.cwd(), new URL(original).pathname)
        : /^[a-z][a-z0-9+.-]*:/i.test(original)
          ? original
          : path.relative(process.cwd(), path.resolve(path.dirname(file), original));
      return `${m[1]}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${m[5]}`;
    })
    .join('\n');
}
