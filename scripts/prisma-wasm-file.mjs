// An esbuild plugin for dist/server.js: Prisma's query compiler (WebAssembly) ships as base64 text in a module
// (`@prisma/client/runtime/query_compiler_*.postgresql.wasm-base64.mjs`, `export { wasm }`), which the generated
// client imports once and decodes. Loaded as it is, Node keeps that text twice for the life of the process: the
// module's source and its exported string, 2 × 4.6 MB of heap. Here the build decodes it once into
// dist/<name>.wasm, and the import becomes a module whose `wasm` turns into the same base64 text only when the
// client decodes it (Buffer.from(value, 'base64') asks for Symbol.toPrimitive), so the text is garbage at once.
// A Prisma version that names the module differently is left alone (the import stays external, as before).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MODULE = /^@prisma\/client\/runtime\/(query_compiler_[A-Za-z_]+\.postgresql)\.wasm-base64\.mjs$/;

export function prismaWasmFile(outDir) {
  return {
    name: 'prisma-wasm-file',
    setup(build) {
      build.onResolve({ filter: MODULE }, (args) => ({ path: args.path, namespace: 'prisma-wasm-file' }));
      build.onLoad({ filter: /.*/, namespace: 'prisma-wasm-file' }, (args) => {
        const name = MODULE.exec(args.path)[1];
        const source = readFileSync(path.join('node_modules', `${args.path.slice(0, -'.mjs'.length)}.mjs`), 'utf8');
        const base64 = /const wasm = "([A-Za-z0-9+/=]+)";/.exec(source)?.[1];
        if (!base64) throw new Error(`prisma-wasm-file: no base64 "wasm" constant in ${args.path} (a new Prisma layout?)`);
        const bytes = Buffer.from(base64, 'base64');
        if (bytes.subarray(0, 4).toString('latin1') !== '\0asm') throw new Error(`prisma-wasm-file: ${args.path} is not WebAssembly`);
        mkdirSync(outDir, { recursive: true });
        writeFileSync(path.join(outDir, `${name}.wasm`), bytes);
        return {
          loader: 'js',
          contents: [
            "import { readFileSync } from 'node:fs';",
            `export const wasm = { [Symbol.toPrimitive]: () => readFileSync(new URL('./${name}.wasm', import.meta.url)).toString('base64') };`,
          ].join('\n'),
        };
      });
    },
  };
}
