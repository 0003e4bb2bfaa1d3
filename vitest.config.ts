import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TEST_FILES } from './test/isolated-test-files.mjs';

const TEST_FILES = ['server/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'];
const NEVER = ['node_modules', 'e2e', '.next', 'dist'];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: path.resolve(__dirname) + '/' },
      // next-auth imports "next/server" without an extension; Next ships no exports map, so plain Node ESM
      // resolution (which Vitest uses for dependencies) needs the file name.
      { find: /^next\/server$/, replacement: 'next/server.js' },
    ],
  },
  // Let Vite resolve next-auth's imports (through the alias above) instead of Node.
  ssr: { noExternal: ['next-auth', '@auth/core'] },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: ONE on a 2-core CI machine. Test files make their own
    // databases and servers and mostly wait on PostgreSQL, PGlite's thread or a socket, so two run side by side
    // on two cores.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/file-setup.ts'],
    projects: [
      {
        extends: true,
        // A worker's files share its process and module cache: the server is imported once per worker, not once
        // per file (that was ~280 s of a ~1,000 s run). test/file-setup.ts puts back, after each file, what a file
        // leaves in the process (the process runtime and database, process.env).
        test: { name: 'shared', isolate: false, include: TEST_FILES, exclude: [...ISOLATED_TEST_FILES, ...NEVER] },
      },
      // vi.mock replaces a module in the module cache: with a shared cache the mock would reach later files.
      { extends: true, test: { name: 'isolated', isolate: true, include: ISOLATED_TEST_FILES, exclude: NEVER } },
    ],
  },
});
