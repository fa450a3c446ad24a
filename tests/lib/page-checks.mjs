// Checks a page in the browser, shared by the route suite and the fixtures that prove each
// check can fail: heading, images, console and requests, and axe (every rule, best practices included) per color mode.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Load axe-core into every page of a context before its own scripts: once a page load, not once a check. */
export const preloadAxe = (context) => context.addInitScript({ path: AXE_SOURCE });

/**
 * Run axe on the loaded page (loading it first if the context did not): violations only, of every rule axe runs by
 * default: the WCAG 2.x A and AA rules and the best practices (landmarks, heading order, unique labels).
 */
async function runAxe(page, { exclude }) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(
    (exclude) =>
      window.axe.run(exclude.length ? { exclude: exclude.map((selector) => [selector]) } : document, {
        resultTypes: ['violations'],
      }),
    exclude,
  );
}

/**
 * Images that failed to load on the page. An image still loading is waited for (after a move inside the app, the
 * new route's images may still be on their way); a lazy image below the fold is not requested yet and is left out.
 */
export const brokenImages = (page) =>
  page.evaluate(async () => {
    const wanted = [...document.images].filter(
      (img) => img.loading !== 'lazy' || img.getBoundingClientRect().top < window.innerHeight,
    );
    await Promise.all(
      wanted
        .filter((img) => !img.complete)
        .map(
          (img) =>
            new Promise((resolve) => {
              img.addEventListener('load', resolve, { once: true });
              img.addEventListener('error', resolve, { once: true });
            }),
        ),
    );
    return wanted.filter((img) => img.naturalWidth === 0).map((img) => img.currentSrc || img.src);
  });

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
  await settle(page, problems);
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

/**
 * Wait until the browser is idle and no request of the page is in flight, twice over: by then the lazy chunks and
 * the prefetches of links in view have started and ended, so their failures are in `problems`.
 */
export async function settle(page, problems) {
  const inflight = problems?.inflight;
  for (let round = 0; round < 2; round++) {
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5_000 })));
    while (inflight?.size)
      await Promise.race([
        page.waitForEvent('requestfinished', { timeout: 15_000 }),
        page.waitForEvent('requestfailed', { timeout: 15_000 }),
      ]);
  }
}

/**
 * Switch the page to a color mode with the navbar toggle, as a reader would, and wait until it is painted: the theme
 * attribute is set and two frames have rendered (reduced motion leaves no transition to wait for). The toggle cycles
 * through light, dark and the system's mode (light in the tests), so at most three clicks reach either mode.
 */
export async function switchMode(page, mode) {
  const toggle = page.locator('.navbar button[title*="mode" i]').first();
  for (let i = 0; i < 3 && (await page.evaluate(() => document.documentElement.dataset.theme)) !== mode; i++)
    // The button's own click: the navbar's toggle is in view on a desktop screen, and Playwright's pointer
    // simulation (scrolling and waiting for it to be stable) costs a fifth of a page's checks.
    await toggle.evaluate((button) => button.click());
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), mode);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Go to a route inside the running app, as a click on a link does (history push and popstate, which the router
 * follows), and wait until the route has rendered: the document title is `title`, the route's own title from its
 * HTML (the page sets it when it renders). The app is not loaded again, so only the route's own chunks load and
 * render. Returns false, doing nothing, when the page already has that title (the wait could not tell the two
 * apart): load the route instead.
 */
export async function navigateInApp(page, route, title) {
  if ((await page.title()) === title) return false;
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  await page.waitForFunction((expected) => document.title === expected, title, { timeout: 15_000 });
  assert.equal(new URL(page.url()).pathname.replace(/(.)\/$/, '$1'), route);
  return true;
}

/**
 * What looks the same on every page of a layout, so it is checked once per layout (see `chrome`): the navbar,
 * sidebars and footer, the code blocks, whose colors come from the two Prism themes alone, and the frame around a
 * page's text (its table of contents, breadcrumbs, edit and tags row, previous/next links and the blog's list of
 * posts), which lists the route's headings and neighbours in the same elements on every page.
 */
export const CHROME = [
  '.navbar',
  '.navbar-sidebar',
  '.footer',
  '.theme-doc-sidebar-container',
  '.prism-code',
  '.theme-doc-toc-desktop',
  '.theme-doc-toc-mobile',
  '.theme-doc-breadcrumbs',
  '.theme-doc-footer',
  '.pagination-nav',
  'nav[aria-label="Blog recent posts navigation"]',
];
/**
 * axe violations of the loaded page, with every rule, in the mode the page is in first, then in the other (one switch
 * per page: the page ends in the other mode). With `chrome: false` the shared parts (CHROME) are left out, for pages
 * whose layout was checked in full. `inEachMode(mode)` runs in each mode, after its axe run.
 */
export async function axeBothModes(page, route, { chrome = true, inEachMode } = {}) {
  const exclude = chrome ? [] : CHROME;
  const found = [];
  const check = async (mode) => {
    const { violations } = await runAxe(page, { exclude });
    found.push(...describeViolations(route, mode, violations));
    await inEachMode?.(mode);
  };
  const first = (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark' ? 'dark' : 'light';
  const second = first === 'dark' ? 'light' : 'dark';
  await check(first);
  await switchMode(page, second);
  await check(second);
  return found;
}

/** The smallest size, in CSS px on the screen, at which a diagram's text may render. */
export const MIN_DIAGRAM_TEXT_PX = 12;

/** Per diagram figure of the page: the drawings shown, the smallest rendered text size of them, and overflow. */
export const measureDiagrams = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('figure.diagram')].map((figure) => {
      const shown = [...figure.querySelectorAll('.diagram__drawing')].filter((d) => d.offsetParent !== null);
      let smallest = Infinity;
      for (const drawing of shown) {
        const svg = drawing.querySelector('svg');
        // Rendered size per SVG unit: the drawing's on-screen width over its viewBox width.
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const el of svg.querySelectorAll('text, tspan, foreignObject div, foreignObject span, foreignObject p')) {
          if (!el.textContent.trim()) continue;
          smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize) * scale);
        }
      }
      return {
        shown: shown.map((d) => d.className.replace(/.*diagram__drawing--/, '')),
        smallest,
        scrolls: figure.scrollWidth > figure.clientWidth,
        focusable: figure.tabIndex === 0,
      };
    }),
  );

/**
 * The page's diagrams in the given colour mode: `count` figures (one per ```mermaid fence of its source), each
 * showing only the drawing of that mode, with text at MIN_DIAGRAM_TEXT_PX or more, focusable for scrolling.
 */
export async function assertDiagrams(page, route, count, mode) {
  const figures = await measureDiagrams(page);
  assert.equal(figures.length, count, `${route} shows each of its ${count} diagram(s), drawn at build time`);
  for (const [i, d] of figures.entries()) {
    const which = `${route} diagram ${i + 1} (${mode})`;
    assert.deepEqual(d.shown, [mode], `${which}: shows the ${mode} drawing only`);
    assert.ok(d.smallest >= MIN_DIAGRAM_TEXT_PX, `${which}: text at ${d.smallest.toFixed(1)} px`);
    assert.ok(d.focusable, `${which}: can be scrolled from the keyboard`);
  }
  return figures;
}
