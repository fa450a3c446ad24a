// Headless Chromium (Debian's) driven by playwright-core. Analytics requests are blocked and
// recorded, so tests never reach the network and can assert that the tag tried to load.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT } from '../../scripts/lib/content.mjs';
import { serveStatic } from './static-server.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Hosts of the analytics service: blocked in every test context. */
export const ANALYTICS_HOSTS = /(^|\.)(googletagmanager\.com|google-analytics\.com|analytics\.google\.com)$/;

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A new context whose requests to anything but `origin` are aborted; analytics requests are
 * recorded in `blocked`. Options pass through to browser.newContext().
 */
export async function newContext(browser, origin, options = {}) {
  // Reduced motion turns the site's transitions off (src/css/custom.css), so checks never see a colour mid-change.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
    ...options,
  });
  const blocked = [];
  await context.route(
    (url) => url.origin !== origin,
    (route) => {
      const host = new URL(route.request().url()).hostname;
      if (ANALYTICS_HOSTS.test(host)) blocked.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  context.blocked = blocked;
  return context;
}

/**
 * Collect console errors and failed same-origin requests of a page. Requests we aborted on
 * purpose (analytics, other hosts) are not failures.
 */
export function watchPage(page, origin) {
  const problems = [];
  /** Requests of the page still in flight (read by settle() in page-checks.mjs). */
  const inflight = new Set();
  Object.defineProperty(problems, 'inflight', { value: inflight, enumerable: false });
  page.on('request', (req) => inflight.add(req));
  page.on('requestfinished', (req) => inflight.delete(req));
  page.on('requestfailed', (req) => inflight.delete(req));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (/net::ERR_BLOCKED_BY_CLIENT/.test(text)) return;
    problems.push(`console error: ${text}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => {
    const error = req.failure()?.errorText ?? '';
    // ERR_ABORTED is a request cancelled by a navigation (a redirect page moving on); a request
    // that really fails reports another error, or an HTTP status caught below.
    if (new URL(req.url()).origin === origin && !/ERR_ABORTED/.test(error))
      problems.push(`failed request: ${req.url()} (${error})`);
  });
  page.on('response', (res) => {
    if (new URL(res.url()).origin === origin && res.status() >= 400 && res.request().resourceType() !== 'document')
      problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}

/**
 * Serve the built site from 127.0.0.1 and launch Chromium, for a file of browser tests:
 * `before(async () => ({ browser, server, close } = await openBuiltSite()))` and `after(() => close?.())`.
 */
export async function openBuiltSite(build = join(ROOT, 'build')) {
  assert.ok(existsSync(join(build, 'index.html')), 'run `npm run build` before the browser tests');
  const server = await serveStatic(build);
  const browser = await launch();
  return {
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
