// `npm run build`: the Next.js app (.next/), the production server (dist/server.js) and the CLI (dist/cli.js),
// both bundled with esbuild (node_modules stay external). `npm start` runs this when no build exists.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { prismaWasmFile } from './prisma-wasm-file.mjs';

const t0 = Date.now();
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
console.log('› Building the Next.js app (next build)…');
const r = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
if (r.status !== 0) process.exit(r.status ?? 1);

console.log('› Bundling the server and the CLI (dist/server.js, dist/cli.js)…');
mkdirSync('dist', { recursive: true });
// ESM, because the generated Prisma client uses import.meta.url.
writeFileSync('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');
// dist/cli.js is the CLI (server/cli/main.ts) bundled the same way: it starts in half the time tsx needs to compile
// it, which the e2e fixtures (one or two CLI calls per test) feel. `npm run cli` still runs the sources with tsx.
for (const [entry, outfile] of [
  ['server/main.ts', 'dist/server.js'],
  ['server/cli/main.ts', 'dist/cli.js'],
]) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    tsconfig: 'tsconfig.json',
    plugins: [prismaWasmFile('dist')],
    banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
  });
}
console.log(`✓ Build finished in ${((Date.now() - t0) / 1000).toFixed(0)}s`);
