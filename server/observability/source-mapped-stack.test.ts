import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { sourceMappedStack } from './source-mapped-stack';

// A bundle built as scripts/build.mjs builds dist/server.js (esbuild, a .map beside it), loaded without
// --enable-source-maps: the stack names the bundle until it is mapped.
let dir: string;
let boom: () => Error;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-stack-'));
  writeFileSync(path.join(dir, 'thrower.ts'), 'export function boom(): Error {\n  // the error is made on line 3, column 10\n  return new Error("boom");\n}\n');
  await build({ entryPoints: [path.join(dir, 'thrower.ts')], bundle: true, platform: 'node', format: 'cjs', sourcemap: true, outfile: path.join(dir, 'out', 'bundle.js'), logLevel: 'silent' });
  boom = (createRequire(import.meta.url)(path.join(dir, 'out', 'bundle.js')) as { boom: () => Error }).boom;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sourceMappedStack', () => {
  it('replaces a bundle frame by its place in the TypeScript source', () => {
    const stack = boom().stack!;
    expect(stack.split('\n')[1]).toContain(path.join(dir, 'out', 'bundle.js'));
    const frame = sourceMappedStack(stack).split('\n')[1]!;
    expect(frame).toMatch(/^\s+at boom \(.*thrower\.ts:3:10\)$/);
    expect(frame).not.toContain('bundle.js');
  });

  it("leaves frames without a map, dependencies' frames, and text that is not a frame, as they are", () => {
    const next = path.resolve('node_modules/next/dist/compiled/next-server/app-page.runtime.prod.js'); // has a .map
    const stack = `Error: x\n    at native (node:internal/process/task_queues:95:5)\n    at /no/such/file.js:1:2\n    at render (${next}:2:100)\nnot a frame`;
    expect(sourceMappedStack(stack)).toBe(stack);
  });

  it('is what the logger writes for an error', () => {
    const lines: string[] = [];
    createLogger({ destination: { write: (l: string) => void lines.push(l) } }).error({ err: boom() }, 'failed');
    const entry = JSON.parse(lines[0]!) as { err: { message: string; stack: string } };
    expect(entry.err.message).toBe('boom');
    expect(entry.err.stack).toMatch(/thrower\.ts:3:10\)/);
  });
});
