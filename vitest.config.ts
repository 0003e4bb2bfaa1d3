import path from 'node:path';
import { defineConfig } from 'vitest/config';

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
    include: ['server/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules', 'e2e', '.next', 'dist'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: ONE on a 2-core CI machine. Test files are isolated
    // (each makes its own databases and servers) and mostly wait on PostgreSQL, PGlite's thread or a socket,
    // so two run side by side on two cores.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
  },
});
