// Diagrams in the built site on a 390 px phone screen, in headless Chromium, on every page that has one: the text
// renders at 12 px or more (a wide diagram scrolls sideways instead of shrinking) and the colour mode shows its own
// drawing only. The route crawl (routes.test.mjs) checks the same on a 1280 px screen. The browser loads no
// Mermaid code: the diagrams are drawn at build time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext, openBuiltSite } from '../lib/browser.mjs';
import { diagramCounts, titleInHtml } from '../lib/routes.mjs';
import { assertDiagrams, measureDiagrams, navigateInApp, visit } from '../lib/page-checks.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const pages = await diagramCounts();

let browser;
let server;
let close;
let page;
before(async () => {
  ({ browser, server, close } = await openBuiltSite());
  page = await (await newContext(browser, server.url, PHONE)).newPage();
});
after(() => close?.());

test('the content has diagrams to check', () => assert.ok(pages.size > 0));

describe('diagrams on a 390 px screen', () => {
  for (const [route, count] of pages)
    test(route, async () => {
      await page.emulateMedia({ colorScheme: 'light' });
      // The pages are reached inside the running app after the first, as a reader's click reaches them.
      if (page.url() === 'about:blank' || !(await navigateInApp(page, route, titleInHtml(route))))
        await visit(page, server.url + route);
      await assertDiagrams(page, route, count, 'light');
      // The site follows the system's colour scheme until the reader picks one (on a phone the toggle is in the
      // menu), so dark mode is the system's here.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await assertDiagrams(page, route, count, 'dark');
    });
});

test('a diagram wider than a phone scrolls sideways, and the page loads no Mermaid code', async () => {
  const scripts = [];
  const onResponse = (res) => res.request().resourceType() === 'script' && scripts.push(res);
  page.on('response', onResponse);
  await page.emulateMedia({ colorScheme: 'light' });
  await visit(page, `${server.url}/docs/http/router`);
  page.off('response', onResponse);
  const [first] = await measureDiagrams(page);
  assert.ok(first.scrolls, 'the request-flow diagram is wider than a phone');
  assert.ok(scripts.length > 0);
  // Mermaid's configuration keys appear in its own code and nowhere else.
  for (const res of scripts) assert.doesNotMatch(await res.text(), /securityLevel/, `loaded Mermaid: ${res.url()}`);
});
