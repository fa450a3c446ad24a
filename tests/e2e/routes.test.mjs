// Every route of the built site (its sitemap, and /search) and every alias, in headless Chromium.
// Pages: HTTP 200, not the not-found page, the expected heading, no console error, no failed same-origin request,
// no broken image, and zero axe violations of every rule axe runs by default (WCAG 2.x A and AA and the best
// practices) in both color modes (axeBothModes in tests/lib/page-checks.mjs). The first page of each layout is loaded from its HTML and hydrated, and its shared chrome (navbar, sidebar,
// footer, and code blocks, whose colors are the Prism themes') is checked in full; the other pages are reached
// inside the running app, as a reader's click reaches them, and their own content is checked. Diagrams: as many as
// the page's source has, drawn at build time, with readable text in both modes (on a phone: diagrams.test.mjs).
// Tag pages after the first of each kind are checked as pages, without axe (see isTagPage). An alias lands on its
// canonical page. Analytics requests are blocked by the test context and counted, not
// silently ignored. One browser per core, one page at a time in each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { launch, newContext, watchPage } from '../lib/browser.mjs';
import { serveStatic } from '../lib/static-server.mjs';
import { BUILD, aliasRoutes, diagramCounts, sitemapRoutes, titleInHtml } from '../lib/routes.mjs';
import { assertDiagrams, assertHealthy, axeBothModes, navigateInApp, preloadAxe, visit } from '../lib/page-checks.mjs';
import { listContentFiles, routeOfPage, splitFrontMatter } from '../../scripts/lib/content.mjs';

// One browser per core: rendering and axe keep each renderer and browser process busy, so more pages in flight do
// not finish sooner (measured on 2 cores: 4 pages at a time took as long as 2, and two browsers beat two contexts
// of one browser by a fifth).
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
  const route = routeOfPage(file, data);
  if (route && data.title) expectedTitle.set(route, String(data.title));
}

/** Pages with diagrams: their text must stay readable on this 1280 px screen, in both modes (see diagrams.test.mjs). */
const diagrams = await diagramCounts();

let server;
const browsers = [];
const contexts = [];
/** A pool of pages, each in its own browser (the browser process is shared work), with its own problem log. */
const idle = [];
const waiting = [];
async function withPage(fn) {
  const slot = idle.pop() ?? (await new Promise((resolve) => waiting.push(resolve)));
  slot.problems.length = 0;
  try {
    return await fn(slot);
  } catch (error) {
    // The app may be broken after a failure: the slot's next page is loaded afresh.
    slot.loaded = false;
    throw error;
  } finally {
    const next = waiting.shift();
    if (next) next(slot);
    else idle.push(slot);
  }
}

before(async () => {
  server = await serveStatic(BUILD);
  for (let i = 0; i < WORKERS; i++) {
    const browser = await launch();
    browsers.push(browser);
    const context = await newContext(browser, server.url);
    await preloadAxe(context);
    contexts.push(context);
    const page = await context.newPage();
    idle.push({ page, problems: watchPage(page, server.url), loaded: false });
  }
});
after(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  await server?.close();
});

/** /search is kept out of the sitemap (it is noindex) but is a page readers reach. */
const routes = [...sitemapRoutes(), '/search'];

test('every route is served as a page (HTTP 200)', async () => {
  const failed = [];
  for (const route of routes) {
    const response = await fetch(server.url + route);
    if (response.status !== 200) failed.push(`${route}: ${response.status}`);
    await response.arrayBuffer();
  }
  assert.deepEqual(failed, []);
});

/**
 * Tag pages: lists that Docusaurus's tag template draws from a tag's label and description and its pages' titles.
 * The first of each kind is checked in full, axe included; the others as pages (heading, console, requests,
 * images), since their markup and colors are the template's.
 */
const isTagPage = (route) => /^\/(docs|blog)\/tags\/[^/]+$/.test(route);
const seenTagPages = new Set();

describe('every page', { concurrency: WORKERS }, () => {
  for (const route of routes) {
    const chrome = checksChrome(route);
    const kind = route.split('/')[1];
    const axeIt = !isTagPage(route) || (!seenTagPages.has(kind) && seenTagPages.add(kind));
    test(route, () =>
      withPage(async (slot) => {
        const { page, problems } = slot;
        // The first page of each layout is loaded and hydrated from its HTML; the others are reached inside the
        // running app, as a reader's click reaches them, which renders the route's own content without loading the
        // app again.
        if (chrome || !slot.loaded || !(await navigateInApp(page, route, titleInHtml(route)))) {
          await visit(page, server.url + route);
          slot.loaded = true;
        }
        await assertHealthy(page, route, problems, expectedTitle.get(route));
        if (!axeIt) return;
        const figures = diagrams.get(route) ?? 0;
        const violations = await axeBothModes(page, route, {
          chrome,
          inEachMode: (mode) => assertDiagrams(page, route, figures, mode),
        });
        assert.deepEqual(violations, [], `${route} accessibility`);
      }),
    );
  }
});

// Every alias is a static redirect page to its canonical route (tests/site/built.test.mjs reads them all); that a
// browser follows one is Docusaurus's behaviour, checked once.
test('an alias lands on its canonical page', () =>
  withPage(async (slot) => {
    const { page, problems } = slot;
    const [{ from, to }] = aliasRoutes;
    slot.loaded = false;
    const response = await page.goto(server.url + from, { waitUntil: 'load' });
    assert.equal(response.status(), 200);
    await page.waitForURL((url) => url.pathname.replace(/(.)\/$/, '$1') === to, { timeout: 15_000 });
    await assertHealthy(page, to, problems, expectedTitle.get(to));
  }));

test('the analytics requests were made and blocked, never sent', () => {
  const blocked = contexts.flatMap((c) => c.blocked);
  assert.ok(blocked.length > 0, 'the gtag script was requested');
  assert.ok(blocked.every((u) => /googletagmanager\.com|google-analytics\.com/.test(u)));
});
