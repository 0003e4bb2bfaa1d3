import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { prismaWasmFile } from './prisma-wasm-file.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-prisma-wasm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prismaWasmFile (esbuild plugin of scripts/build.mjs)', () => {
  it("bundles the query compiler as a .wasm file beside the bundle, and its `wasm` decodes to the same bytes as Prisma's base64", async () => {
    const specifier = '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs';
    writeFileSync(path.join(dir, 'entry.mjs'), `export { wasm } from '${specifier}';\n`);
    await build({ entryPoints: [path.join(dir, 'entry.mjs')], outfile: path.join(dir, 'out', 'bundle.mjs'), bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent', plugins: [prismaWasmFile(path.join(dir, 'out'))] });

    const bundle = readFileSync(path.join(dir, 'out', 'bundle.mjs'), 'utf8');
    expect(bundle).not.toContain('wasm-base64.mjs"'); // no longer an external import
    expect(bundle.length).toBeLessThan(10_000); // and not the 4.6 MB of text either
    expect(existsSync(path.join(dir, 'out', 'query_compiler_fast_bg.postgresql.wasm'))).toBe(true);

    const { wasm } = (await import(pathToFileURL(path.join(dir, 'out', 'bundle.mjs')).href)) as { wasm: unknown };
    expect(typeof wasm).toBe('object'); // the text exists only while it is decoded
    const original = (await import(specifier)) as { wasm: string };
    const decoded = Buffer.from(wasm as string, 'base64'); // what the generated client does (decodeBase64AsWasm)
    expect(decoded.equals(Buffer.from(original.wasm, 'base64'))).toBe(true);
    expect(WebAssembly.validate(decoded)).toBe(true);
  });
});
