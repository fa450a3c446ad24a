// Keyboard use: a skip link, a visible focus ring, and the drawer and colour toggle operable
// without a mouse.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext, openBuiltSite } from '../lib/browser.mjs';
import { visit } from '../lib/page-checks.mjs';

let browser;
let server;
let close;
before(async () => ({ browser, server, close } = await openBuiltSite()));
after(() => close?.());

async function open(path, viewport = { width: 1280, height: 900 }) {
  const context = await newContext(browser, server.url, { viewport });
  const page = await context.newPage();
  await visit(page, server.url + path);
  return { context, page };
}

const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return {
      text: (el.getAttribute('aria-label') || el.textContent || '').trim(),
      tag: el.tagName,
      outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
      shadow: style.boxShadow !== 'none',
    };
  });

test('the first Tab reaches a skip link that moves focus to the main content', async () => {
  const { context, page } = await open('/docs/core-features/functions');
  await page.keyboard.press('Tab');
  const first = await focused(page);
  assert.match(first.text, /skip to main content/i);
  assert.ok(await page.locator(':focus').isVisible(), 'the skip link is visible when focused');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const inMain = await page.evaluate(() => !!document.activeElement.closest('main'));
  assert.ok(inMain, 'after skipping, focus continues inside the main content');
  await context.close();
});

test('focused controls show a visible focus indicator', async () => {
  const { context, page } = await open('/docs');
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    assert.ok(f.outline || f.shadow, `focus is visible on ${f.tag} "${f.text.slice(0, 30)}"`);
  }
  await context.close();
});

test('the colour toggle works from the keyboard', async () => {
  const { context, page } = await open('/docs');
  await page.locator('.navbar button[title*="mode" i]').first().focus();
  const before = await page.evaluate(() => document.documentElement.dataset.themeChoice);
  await page.keyboard.press('Enter');
  const after = await page.evaluate(() => document.documentElement.dataset.themeChoice);
  assert.notEqual(after, before);
  await page.keyboard.press('Space');
  assert.notEqual(await page.evaluate(() => document.documentElement.dataset.themeChoice), after);
  await context.close();
});

test('the mobile drawer opens, is navigable and closes from the keyboard', async () => {
  // /why has no docs sidebar, so the drawer opens on the main menu.
  const { context, page } = await open('/why', { width: 800, height: 900 });
  const menu = page.getByRole('button', { name: /toggle navigation bar/i });
  await menu.focus();
  await page.keyboard.press('Enter');
  const drawer = page.locator('.navbar-sidebar');
  await drawer.getByRole('link', { name: 'Blog' }).waitFor({ state: 'visible' });
  await drawer.getByRole('link', { name: 'Blog' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('html.blog-list-page', { timeout: 15_000 });
  assert.equal(await page.locator('.navbar-sidebar--show').count(), 0, 'the drawer closes after navigating');
  await menu.focus();
  await page.keyboard.press('Enter');
  await page.locator('.navbar-sidebar__close').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.querySelector('.navbar-sidebar--show'), null, { timeout: 5_000 });
  assert.equal(await page.locator('.navbar-sidebar--show').count(), 0, 'the close button closes it');
  await context.close();
});
