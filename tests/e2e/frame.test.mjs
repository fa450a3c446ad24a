// Site-wide behaviour of the production build, in headless Chromium: colour mode, announcement
// bar, responsive navbar, chunk failures, storage failures, prefetch, progress bar, base URL
// banner and the not-found page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { newContext, openBuiltSite } from '../lib/browser.mjs';
import { serveStatic } from '../lib/static-server.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { loadModule } from '../lib/load.mjs';
import { navigateInApp, visit } from '../lib/page-checks.mjs';
import { titleInHtml } from '../lib/routes.mjs';

const BUILD = join(REPO, 'build');
const { latestRelease, latestReleaseHref, announcementId } = loadModule('src/data/site.ts');

let browser;
let server;
let close;
before(async () => ({ browser, server, close } = await openBuiltSite()));
after(() => close?.());

const open = async (path, options, connection) => {
  const context = await newContext(browser, server.url, options);
  if (connection)
    await context.addInitScript((c) => Object.defineProperty(navigator, 'connection', { get: () => c }), connection);
  const page = await context.newPage();
  const response = await visit(page, server.url + path, { requireHydration: options?.javaScriptEnabled !== false });
  return { context, page, response };
};
/** Docusaurus namespaces its storage keys (`theme-c5f`); find one by its base name. */
const storageKey = (page, base) =>
  page.evaluate((b) => Object.keys(localStorage).find((k) => k === b || k.startsWith(`${b}-`)), base);
const theme = (page) =>
  page.evaluate(() => [document.documentElement.dataset.theme, document.documentElement.dataset.themeChoice]);
const toggle = (page) => page.locator('.navbar button[title*="mode" i]').first();

describe('colour mode', () => {
  test('starts light (following the OS), cycles light -> dark -> system, and remembers the choice', async () => {
    const { context, page } = await open('/docs');
    assert.deepEqual(await theme(page), ['light', 'system'], 'a first visit renders light');
    await toggle(page).click();
    assert.deepEqual(await theme(page), ['light', 'light']);
    await toggle(page).click();
    assert.deepEqual(await theme(page), ['dark', 'dark']);
    await page.reload();
    assert.deepEqual(await theme(page), ['dark', 'dark'], 'dark survives a reload');
    await toggle(page).click();
    assert.deepEqual(await theme(page), ['light', 'system'], 'system follows the OS preference, light here');
    await page.reload();
    assert.deepEqual(await theme(page), ['light', 'system'], 'system survives a reload');
    await toggle(page).click();
    assert.deepEqual(await theme(page), ['light', 'light']);
    await page.reload();
    assert.deepEqual(await theme(page), ['light', 'light'], 'light survives a reload');
    await context.close();
  });

  test('system mode follows a dark OS preference', async () => {
    const { context, page } = await open('/docs', { colorScheme: 'dark' });
    assert.deepEqual(await theme(page), ['dark', 'system']);
    await context.close();
  });
});

describe('announcement bar', () => {
  const bar = (page) => page.locator('.theme-announcement-bar');

  test('links to the newest release post, stays dismissed, and returns when its id changes', async () => {
    const { context, page } = await open('/');
    await bar(page).waitFor({ state: 'visible' });
    assert.equal(await bar(page).locator(`a[href="${latestReleaseHref}"]`).count(), 1);
    await bar(page).getByRole('button', { name: /close/i }).click();
    await bar(page).waitFor({ state: 'detached' });
    await page.reload();
    await page.waitForSelector('html[data-has-hydrated="true"]');
    assert.equal(await bar(page).count(), 0, 'still dismissed after a reload');
    // A new release changes the id; the stored dismissal belonged to the old id.
    const idKey = await storageKey(page, 'docusaurus.announcement.id');
    assert.ok(idKey, 'the bar id is stored');
    await page.evaluate((k) => localStorage.setItem(k, 'release-0.0'), idKey);
    await page.reload();
    await bar(page).waitFor({ state: 'visible' });
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), idKey), announcementId);
    await context.close();
  });

  test('its link opens the release post', async () => {
    const { context, page } = await open('/docs');
    await page.locator(`.theme-announcement-bar a[href="${latestReleaseHref}"]`).click();
    await page.waitForURL(`**${latestReleaseHref}`);
    await page.locator('article h1', { hasText: latestRelease.version }).first().waitFor();
    await context.close();
  });
});

describe('responsive navbar', () => {
  test('below 996 px the links move into a drawer', async () => {
    const { context, page } = await open('/docs', { viewport: { width: 995, height: 800 } });
    const menuButton = page.getByRole('button', { name: /toggle navigation bar/i });
    assert.ok(await menuButton.isVisible(), 'menu button shown');
    assert.equal(await page.locator('.navbar__items a.navbar__link', { hasText: 'Blog' }).isVisible(), false);
    for (const name of [/GitHub/, /on X/, /Discord/])
      assert.equal(
        await page.locator('.navbar__inner').getByRole('link', { name }).isVisible(),
        false,
        `${name} moves to the drawer`,
      );
    await menuButton.click();
    const drawer = page.locator('.navbar-sidebar');
    await drawer.getByRole('link', { name: 'Blog' }).waitFor({ state: 'visible' });
    assert.ok(await drawer.getByRole('link', { name: /GitHub/ }).isVisible(), 'icon links are in the drawer');
    await context.close();
  });

  test('at 1000 px the full navbar shows and the menu button does not', async () => {
    const { context, page } = await open('/docs', { viewport: { width: 1000, height: 800 } });
    assert.equal(await page.getByRole('button', { name: /toggle navigation bar/i }).isVisible(), false);
    for (const name of ['Why?', 'Docs', 'Blog'])
      assert.ok(await page.locator('.navbar__items a.navbar__link', { hasText: name }).first().isVisible(), name);
    for (const name of [/GitHub/, /on X/, /Discord/])
      assert.ok(await page.getByRole('link', { name }).first().isVisible());
    await context.close();
  });
});

describe('loading and failure behaviour', () => {
  test('a route chunk that fails to load makes the page reload', async () => {
    const { context, page } = await open('/');
    let failed = 0;
    let failing = true;
    // Fail every chunk requested until the page navigates for real (the reload's document request),
    // so the reloaded page loads normally whatever the timing.
    page.on('request', (request) => {
      if (request.isNavigationRequest()) failing = false;
    });
    await page.route(/\.js$/, (route) => (failing ? (failed++, route.abort()) : route.continue()));
    // A full document load of the target, not the client-side routing that failed.
    const reloaded = page.waitForRequest((r) => r.isNavigationRequest() && /\/blog$/.test(r.url()), {
      timeout: 15_000,
    });
    await page.evaluate(() => window.history.pushState(null, '', '/'));
    await page.locator('.navbar__items a.navbar__link', { hasText: 'Blog' }).click();
    await reloaded;
    // Waiting for handlers still running could hang context.close(); none matters any more.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    assert.ok(failed > 0, 'some chunk load was attempted and failed');
    await page.waitForURL(/\/blog$/, { waitUntil: 'load' });
    await page.waitForSelector('html[data-has-hydrated="true"]', { timeout: 15_000 });
    await context.close();
  });

  test('storage that throws (iframe or private mode) leaves the site working', async () => {
    const context = await newContext(browser, server.url);
    await context.addInitScript(() => {
      const deny = () => {
        throw new DOMException('denied', 'SecurityError');
      };
      Object.defineProperty(window, 'localStorage', { get: deny });
      Object.defineProperty(window, 'sessionStorage', { get: deny });
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('html[data-has-hydrated="true"]');
    assert.ok(await page.locator('article h1').isVisible());
    await toggle(page).click();
    await toggle(page).click();
    assert.equal((await theme(page))[0], 'dark', 'the toggle still works for this page view');
    await page.locator('.navbar__items a.navbar__link', { hasText: 'Blog' }).click();
    await page.waitForURL('**/blog');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('with JavaScript disabled, pages are readable and navigable', async () => {
    const { context, page } = await open('/docs/core-features/functions', { javaScriptEnabled: false });
    assert.match(await page.locator('article h1').innerText(), /Functions/i);
    assert.ok((await page.locator('article').innerText()).length > 1000);
    assert.ok(await page.locator('nav[aria-label="Docs sidebar"] a[href^="/docs/http"]').count(), 'sidebar links');
    assert.ok(await page.locator('.navbar a[href="/blog"]').count());
    await context.close();
  });

  test('links are prefetched on a normal connection but not on save-data or 2g', async () => {
    // Asks Docusaurus to prefetch a route, as a link scrolled into view does, and waits for its promise:
    // on a normal connection that adds prefetch links, on save-data or 2g it adds none.
    const prefetches = async (connection) => {
      const context = await newContext(browser, server.url);
      if (connection)
        await context.addInitScript(
          (c) => Object.defineProperty(navigator, 'connection', { get: () => c }),
          connection,
        );
      const page = await context.newPage();
      await page.goto(`${server.url}/docs`);
      await page.waitForSelector('html[data-has-hydrated="true"]');
      await page.evaluate(() => window.docusaurus.prefetch('/blog/archive'));
      const count = await page.locator('link[rel="prefetch"]').count();
      await context.close();
      return count;
    };
    assert.ok((await prefetches(null)) > 0, 'prefetch happens normally');
    assert.equal(await prefetches({ saveData: true, effectiveType: '4g' }), 0, 'no prefetch with save-data');
    assert.equal(await prefetches({ saveData: false, effectiveType: 'slow-2g' }), 0, 'no prefetch on 2g');
  });

  test('links that scroll into view are prefetched once the page is idle after hydrating', async () => {
    // src/clientModules/idlePrefetch.ts queues Docusaurus's viewport prefetches for idle time; they still happen.
    const { context, page } = await open('/docs/core-features/functions', { viewport: { width: 412, height: 823 } });
    await page.waitForSelector('link[rel="prefetch"]', { state: 'attached', timeout: 15_000 });
    const prefetched = await page.locator('link[rel="prefetch"]').evaluateAll((links) => links.map((l) => l.href));
    assert.ok(
      prefetched.every((href) => /\/assets\/js\/[^/]+\.js$/.test(href)),
      'chunks of linked routes',
    );
    await context.close();
  });

  test('the progress bar appears while a route change is still loading, not on an instant one', async () => {
    // The theme starts the bar 200 ms into a route change and cancels it when the route has rendered. The page's clock
    // is paused from the click on, so the 200 ms pass only when the test moves it on: on a slow (busy) machine, an
    // instant change that takes long to render still shows no bar, and a loading one shows it when 200 ms have passed.
    const sawProgress = async (slow) => {
      // Slow: save-data turns prefetching off, so the click is what loads the next route's chunks, and the test
      // holds them until the bar shows.
      const { context, page } = await open('/docs', {}, slow ? { saveData: true, effectiveType: '4g' } : undefined);
      await page.evaluate(() => {
        window.__progress = false;
        new MutationObserver(() => {
          const bar = document.getElementById('nprogress');
          if (bar) {
            window.__progress = true;
            window.__progressMarkup ??= bar.innerHTML;
          }
        }).observe(document.documentElement, { childList: true, subtree: true });
      });
      let held = () => {};
      const requested = new Promise((resolve) => (held = resolve));
      let release = () => {};
      const released = new Promise((resolve) => (release = resolve));
      if (slow)
        await page.route(/\.js$/, async (route) => {
          held();
          await released;
          await route.continue();
        });
      // Instant: the next route's chunks are already loaded, so the change takes no network time.
      else await page.evaluate(() => window.docusaurus.prefetch('/blog'));
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.locator('.navbar__items a.navbar__link', { hasText: 'Blog' }).click();
      if (slow) {
        await requested;
        await page.clock.runFor(250);
        await page.waitForSelector('#nprogress', { state: 'attached', timeout: 15_000 });
        release();
      }
      // The blog list rendered (its posts and page navigation), then well past the 200 ms, the clock running again.
      await page.waitForFunction(
        () =>
          document.querySelector('nav[aria-label="Blog list page navigation"]') &&
          document.querySelector('article h2 a'),
        null,
        { timeout: 15_000 },
      );
      await page.clock.runFor(1000);
      const seen = await page.evaluate(() => window.__progress);
      if (slow) {
        // Decoration, hidden from assistive technology, with no invalid role (src/clientModules/progressBar.ts).
        const markup = await page.evaluate(() => window.__progressMarkup);
        assert.match(markup, /class="bar" aria-hidden="true"/);
        assert.doesNotMatch(markup, /role=/);
      }
      await context.close();
      return seen;
    };
    assert.equal(await sawProgress(true), true, 'a change that is still loading shows the bar');
    assert.equal(await sawProgress(false), false, 'an instant change does not');
  });
});

describe('loading', () => {
  test("a page's text is drawn before the app's JavaScript runs", async () => {
    // A frame callback at every frame notes the first frame that draws the article; Docusaurus's entry sets
    // window.docusaurus when the app starts. The app loader of src/ssrTemplate.ts asks for the scripts only after
    // such a frame. With <script defer> a script that arrives before the HTML is parsed runs before the page is
    // drawn, which on a slow phone holds the text back by the app's whole evaluation.
    const context = await newContext(browser, server.url, { viewport: { width: 412, height: 823 } });
    await context.addInitScript(() => {
      const frame = () => {
        if (document.querySelector('article p')) window.__articleDrawn = true;
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      Object.defineProperty(window, 'docusaurus', {
        configurable: true,
        set(value) {
          window.__drawnBeforeApp = window.__articleDrawn === true;
          Object.defineProperty(window, 'docusaurus', { value, writable: true, configurable: true });
        },
      });
    });
    const page = await context.newPage();
    await visit(page, `${server.url}/docs/core-features/functions`);
    assert.equal(await page.evaluate(() => window.__drawnBeforeApp), true);
    await context.close();
  });

  test('the app still starts in a browser without paint timing', async () => {
    // The app loader's other way to start (src/ssrTemplate.ts): after the first frame. Its every branch is
    // exercised without a browser in tests/site/loader.test.mjs.
    const context = await newContext(browser, server.url);
    await context.addInitScript(() =>
      Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { get: () => [] }),
    );
    const page = await context.newPage();
    await visit(page, `${server.url}/docs`);
    await context.close();
  });
});

describe('code blocks', () => {
  test('a page reached inside the app highlights its bash and TOML blocks (Prism loads then, on demand)', async () => {
    // The tags index has no code block, so the app starts without Prism; the Cloudflare skill is drawn in the
    // browser, not from its HTML, and its blocks are only highlighted if the extra languages were registered.
    const { context, page } = await open('/docs/tags');
    assert.equal(await page.locator('pre').count(), 0, 'the first page has no code block');
    const title = titleInHtml('/docs/skills/cloudflare');
    assert.ok(await navigateInApp(page, '/docs/skills/cloudflare', title));
    for (const language of ['bash', 'toml'])
      await page.waitForFunction(
        (l) => document.querySelectorAll(`pre.language-${l} .token:not(.plain)`).length > 0,
        language,
        { timeout: 15_000 },
      );
    await context.close();
  });

  test("a page's code blocks keep the server's lines at hydration, load no Prism, and a dark page colours them by CSS", async () => {
    // src/theme/CodeBlock/Content: the lines the server drew are kept (the same elements), so the browser neither
    // loads Prism nor tokenizes; token colours are classes for both modes (src/data/tokenStyles.ts).
    const { darkCodeTheme } = loadModule('src/data/codeThemes.ts');
    const context = await newContext(browser, server.url, { colorScheme: 'dark' });
    await context.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () => {
        window.serverTokens = [...document.querySelectorAll('pre code span')];
      }),
    );
    const page = await context.newPage();
    // The scripts the page runs while it loads and hydrates (prefetches are not scripts it runs); each body is read
    // before the context closes.
    const responses = [];
    const onResponse = (response) => response.request().resourceType() === 'script' && responses.push(response);
    page.on('response', onResponse);
    await visit(page, `${server.url}/docs/core-features/functions`);
    page.off('response', onResponse);
    const loaded = await Promise.all(responses.map(async (r) => ({ url: r.url(), code: await r.text() })));
    const colours = await page.evaluate(
      ({ background, keyword }) => {
        const probe = document.createElement('i');
        document.body.append(probe);
        const css = (property, value) => {
          probe.style[property] = value;
          return getComputedStyle(probe)[property];
        };
        const expected = { background: css('backgroundColor', background), keyword: css('color', keyword) };
        probe.remove();
        const token = document.querySelector('pre .token.keyword');
        return {
          expected,
          blocks: [...document.querySelectorAll('pre')].map((pre) => getComputedStyle(pre).backgroundColor),
          keyword: getComputedStyle(token).color,
        };
      },
      {
        background: darkCodeTheme.plain.backgroundColor,
        keyword: darkCodeTheme.styles.find((s) => s.types.includes('keyword')).style.color,
      },
    );
    assert.ok(colours.blocks.length > 1, 'the page has code blocks');
    assert.deepEqual(new Set(colours.blocks), new Set([colours.expected.background]), 'dark blocks');
    assert.equal(colours.keyword, colours.expected.keyword, 'a keyword has the dark theme colour');
    const tokens = await page.evaluate(() => {
      const now = [...document.querySelectorAll('pre code span')];
      return {
        server: window.serverTokens.length,
        now: now.length,
        kept: now.filter((t) => window.serverTokens.includes(t)).length,
      };
    });
    assert.ok(tokens.server > 100, 'the HTML has highlighted code');
    assert.deepEqual(tokens, { server: tokens.server, now: tokens.server, kept: tokens.server }, 'the same elements');
    assert.ok(
      loaded.some(({ url }) => /\/main\.[^/]+\.js$/.test(url)),
      'the app loaded',
    );
    assert.deepEqual(
      loaded.filter(({ code }) => code.includes('.languages.insertBefore(')).map(({ url }) => url),
      [],
      'no Prism',
    );
    await context.close();
  });

  test('a stored install-command choice shows once the page has hydrated', async () => {
    // The classic theme's Tabs applies the stored choice after hydration (it remounts the tab panels to do so).
    const first = await open('/docs/skills/cloudflare');
    await first.page
      .locator('[role="tab"]', { hasText: /^pnpm$/ })
      .first()
      .click();
    const key = await storageKey(first.page, 'docusaurus.tab.npm2yarn');
    assert.ok(key, 'the choice is stored');
    const stored = await first.page.evaluate((k) => localStorage.getItem(k), key);
    assert.equal(stored, 'pnpm');
    await first.context.close();

    const context = await newContext(browser, server.url);
    await context.addInitScript(
      ([k, v]) => {
        localStorage.setItem(k, v);
      },
      [key, stored],
    );
    const page = await context.newPage();
    await visit(page, `${server.url}/docs/skills/queue-bullmq`);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].every((t) => t.textContent === 'pnpm'),
    );
    const panels = await page.evaluate(() => {
      const now = [...document.querySelectorAll('[role="tabpanel"]')];
      const shown = now.filter((p) => !p.hidden).map((p) => p.textContent.trim().split(' ')[0]);
      return {
        all: now.length,
        shown: [...new Set(shown)],
      };
    });
    assert.ok(panels.all > 1, 'the page has install tabs');
    assert.deepEqual(panels.shown, ['pnpm']);
    await context.close();
  });
});

describe('addresses', () => {
  test('an unknown path gets the not-found page with HTTP 404', async () => {
    const { context, page, response } = await open('/no-such-page');
    assert.equal(response.status(), 404);
    assert.match(await page.locator('h1').first().innerText(), /page not found/i);
    assert.ok(await page.locator('main a[href="/docs"]').count(), 'offers a way back');
    await context.close();
  });

  test('served under the wrong base URL, the site says it did not load properly', async () => {
    const wrong = await serveStatic(BUILD, { prefix: '/sub/' });
    const context = await newContext(browser, wrong.url);
    const page = await context.newPage();
    await page.goto(`${wrong.url}/sub/`);
    const banner = page.locator('#__docusaurus-base-url-issue-banner-container');
    await banner.waitFor({ state: 'attached', timeout: 10_000 });
    assert.match(await banner.innerText(), /did not load properly/i);
    await context.close();
    await wrong.close();
  });

  test('analytics loads after the app is interactive, anonymises IPs and counts in-app page views', async () => {
    const { context, page } = await open('/');
    // open() waited for hydration; the script comes after it, when the browser is idle.
    const script = page.locator('script[src*="googletagmanager.com/gtag/js"]');
    await script.waitFor({ state: 'attached', timeout: 15_000 });
    assert.equal(await script.getAttribute('async'), '');
    const config = await page.evaluate(() => window.dataLayer.map((call) => Array.from(call)));
    assert.ok(
      config.some(([name, , options]) => name === 'config' && options?.anonymize_ip === true),
      'anonymize_ip is set',
    );
    const title = titleInHtml('/blog');
    assert.ok(await navigateInApp(page, '/blog', title));
    await page.waitForFunction(() => window.dataLayer.some((call) => call[0] === 'event' && call[1] === 'page_view'));
    const blocked = () => context.blocked.some((u) => u.includes('googletagmanager.com'));
    // Checked and awaited in one tick, so the request cannot fail in between.
    if (!blocked())
      await page.waitForEvent('requestfailed', { predicate: (r) => r.url().includes('googletagmanager.com') });
    assert.ok(
      context.blocked.some((u) => u.includes('googletagmanager.com')),
      'the request was made and blocked',
    );
    await context.close();
  });
});

describe('search', () => {
  const searchBox = (page) => page.locator('.navbar input[aria-label="Search"]').first();

  test('typing in the navbar search and pressing Enter opens the best match', async () => {
    const { context, page } = await open('/docs');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('permission guard', { delay: 20 });
    await page.locator('.navbar [role="listbox"] [role="option"]').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/docs/core-features/permission-guards');
    await context.close();
  });

  test("searching an error code the CLI printed finds that code's page first", async () => {
    const { context, page } = await open('/docs');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('PKU573', { delay: 20 });
    await page.locator('.navbar [role="listbox"] [role="option"]').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/docs/pikku-cli/errors/pku573');
    await context.close();
  });

  test('the search code loads on first use: the shortcut finds, and the bar that loads looks the same', async () => {
    // Until it is used, the navbar shows src/theme/SearchBar's stand-in; the plugin's bar (marked by the
    // autocomplete event it listens to) is not among the page's scripts.
    const { context, page } = await open('/docs');
    // The text of every script the page has loaded (from the browser's cache).
    const scripts = () =>
      page.evaluate(() =>
        Promise.all(
          performance
            .getEntriesByType('resource')
            .filter((e) => e.name.endsWith('.js'))
            .map((e) => fetch(e.name).then((r) => r.text())),
        ),
      );
    const hasBar = async () => (await scripts()).some((text) => text.includes('autocomplete:closed'));
    const box = () => page.locator('.navbar__search').first().boundingBox();
    await page.locator('.navbar__search[data-stand-in]').waitFor();
    const before = await box();
    assert.equal(await hasBar(), false, 'no search bar code yet');
    await page.keyboard.press(process.platform === 'darwin' ? 'Meta+k' : 'Control+k');
    await page.locator('.navbar__search:not([data-stand-in])').waitFor();
    assert.equal(await hasBar(), true, 'the shortcut loaded the bar');
    assert.equal(
      await page.evaluate(() => document.activeElement?.classList.contains('navbar__search-input')),
      true,
      'the search box has the focus',
    );
    await page.keyboard.type('permission guard', { delay: 20 });
    await page.locator('.navbar [role="listbox"] [role="option"]').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await page.locator('.navbar__search-input').first().fill('');
    await page.evaluate(() => document.activeElement?.blur());
    assert.deepEqual(await box(), before, 'the loaded bar takes the place of the stand-in exactly');
    await context.close();
  });

  test('the search page lists results from the docs and the blog', async () => {
    const { context, page } = await open('/search?q=queue');
    const results = page.locator('article h2 a');
    await results.first().waitFor({ timeout: 10_000 });
    const hrefs = await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(
      hrefs.some((h) => h.startsWith('/docs/queue')),
      hrefs.slice(0, 10).join(' '),
    );
    assert.ok(
      hrefs.some((h) => h.startsWith('/blog/')),
      'blog posts are indexed too',
    );
    await context.close();
  });
});
