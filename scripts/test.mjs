#!/usr/bin/env node
// `npm test`: every test, in order, stopping at the first failing step.
//
//  1. `tsc --noEmit`        type check (strict)
//  2. `eslint .`            lint, including the rule that keeps server/db out of app/ and server/trpc/
//  3. `npm run build`       when the build is missing or older than the sources (scripts/needs-build.mjs): the
//                           production server's tests in Vitest (test/production-server.ts) need it, and
//                           the e2e step then finds it made
//  4. `npx vitest run`      unit and integration tests (*.test.ts, see vitest.config.ts)
//  5. `npm run test:e2e`    Playwright against the production server (scripts/e2e.mjs)
//
// Exits with the failing step's code. The last line is always `N passed, M failed`, summed from
// Vitest's and Playwright's JSON reports, for CI to read. A step that fails without reporting a failed
// test (a crash, a server that never got healthy, a broken config) counts as one failure, so the line
// never reads `0 failed` for a red run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildReason } from './needs-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-'));
const vitestReport = path.join(reportDir, 'vitest.json');
// Written by the JSON reporter configured in playwright.config.ts.
const playwrightReport = path.join(root, 'e2e', 'artifacts', 'results.json');

const totals = { passed: 0, failed: 0 };

const steps = [
  // Static checks first: they are cheap and a type error or a forbidden import is a real failure.
  { name: 'typecheck', command: 'npx', args: ['tsc', '--noEmit', '-p', '.'], before: () => {}, count: () => undefined },
  { name: 'lint', command: 'npx', args: ['eslint', '.', '--max-warnings=0'], before: () => {}, count: () => undefined },
  { name: 'build', command: process.execPath, args: ['scripts/build.mjs'], skip: () => buildReason(root) === null, before: () => {}, count: () => undefined },
  {
    name: 'vitest',
    command: 'npx',
    args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
    before: () => rmSync(vitestReport, { force: true }),
    // Vitest's JSON report follows Jest's: numPassedTests, numFailedTests.
    count: () => {
      const report = readJson(vitestReport);
      return report && { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0 };
    },
  },
  {
    name: 'e2e',
    command: 'npm',
    args: ['run', 'test:e2e'],
    before: () => rmSync(playwrightReport, { force: true }),
    // Playwright: expected = passed, flaky = passed on a retry, unexpected = failed; run-level errors
    // (global setup, a file that does not load) are failures too.
    count: () => {
      const report = readJson(playwrightReport);
      if (!report?.stats) return undefined;
      const { expected = 0, flaky = 0, unexpected = 0 } = report.stats;
      return { passed: expected + flaky, failed: unexpected + (report.errors?.length ?? 0) };
    },
  },
];

let exitCode = 0;
for (const step of steps) {
  if (step.skip?.()) {
    console.log(`\n[test] ${step.name}: up to date, skipped`);
    continue;
  }
  console.log(`\n[test] ${step.name}: ${step.command} ${step.args.join(' ')}`);
  step.before();
  const started = Date.now();
  const result = spawnSync(step.command, step.args, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  const code = result.status ?? 1;
  const counts = step.count() ?? { passed: 0, failed: 0 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  console.log(`[test] ${step.name}: exit ${code}, ${counts.passed} passed, ${counts.failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) {
    exitCode = code;
    break;
  }
}

rmSync(reportDir, { recursive: true, force: true });
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(exitCode);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
