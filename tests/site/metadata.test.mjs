// What search engines and link previews read in the build: robots.txt, a sitemap of every public route and no
// alias, and on every page a canonical link, a description, Open Graph and Twitter images of its section (files
// that exist), BlogPosting data on posts and "Edit this page" links to the site's repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUILD,
  aliasRoutes,
  blogPostRoutes,
  htmlFileFor,
  pageRoutes,
  readHtml,
  sitemapRoutes,
} from '../lib/routes.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { loadModule } from '../lib/load.mjs';

assert.ok(existsSync(join(BUILD, 'index.html')), 'run `npm run build` before the site tests');
const { site, siteRepository } = loadModule('src/data/site.ts');
const { socialSections, socialSectionOf, socialImagePath } = loadModule('src/data/social.ts');

const sitemapXml = readFileSync(join(BUILD, 'sitemap.xml'), 'utf8');
const locs = [...sitemapXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
const routes = sitemapRoutes();
const posts = blogPostRoutes();

/** The value of a meta tag (by name or property) or a link's href, in minified or quoted HTML. */
const attrOf = (tag, name) =>
  new RegExp(`\\b${name}=(?:"([^"]*)"|([^\\s>]+))`)
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined);
const tags = (html, element) => html.match(new RegExp(`<${element}\\b[^>]*>`, 'g')) ?? [];
const meta = (html, key) =>
  tags(html, 'meta')
    .filter((t) => attrOf(t, 'name') === key || attrOf(t, 'property') === key)
    .map((t) => attrOf(t, 'content')?.replace(/\/$/, ''));
const links = (html, rel) =>
  tags(html, 'link')
    .filter((t) => attrOf(t, 'rel') === rel)
    .map((t) => attrOf(t, 'href'));

test('robots.txt lets crawlers in and points at the sitemap, which the build has', () => {
  const robots = readFileSync(join(BUILD, 'robots.txt'), 'utf8');
  assert.match(robots, /^User-agent: \*$/m);
  assert.doesNotMatch(robots, /^Disallow: \/\s*$/m, 'nothing is disallowed wholesale');
  assert.match(robots, new RegExp(`^Sitemap: ${site.url}/sitemap\\.xml$`, 'm'));
  assert.ok(locs.length > 0, 'the sitemap lists pages');
});

test('the sitemap has every canonical route and every post, each once, on the site URL', () => {
  const inMap = new Set(routes);
  const canonical = [...pageRoutes, ...posts].map((r) => (r.length > 1 ? r.replace(/\/$/, '') : r));
  assert.deepEqual(
    canonical.filter((r) => !inMap.has(r)),
    [],
    'canonical routes missing from the sitemap',
  );
  assert.equal(new Set(locs).size, locs.length, 'no route twice');
  assert.ok(
    locs.every((l) => l.startsWith(`${site.url}/`)),
    'every URL on the site',
  );
  assert.deepEqual(
    routes.filter((r) => !htmlFileFor(r)),
    [],
    'every listed route is a page of the build',
  );
});

test('the sitemap lists no redirect alias', () => {
  // The spec's aliases and every redirect of src/data/redirects.ts (tests/lib/routes.mjs).
  const aliases = aliasRoutes.map((a) => a.from);
  assert.ok(aliases.length > 0);
  assert.deepEqual(
    aliases.filter((a) => routes.includes(a.replace(/\/$/, ''))),
    [],
  );
});

test('the sitemap lists no page that asks not to be indexed', () => {
  const noindex = routes.filter((route) =>
    [...meta(readHtml(route), 'robots'), ...meta(readHtml(route), 'googlebot')].some((c) => /noindex/i.test(c ?? '')),
  );
  assert.deepEqual(noindex, []);
});

test('every page has a canonical link to its sitemap URL and a description', () => {
  const bad = [];
  for (const loc of locs) {
    const route = new URL(loc).pathname;
    const html = readHtml(route);
    const canonical = links(html, 'canonical');
    if (canonical.length !== 1 || canonical[0] !== loc) bad.push(`${route}: canonical ${canonical.join(', ')}`);
    const description = meta(html, 'description');
    if (description.length !== 1 || description[0].length < 30) bad.push(`${route}: description "${description}"`);
    if (meta(html, 'og:description').length !== 1) bad.push(`${route}: og:description`);
  }
  assert.deepEqual(bad, []);
});

test("every page has one Open Graph and one Twitter image, its section's, and the file is in the build", () => {
  const bad = [];
  const used = new Set();
  for (const route of routes) {
    const html = readHtml(route);
    const og = meta(html, 'og:image');
    const twitter = meta(html, 'twitter:image');
    const expected = `${site.url}${socialImagePath(socialSectionOf(route))}`;
    if (og.length !== 1 || og[0] !== expected) bad.push(`${route}: og:image ${og.join(', ')}, expected ${expected}`);
    if (twitter.length !== 1 || twitter[0] !== og[0]) bad.push(`${route}: twitter:image ${twitter.join(', ')}`);
    if (meta(html, 'twitter:card')[0] !== 'summary_large_image') bad.push(`${route}: twitter:card`);
    if (og[0] && !existsSync(join(BUILD, new URL(og[0]).pathname))) bad.push(`${route}: ${og[0]} is not in the build`);
    used.add(og[0]);
  }
  assert.deepEqual(bad, []);
  for (const section of socialSections)
    assert.ok(used.has(`${site.url}${socialImagePath(section)}`), `the ${section.section} image is used`);
});

test('the section images are 1200x630 PNGs, one per section', () => {
  for (const section of socialSections) {
    const png = readFileSync(join(REPO, 'static', socialImagePath(section)));
    assert.equal(png.subarray(1, 4).toString(), 'PNG', section.section);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], section.section);
  }
  for (const name of ['home', 'docs', 'skills', 'why', 'blog'])
    assert.ok(
      socialSections.some((s) => s.section === name),
      name,
    );
});

test('every post carries BlogPosting structured data naming its URL, headline and date', () => {
  assert.ok(posts.length > 0);
  for (const post of posts) {
    const blocks = [
      ...readHtml(post).matchAll(/<script[^>]*type="?application\/ld\+json"?[^>]*>([\s\S]*?)<\/script>/g),
    ];
    const data = blocks.map((m) => JSON.parse(m[1])).find((d) => d['@type'] === 'BlogPosting');
    assert.ok(data, `${post} has BlogPosting data`);
    assert.equal(data.url, `${site.url}${post}`);
    assert.ok(data.headline && data.datePublished, post);
  }
});

test('docs, why and blog pages link "Edit this page" to their source file in the site\'s repository', () => {
  const editable = [...routes.filter((r) => /^\/(docs|why)(\/|$)/.test(r) && !/^\/docs\/tags(\/|$)/.test(r)), ...posts];
  const base = `${siteRepository}/edit/main/`;
  const bad = [];
  for (const route of editable) {
    const hrefs = tags(readHtml(route), 'a')
      .map((t) => attrOf(t, 'href'))
      .filter((h) => h?.startsWith(base));
    if (hrefs.length !== 1) bad.push(`${route}: ${hrefs.length} edit links`);
    else if (!existsSync(join(REPO, hrefs[0].slice(base.length)))) bad.push(`${route}: ${hrefs[0]} names no file`);
  }
  assert.ok(editable.length > 100);
  assert.deepEqual(bad, []);
});
