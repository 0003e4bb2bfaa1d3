// Toasts stack without covering forms: several confirmations in a row stay on screen (three at most, the
// newest on top) in a place that overlaps neither the form that raised them nor an open dialog's buttons,
// at 1440 px (bottom-right column) and at 390 px (a deck in the top bar's band); above a modal's backdrop.
import type { Locator, Page } from '@playwright/test';
import { captureJourney } from '../a11y';
import { expect, test } from '../fixtures';

type Box = { x: number; y: number; width: number; height: number };

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  return box!;
}

/** No toast overlaps any of `controls`, and each toast is the topmost element at its own middle. */
async function expectToastsClearOf(page: Page, toasts: Locator, controls: Locator[]) {
  for (const toast of await toasts.all()) {
    const box = await boxOf(toast);
    for (const control of controls) {
      const other = await boxOf(control);
      expect(intersects(box, other), `toast ${JSON.stringify(box)} covers ${control} ${JSON.stringify(other)}`).toBe(false);
    }
  }
  // The newest is drawn on top of everything (the top layer, above a modal's backdrop). Toasts let clicks
  // through (pointer-events: none), so they are made hit-testable here to ask what is painted at that point.
  await page.addStyleTag({ content: '[data-toast] { pointer-events: auto !important; }' });
  const front = await boxOf(toasts.first());
  const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-toast]') !== null, { x: front.x + front.width / 2, y: front.y + front.height / 2 });
  expect(onTop, 'the newest toast is visible on top').toBe(true);
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px, stacked toasts cover neither the form nor the dialog`, async ({ signedInPage: page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    // Toasts last 4 s. The page's clock is the test's: it runs while the form saves and stands still while the toasts
    // are measured, so that the checks (slow on a loaded machine) never outlast a toast they are measuring.
    await page.clock.install();
    const whileStill = async (check: () => Promise<void>) => {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100); // a moment ahead: the clock runs meanwhile
      try {
        await check();
      } finally {
        await page.clock.resume();
      }
    };
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
    const toasts = page.getByRole('status', { name: 'Notifications' }).locator('[data-toast]');
    const name = page.getByLabel('Name');
    const save = page.getByRole('button', { name: 'Save profile' });
    const form = [page.getByLabel('Email'), name, save];

    // The form in the middle of the screen, as someone filling it would have it.
    await save.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    for (let n = 1; n <= 4; n++) {
      await name.fill(`Toast tester ${n}`);
      await save.click();
      await expect(save).toHaveText('Save profile'); // saved (the button reads "Saving…" meanwhile)
      await whileStill(async () => {
        await expect(toasts).toHaveCount(Math.min(n, 3)); // capped at three
        await expectToastsClearOf(page, toasts, form);
      });
    }
    await expect(toasts.first()).toContainText('Profile saved');

    // A dialog opened while they show: its buttons stay clear, and the toasts stay above its backdrop.
    const deleteButton = page.getByRole('button', { name: 'Delete my account' });
    await deleteButton.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await name.fill('Toast tester 5');
    await save.click();
    await deleteButton.click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await whileStill(async () => {
      await expect(toasts).toHaveCount(3);
      await expectToastsClearOf(page, toasts, [dialog.getByRole('button', { name: 'Delete account' }), dialog.getByRole('button', { name: 'Cancel' }), dialog.getByRole('button', { name: 'Close' })]);
    });
    // One capture covers both layouts (captureJourney takes 1440 and 390 px); toasts last 4 s, so it is taken at once.
    if (viewport.width === 1440) await captureJourney(page, 'toasts-over-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
}
