// Checks a page in the browser, shared by the route suite and the fixtures that prove each
// check can fail: heading, images, console and requests, and axe (WCAG 2.1 A/AA) per color mode.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Images that failed to load on the page. */
export const brokenImages = (page) =>
  page.evaluate(() =>
    [...document.images]
      .filter((img) => !img.complete || img.naturalWidth === 0)
      .map((img) => img.currentSrc || img.src),
  );

/** Load a route and wait for React to hydrate it (unless JavaScript is off for the page). */
export async function visit(page, url, { requireHydration = true } = {}) {
  const response = await page.goto(url, { waitUntil: 'load' });
  if (requireHydration) await page.waitForSelector('html[data-has-hydrated="true"]', { timeout: 15_000 });
  return response;
}

/** The page is a real page: a heading (the expected one, if known), no broken image, no problem logged. */
export async function assertHealthy(page, route, problems, expectedTitle) {
  const h1 = (await page.locator('h1').first().innerText()).trim();
  assert.doesNotMatch(h1, /page not found/i, `${route} is not the not-found page`);
  if (expectedTitle) assert.equal(h1.replace(/\s+/g, ' '), expectedTitle.replace(/\s+/g, ' '), `${route} heading`);
  else assert.ok(h1.length > 2, `${route} has a heading`);
  assert.deepEqual(await brokenImages(page), [], `${route} images`);
  // Let viewport prefetches and lazy chunks start, so their failures are caught too.
  await page.waitForTimeout(250);
  assert.deepEqual(problems, [], `${route} console and requests`);
}

const describeViolations = (route, mode, violations) =>
  violations.map(
    (v) =>
      `${route} [${mode}] ${v.id}: ${v.help} (${v.nodes.length}x) ` +
      v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`)
        .join(' | '),
  );

/** Switch the page to dark mode with the navbar toggle, as a reader would. */
export async function switchToDark(page) {
  const toggle = page.locator('.navbar button[title*="mode" i]').first();
  for (let i = 0; i < 3 && (await page.evaluate(() => document.documentElement.dataset.theme)) !== 'dark'; i++)
    await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.waitForTimeout(100);
}

/** axe violations of the loaded page with the WCAG 2.1 A/AA rules, in light mode and then in dark mode. */
export async function axeBothModes(page, route) {
  const found = [];
  const light = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  found.push(...describeViolations(route, 'light', light.violations));
  await switchToDark(page);
  const dark = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  found.push(...describeViolations(route, 'dark', dark.violations));
  await page.evaluate(() => localStorage.clear());
  return found;
}
