// `npm run build`: the Next.js app (.next/) and the production server (dist/server.js, bundled with
// esbuild; node_modules stay external). `npm start` runs this when no build exists.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { prismaWasmFile } from './prisma-wasm-file.mjs';

const t0 = Date.now();
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
console.log('› Building the Next.js app (next build)…');
const r = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
if (r.status !== 0) process.exit(r.status ?? 1);

console.log('› Bundling the server (dist/server.js)…');
mkdirSync('dist', { recursive: true });
// ESM, because the generated Prisma client uses import.meta.url.
writeFileSync('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');
await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server.js',
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
console.log(`✓ Build finished in ${((Date.now() - t0) / 1000).toFixed(0)}s`);
