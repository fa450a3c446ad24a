// axe-core with the WCAG 2.1 A and AA rules on every route, in light and in dark mode:
// zero violations. Two pages scan in parallel to keep the suite short on two cores.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { launch, newContext } from '../lib/browser.mjs';
import { serveStatic } from '../lib/static-server.mjs';
import { BUILD, blogPostRoutes, pageRoutes } from '../lib/routes.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WORKERS = Number(process.env.A11Y_WORKERS ?? 2);

let browser;
let server;
before(async () => {
  server = await serveStatic(BUILD);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const describeViolations = (route, mode, violations) =>
  violations.map(
    (v) =>
      `${route} [${mode}] ${v.id}: ${v.help} (${v.nodes.length}x) ` +
      v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`)
        .join(' | '),
  );

/** Scan a route in light mode, switch to dark with the navbar toggle, scan again. */
async function scan(page, route) {
  await page.goto(server.url + route, { waitUntil: 'load' });
  await page.waitForSelector('html[data-has-hydrated="true"]', { timeout: 15_000 });
  const found = [];
  const light = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  found.push(...describeViolations(route, 'light', light.violations));
  const toggle = page.locator('.navbar button[title*="mode" i]').first();
  for (let i = 0; i < 3 && (await page.evaluate(() => document.documentElement.dataset.theme)) !== 'dark'; i++)
    await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.waitForTimeout(100);
  const dark = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  found.push(...describeViolations(route, 'dark', dark.violations));
  // Back to a clean slate for the next route.
  await page.evaluate(() => localStorage.clear());
  return found;
}

test('every route has zero WCAG 2.1 A/AA violations in light and dark mode', async () => {
  const queue = [...pageRoutes, ...blogPostRoutes()];
  const total = queue.length;
  const violations = [];
  const worker = async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    for (let route = queue.shift(); route; route = queue.shift()) violations.push(...(await scan(page, route)));
    await context.close();
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  assert.ok(total > 160, `scanned ${total} routes`);
  assert.deepEqual(violations, []);
});
