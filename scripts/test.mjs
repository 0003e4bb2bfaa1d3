#!/usr/bin/env node
// `npm test`: every test, in order, stopping at the first failing step.
//
//  1. `tsc --noEmit`        type check (strict)                                       } side by side: each uses one
//  2. `eslint .`            lint, including the rule that keeps server/db out of     } core, and CI machines have two
//                           app/ and server/trpc/                                    } (their output is printed whole)
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
import { spawn, spawnSync } from 'node:child_process';
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
  // Static checks first: they are cheap and a type error or a forbidden import is a real failure. Both are
  // single-threaded, so they run side by side (`together`): ~45 s instead of ~85 s on a two-core machine.
  { name: 'typecheck', command: 'npx', args: ['tsc', '--noEmit', '-p', '.'], together: 'static', before: () => {}, count: () => undefined },
  { name: 'lint', command: 'npx', args: ['eslint', '.', '--max-warnings=0'], together: 'static', before: () => {}, count: () => undefined },
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
for (let i = 0; i < steps.length && exitCode === 0; ) {
  // A run of steps with the same `together` label starts at once; the others run alone, in order.
  const group = [steps[i]];
  while (steps[i].together && steps[i + group.length]?.together === steps[i].together) group.push(steps[i + group.length]);
  i += group.length;
  const results = await Promise.all(group.map((step) => runStep(step, group.filter((other) => other !== step).map((other) => other.name))));
  for (const { step, code, counts, seconds } of results) {
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    if (code === null) continue;
    console.log(`[test] ${step.name}: exit ${code}, ${counts.passed} passed, ${counts.failed} failed in ${seconds.toFixed(1)} s`);
    if (code !== 0 && exitCode === 0) exitCode = code;
  }
}

/** Runs one step. Alone it writes straight to the terminal; beside others (their names) its output is held and printed whole. */
async function runStep(step, besideNames) {
  const beside = besideNames.length > 0;
  if (step.skip?.()) {
    console.log(`\n[test] ${step.name}: up to date, skipped`);
    return { step, code: null, counts: { passed: 0, failed: 0 }, seconds: 0 };
  }
  console.log(`\n[test] ${step.name}: ${step.command} ${step.args.join(' ')}${beside ? ` (alongside ${besideNames.join(', ')}; its output follows when it ends)` : ''}`);
  step.before();
  const started = Date.now();
  const options = { cwd: root, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } };
  let code;
  if (beside) {
    const child = spawn(step.command, step.args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    code = await new Promise((resolve) => {
      child.on('error', () => resolve(1));
      child.on('close', (status) => resolve(status ?? 1));
    });
    if (output.length > 0) process.stdout.write(`\n[test] ${step.name} output:\n${Buffer.concat(output)}`);
  } else {
    code = spawnSync(step.command, step.args, { ...options, stdio: 'inherit' }).status ?? 1;
  }
  const counts = step.count() ?? { passed: 0, failed: 0 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return { step, code, counts, seconds: (Date.now() - started) / 1000 };
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
