// Accessibility and layout checks shared by the console specs.
//
// expectAccessible(page): runs axe (WCAG 2.x A/AA rules) on the page as it is now, in the light and the
// dark theme (the console follows prefers-color-scheme), and fails on any critical or serious violation,
// listing each rule with the elements at fault.
// captureJourney(page, name): screenshots at 1440 and 390 px wide, kept under e2e/artifacts/screenshots/
// (.ci/run prints where e2e/artifacts is) and attached to the test in the HTML report, and checks that at
// 390 px the page does not scroll sideways as a whole.
import AxeBuilder from '@axe-core/playwright';
import type { Result } from 'axe-core';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const SCREENSHOTS = path.join('e2e', 'artifacts', 'screenshots');
const BLOCKING = new Set(['critical', 'serious']);
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}) {
  const problems: string[] = [];
  // Colours change with a transition (`transition-colors`) when the theme switches; axe must see where they
  // end, not a frame in between (a half-faded link fails the contrast rule).
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  await page.emulateMedia({ colorScheme: 'light' });
  // Legacy mode runs axe.run in the page itself. The default (runPartial, then finishRun in a new blank page,
  // for cross-origin frames, which the console has none of) opened a page per check and took ~1.5 s of the
  // ~1.7 s a check took.
  let builder = new AxeBuilder({ page }).setLegacyMode().withTags(WCAG_TAGS);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  report('light', (await builder.analyze()).violations);
  // The dark theme: the same rules, with the axe the builder has just put in the page (injecting it again is
  // most of what a second analyze() costs).
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await page.evaluate(
    ({ tags, exclude }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Result[] }> } }).axe;
      return axe.run({ exclude: exclude.map((selector) => [selector]) }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    },
    { tags: WCAG_TAGS, exclude: options.exclude ?? [] },
  );
  report('dark', dark.violations);
  await page.emulateMedia({ colorScheme: null });
  expect(problems, `axe found critical or serious violations on ${page.url()}`).toEqual([]);

  function report(colorScheme: 'light' | 'dark', violations: Result[]) {
    for (const v of violations.filter((x) => BLOCKING.has(x.impact ?? ''))) {
      problems.push(`[${colorScheme}] ${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join('\n    ')}`);
    }
  }
}

export async function captureJourney(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  // From the top, so a sticky header sits where a visitor first sees it; the scroll position is put back after.
  const scrolled = await page.evaluate(() => {
    const at = { x: window.scrollX, y: window.scrollY };
    window.scrollTo(0, 0);
    return at;
  });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(50); // let layout settle after the resize
    const file = path.join(SCREENSHOTS, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await test.info().attach(`${name}-${width}`, { path: file, contentType: 'image/png' });
    if (width === 390) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name}: the page scrolls sideways at 390 px (tables should scroll inside their own box)`).toBeLessThanOrEqual(1);
    }
  }
  if (original) await page.setViewportSize(original);
  await page.evaluate(({ x, y }) => window.scrollTo(x, y), scrolled);
}
