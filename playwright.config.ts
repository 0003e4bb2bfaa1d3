// Playwright Test drives Debian's Chromium (apt), never a downloaded browser: PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
// in CI, and e2e/global-setup.ts fails the run when the executable is missing instead of skipping tests.
//
// Run through `npm run test:e2e` (scripts/e2e.mjs): it builds if needed, starts the production server on
// a free port with a fresh embedded database and passes its address as E2E_BASE_URL. Against a server you
// started yourself: `E2E_BASE_URL=http://127.0.0.1:3000 npx playwright test`.
import { defineConfig, devices } from '@playwright/test';

const artifacts = 'e2e/artifacts';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `${artifacts}/test-results`,
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: Boolean(process.env.CI),
  fullyParallel: true,
  // Playwright's default is half the cores (1 here); the browser mostly waits on the server, so two share 2 cores.
  workers: 2,
  // No retries: a flaky test is a bug to fix, not a pass to count.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: `${artifacts}/report`, open: 'never' }],
    // Read by scripts/test.mjs for the one-line summary CI parses.
    ['json', { outputFile: `${artifacts}/results.json` }],
  ],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    screenshot: 'on',
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});
