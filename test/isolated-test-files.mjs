// Test files that mock modules (vi.mock, vi.doMock). Vitest runs each in a process of its own (vitest.config.ts,
// project "isolated"); every other file shares its worker's module cache, where a mock would reach later files.
// ESLint refuses vi.mock anywhere else (eslint.config.mjs), so a new mock lands here or not at all.
export const ISOLATED_TEST_FILES = ['server/catalog/landing-models.test.ts', 'server/cli/upstream-health.test.ts'];
