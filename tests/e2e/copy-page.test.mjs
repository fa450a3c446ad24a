// "Copy page" in the browser: the Markdown copy is fetched only when the button is pressed, lands on the clipboard
// exactly as the build wrote it, and the page links to it. The page passes the accessibility gate with the button
// and the edit link in it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newContext, watchPage, openBuiltSite } from '../lib/browser.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { assertHealthy, axeBothModes, visit } from '../lib/page-checks.mjs';
import { mdPathOf } from '../../src/data/md-path.mjs';
import { loadModule } from '../lib/load.mjs';

const BUILD = join(REPO, 'build');
const { site } = loadModule('src/data/site.ts');

let browser;
let server;
let close;
before(async () => ({ browser, server, close } = await openBuiltSite()));
after(() => close?.());

/** Open a page with clipboard access; `requests` collects the paths it asks the server for. */
async function open(route) {
  const context = await newContext(browser, server.url, { permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const problems = watchPage(page, server.url);
  const requests = [];
  page.on('request', (req) => requests.push(new URL(req.url()).pathname));
  await visit(page, server.url + route);
  return { context, page, problems, requests };
}

for (const route of ['/docs/core-features/functions', '/docs/skills/http', '/why/vendor-lock-in']) {
  test(`Copy page puts the Markdown of ${route} on the clipboard, fetched on the click`, async () => {
    const { context, page, problems, requests } = await open(route);
    const mdPath = mdPathOf(route);
    const expected = readFileSync(join(BUILD, mdPath), 'utf8');
    assert.ok(expected.includes('```'), 'the copy has code');

    const link = page.getByRole('link', { name: 'View as Markdown' });
    assert.equal(await link.getAttribute('href'), mdPath);
    assert.equal(
      await page.locator('head link[rel="alternate"][type="text/markdown"]').getAttribute('href'),
      `${site.url}${mdPath}`,
    );
    assert.ok(!requests.includes(mdPath), 'nothing is fetched before the click');

    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.getByRole('button', { name: 'Copy page' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.getByRole('status').innerText(), 'The page is on the clipboard as Markdown.');
    assert.ok(requests.includes(mdPath), 'the copy was fetched on the click');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
    await assertHealthy(page, route, problems);
    await context.close();
  });
}

test('a copy that cannot be fetched says so instead of copying', async () => {
  const { context, page } = await open('/docs/core-features/functions');
  await page.route('**/*.md', (r) => r.fulfill({ status: 404, body: 'gone' }));
  await page.evaluate(() => navigator.clipboard.writeText('unchanged'));
  await page.getByRole('button', { name: 'Copy page' }).click();
  await page.getByRole('button', { name: 'Copy failed' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'unchanged');
  await context.close();
});

test('the Markdown link opens the copy, and the page with its button and edit link passes axe', async () => {
  const route = '/docs/core-features/functions';
  const { context, page } = await open(route);
  assert.deepEqual(await axeBothModes(page, route), []);
  const edit = page.getByRole('link', { name: /edit this page/i });
  assert.match(await edit.getAttribute('href'), /^https:\/\/github\.com\/pikkujs\/website\/edit\/main\/docs\//);
  const response = await page.request.get(server.url + mdPathOf(route));
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /text\/markdown/);
  await context.close();
});
