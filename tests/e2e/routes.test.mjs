// Every route of the built site's sitemap and every alias, in headless Chromium.
// Pages: HTTP 200, not the not-found page, the expected heading, no console error, no failed
// same-origin request, no broken image, and zero axe violations: every WCAG 2.1 A and AA rule in light mode
// and the colour rules in dark mode. The shared chrome (navbar, sidebar, footer, and code blocks, whose colours are
// the Prism themes') is checked in full on the first page of each layout and left out on the others. Aliases: they land on their canonical page. Analytics requests
// are blocked by the test context and counted, not silently ignored. One page at a time per core. Diagrams:
// as many as the page's source has, drawn at build time, with readable text in both modes (as on a phone in diagrams.test.mjs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { launch, newContext, watchPage } from '../lib/browser.mjs';
import { serveStatic } from '../lib/static-server.mjs';
import { BUILD, aliasRoutes, diagramCounts, sitemapRoutes } from '../lib/routes.mjs';
import { assertDiagrams, assertHealthy, axeBothModes, preloadAxe, visit } from '../lib/page-checks.mjs';
import { listContentFiles, routeOfFile, splitFrontMatter } from '../../scripts/lib/content.mjs';

// One page per core: rendering and axe keep the renderers and the browser process busy, so more pages in flight
// do not finish sooner (measured on 2 cores: 4 pages at a time took as long as 2).
const WORKERS = Number(process.env.E2E_WORKERS ?? availableParallelism());

/** The layout a route is drawn with: pages of one layout share their chrome. */
const layoutOf = (route) =>
  route === '/'
    ? 'home'
    : route.startsWith('/docs/tags')
      ? 'tags'
      : route.startsWith('/docs/skills')
        ? 'skills'
        : /^\/(docs|why|blog|manual-setup)/.exec(route)?.[1] === 'blog'
          ? /^\/blog\/\d{4}\//.test(route)
            ? 'post'
            : 'blog-list'
          : (/^\/(docs|why|manual-setup)/.exec(route)?.[1] ?? 'page');
const seenLayouts = new Set();
/** Whether this route is the first of its layout, whose chrome is checked in full. */
const checksChrome = (route) => !seenLayouts.has(layoutOf(route)) && seenLayouts.add(layoutOf(route));

/** Expected h1 per route, from the sources' front matter (docs, why and blog posts). */
const expectedTitle = new Map();
for (const file of listContentFiles()) {
  const { data } = splitFrontMatter(readFileSync(file, 'utf8'));
  const route = routeOfFile(file) ?? (data.slug ? `/blog/${data.slug}` : null);
  if (route && data.title) expectedTitle.set(route, String(data.title));
}

/** Pages with diagrams: their text must stay readable on this 1280 px screen, in both modes (see diagrams.test.mjs). */
const diagrams = await diagramCounts();

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
    await preloadAxe(context);
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
  for (const route of sitemapRoutes()) {
    const chrome = checksChrome(route);
    test(route, () =>
      withPage(async (page, problems) => {
        const response = await visit(page, server.url + route);
        assert.equal(response.status(), 200, `${route} status`);
        await assertHealthy(page, route, problems, expectedTitle.get(route));
        const figures = diagrams.get(route) ?? 0;
        await assertDiagrams(page, route, figures, 'light');
        assert.deepEqual(await axeBothModes(page, route, { chrome }), [], `${route} accessibility`);
        // axeBothModes leaves the page in dark mode.
        if (figures) await assertDiagrams(page, route, figures, 'dark');
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
