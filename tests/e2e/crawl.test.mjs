// Visits every route of the route map, every blog post and every alias in headless Chromium:
// HTTP 200, not the not-found page, the expected heading, no console error, no failed
// same-origin request, no broken image; aliases land on their canonical page.
// Analytics requests are blocked by the test context and counted, not silently ignored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, newContext, watchPage } from '../lib/browser.mjs';
import { serveStatic } from '../lib/static-server.mjs';
import { BUILD, aliasRoutes, blogPostRoutes, pageRoutes } from '../lib/routes.mjs';
import { listContentFiles, routeOfFile, splitFrontMatter } from '../../scripts/content-check.mjs';

/** Expected h1 per route, from the sources' front matter (docs, why and blog posts). */
const expectedTitle = new Map();
for (const file of listContentFiles()) {
  const { data } = splitFrontMatter(readFileSync(file, 'utf8'));
  const route = routeOfFile(file) ?? (data.slug ? `/blog/${data.slug}` : null);
  if (route && data.title) expectedTitle.set(route, String(data.title));
}

let browser;
let server;
let context;
let page;
let problems;
before(async () => {
  server = await serveStatic(BUILD);
  browser = await launch();
  context = await newContext(browser, server.url);
  page = await context.newPage();
  problems = watchPage(page, server.url);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function visit(route) {
  problems.length = 0;
  const response = await page.goto(server.url + route, { waitUntil: 'load' });
  await page.waitForSelector('html[data-has-hydrated="true"]', { timeout: 15_000 });
  return response;
}

async function assertHealthy(route) {
  const h1 = (await page.locator('h1').first().innerText()).trim();
  assert.doesNotMatch(h1, /page not found/i, `${route} is not the not-found page`);
  const expected = expectedTitle.get(route);
  if (expected) assert.equal(h1.replace(/\s+/g, ' '), expected.replace(/\s+/g, ' '), `${route} heading`);
  else assert.ok(h1.length > 2, `${route} has a heading`);
  const broken = await page.evaluate(() =>
    [...document.images]
      .filter((img) => !img.complete || img.naturalWidth === 0)
      .map((img) => img.currentSrc || img.src),
  );
  assert.deepEqual(broken, [], `${route} images`);
  // Let viewport prefetches and lazy chunks start, so their failures are caught too.
  await page.waitForTimeout(250);
  assert.deepEqual(problems, [], `${route} console and requests`);
}

describe('every page', () => {
  for (const route of [...pageRoutes, ...blogPostRoutes()]) {
    test(route, async () => {
      const response = await visit(route);
      assert.equal(response.status(), 200, `${route} status`);
      await assertHealthy(route);
    });
  }
});

describe('every alias', () => {
  for (const { from, to } of aliasRoutes) {
    test(`${from} -> ${to}`, async () => {
      problems.length = 0;
      const response = await page.goto(server.url + from, { waitUntil: 'load' });
      assert.equal(response.status(), 200);
      await page.waitForURL((url) => url.pathname.replace(/\/$/, '') === to, { timeout: 15_000 });
      await page.waitForSelector('html[data-has-hydrated="true"]', { timeout: 15_000 });
      await assertHealthy(to);
    });
  }
});

test('the analytics requests were made and blocked, never sent', () => {
  assert.ok(context.blocked.length > 0, 'the gtag script was requested');
  assert.ok(context.blocked.every((u) => /googletagmanager\.com|google-analytics\.com/.test(u)));
});
