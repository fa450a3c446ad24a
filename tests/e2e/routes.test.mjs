// Every route of the route map, every blog post and every alias, in headless Chromium.
// Pages: HTTP 200, not the not-found page, the expected heading, no console error, no failed
// same-origin request, no broken image, and zero axe violations (WCAG 2.1 A and AA rules) in
// light and in dark mode. Aliases: they land on their canonical page. Analytics requests are blocked by the
// test context and counted, not silently ignored. Three pages are checked at a time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, newContext, watchPage } from '../lib/browser.mjs';
import { serveStatic } from '../lib/static-server.mjs';
import { BUILD, aliasRoutes, blogPostRoutes, pageRoutes } from '../lib/routes.mjs';
import { assertHealthy, axeBothModes, visit } from '../lib/page-checks.mjs';
import { listContentFiles, routeOfFile, splitFrontMatter } from '../../scripts/content-check.mjs';

const WORKERS = Number(process.env.E2E_WORKERS ?? 3);

/** Expected h1 per route, from the sources' front matter (docs, why and blog posts). */
const expectedTitle = new Map();
for (const file of listContentFiles()) {
  const { data } = splitFrontMatter(readFileSync(file, 'utf8'));
  const route = routeOfFile(file) ?? (data.slug ? `/blog/${data.slug}` : null);
  if (route && data.title) expectedTitle.set(route, String(data.title));
}

let browser;
let server;
const contexts = [];
/** A pool of pages, each with its own context and problem log. */
const idle = [];
const waiting = [];
async function withPage(fn) {
  const slot = idle.pop() ?? (await new Promise((resolve) => waiting.push(resolve)));
  slot.problems.length = 0;
  try {
    return await fn(slot.page, slot.problems);
  } finally {
    const next = waiting.shift();
    if (next) next(slot);
    else idle.push(slot);
  }
}

before(async () => {
  server = await serveStatic(BUILD);
  browser = await launch();
  for (let i = 0; i < WORKERS; i++) {
    const context = await newContext(browser, server.url);
    contexts.push(context);
    const page = await context.newPage();
    idle.push({ page, problems: watchPage(page, server.url) });
  }
});
after(async () => {
  await browser?.close();
  await server?.close();
});

describe('every page', { concurrency: WORKERS }, () => {
  for (const route of [...pageRoutes, ...blogPostRoutes()]) {
    test(route, () =>
      withPage(async (page, problems) => {
        const response = await visit(page, server.url + route);
        assert.equal(response.status(), 200, `${route} status`);
        await assertHealthy(page, route, problems, expectedTitle.get(route));
        assert.deepEqual(await axeBothModes(page, route), [], `${route} accessibility`);
      }),
    );
  }
});

describe('every alias', { concurrency: WORKERS }, () => {
  for (const { from, to } of aliasRoutes) {
    test(`${from} -> ${to}`, () =>
      withPage(async (page, problems) => {
        const response = await page.goto(server.url + from, { waitUntil: 'load' });
        assert.equal(response.status(), 200);
        await page.waitForURL((url) => url.pathname.replace(/\/$/, '') === to, { timeout: 15_000 });
        await page.waitForSelector('html[data-has-hydrated="true"]', { timeout: 15_000 });
        await assertHealthy(page, to, problems, expectedTitle.get(to));
      }));
  }
});

test('the analytics requests were made and blocked, never sent', () => {
  const blocked = contexts.flatMap((c) => c.blocked);
  assert.ok(blocked.length > 0, 'the gtag script was requested');
  assert.ok(blocked.every((u) => /googletagmanager\.com|google-analytics\.com/.test(u)));
});
