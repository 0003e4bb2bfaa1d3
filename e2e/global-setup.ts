import { accessSync, constants } from 'node:fs';
import type { FullConfig } from '@playwright/test';

/**
 * Refuses to start a run that could not mean anything: no browser, or no server to test. Both throw, so
 * the run fails loudly with the fix in the message; a missing browser must never turn into skipped tests.
 */
export default function globalSetup(config: FullConfig): void {
  for (const project of config.projects) {
    const executable = project.use.launchOptions?.executablePath;
    if (!executable) {
      throw new Error(`Project "${project.name}" has no launchOptions.executablePath; set it in playwright.config.ts.`);
    }
    try {
      accessSync(executable, constants.X_OK);
    } catch {
      throw new Error(
        `Chromium not found at ${executable}; apt-get install chromium (or set CHROMIUM_PATH to a Chromium executable).`,
      );
    }
    if (!project.use.baseURL) {
      throw new Error(
        'E2E_BASE_URL is not set. Run `npm run test:e2e`, which starts the server and sets it, ' +
          'or point it at a running server: E2E_BASE_URL=http://127.0.0.1:3000 npx playwright test',
      );
    }
  }
}
