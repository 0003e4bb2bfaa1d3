// ESLint 9 flat config. eslint-config-next 16 ships flat configs as arrays: `core-web-vitals` (React,
// hooks, a11y, import, Next rules) and `typescript` (typescript-eslint recommended).
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import { ISOLATED_TEST_FILES } from './test/isolated-test-files.mjs';

// Dependencies point one way: app → server/{http,trpc} → server/<domain> → server/db (STYLE.md). Pages,
// route handlers and tRPC procedures reach data only through a service, never through the client.
const dbImportMessage =
  'Do not import the database layer here. Call a service in server/<domain>/ (e.g. server/api-keys/create-api-key.ts) ' +
  'that returns a DTO; routes and tRPC procedures stay thin (see STYLE.md, "one service layer").';

const dbImportPatterns = [
  // `@/server/db`, `@/server/db/generated/...`, type-only imports included.
  { regex: '^@/server/db(/.*)?$', message: dbImportMessage },
  // Relative paths that spell the folder out: `../../server/db`, `../server/db/client`.
  { regex: '^(\\.{1,2}/)+(.*/)?server/db(/.*)?$', message: dbImportMessage },
];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([
    '.next/**',
    'dist/**',
    'server/db/generated/**',
    'node_modules/**',
    'e2e/artifacts/**',
    'test-results/**',
    'playwright-report/**',
    'coverage/**',
    '.data/**',
    'next-env.d.ts',
  ]),
  {
    name: 'switchboard/conventions',
    rules: {
      // A leading underscore marks a binding unused on purpose (`const [_, second] = pair`).
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read loosely typed wire formats (SSE chunks, fixture JSON); `any` there is honest.
    name: 'switchboard/tests',
    files: ['**/*.test.ts', 'test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Test files share their worker's module cache (vitest.config.ts, isolate: false): a module mock would stay
    // in it for the files that run next. A file that must mock is listed in test/isolated-test-files.mjs.
    name: 'switchboard/no-module-mocks-in-shared-tests',
    files: ['**/*.test.ts'],
    ignores: ISOLATED_TEST_FILES,
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'hoisted'].map((property) => ({
          object: 'vi',
          property,
          message: 'Test files share a module cache; list this file in test/isolated-test-files.mjs to mock modules, or pass the dependency in.',
        })),
      ],
    },
  },
  {
    // Playwright fixtures hand values over with a callback named `use`, which the React hooks rule
    // mistakes for React's `use()`. There is no React in e2e/.
    name: 'switchboard/e2e',
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    name: 'switchboard/no-db-in-app',
    files: ['app/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: dbImportPatterns }],
    },
  },
  {
    name: 'switchboard/no-db-in-trpc',
    files: ['server/trpc/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...dbImportPatterns,
            // From inside server/trpc/ the database folder is one or more levels up: `../db`, `../../db/x`.
            { regex: '^(\\.\\./)+db(/.*)?$', message: dbImportMessage },
          ],
        },
      ],
    },
  },
]);
