// Whether the production build is missing or older than the sources it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'components', 'server', 'proxy.ts', 'prisma/schema.prisma', 'next.config.mjs', 'tailwind.config.ts', 'package-lock.json', 'scripts/build.mjs', 'scripts/prisma-wasm-file.mjs'];
const SKIP = new Set(['node_modules', 'generated', '__fixtures__']);

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return /\.test\.ts$/.test(p) ? 0 : st.mtimeMs;
  let max = 0;
  for (const name of readdirSync(p)) if (!SKIP.has(name)) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

export function buildReason(root) {
  const outputs = ['.next/BUILD_ID', 'dist/server.js', 'dist/cli.js'].map((f) => path.join(root, f));
  const missing = outputs.filter((f) => !existsSync(f));
  if (missing.length) return 'no build found';
  const builtAt = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const changed = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
  return changed > builtAt ? 'sources changed since the last build' : null;
}
