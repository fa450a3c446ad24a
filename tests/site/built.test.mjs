// Checks of the built HTML, without a browser: every page is there with its content, readable
// without JavaScript, and the blog's lists and feeds hold every post.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import {
  BUILD,
  aliasRoutes,
  blogPostRoutes,
  feedRoutes,
  firstLoadScripts,
  htmlFileFor,
  isIndexRoute,
  pageRoutes,
  readHtml,
  sitemapRoutes,
} from '../lib/routes.mjs';
import { readdirSync } from 'node:fs';
import yaml from 'js-yaml';
import { REPO } from '../lib/fixture-site.mjs';
import { loadModule } from '../lib/load.mjs';

assert.ok(existsSync(join(BUILD, 'index.html')), 'run `npm run build` before the site tests');

const posts = blogPostRoutes();
/** What the content says the build must hold: one post per dated file in blog/, one tag page per declared tag. */
const postFiles = readdirSync(join(REPO, 'blog')).filter((f) => /^\d{4}-\d\d-\d\d-.+\.mdx?$/.test(f));
const declaredTags = Object.keys(yaml.load(readFileSync(join(REPO, 'docs', 'tags.yml'), 'utf8')));
const POSTS_PER_PAGE = 10;
const allPages = [...pageRoutes, ...posts];
const decode = (s) =>
  s
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');
const article = (html) => /<article[^>]*>([\s\S]*)<\/article>/.exec(html)?.[1] ?? '';
const textOf = (html) =>
  decode(html.replace(/<(script|style|pre|svg)[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
const words = (text) => text.split(' ').filter((w) => /[A-Za-z0-9]/.test(w)).length;

test("the spec's fixed requirements hold, as minimums: every mapped route, alias and at least 19 posts of 2021-2025", () => {
  const missing = [...pageRoutes, ...feedRoutes].filter(
    (route) => !existsSync(join(BUILD, route)) && !htmlFileFor(route),
  );
  assert.deepEqual(missing, [], 'routes of the spec or the content with no page in the build');
  const unredirected = aliasRoutes.filter(({ from, to }) => !(htmlFileFor(from) && readHtml(from).includes(to)));
  assert.deepEqual(unredirected, [], 'aliases without a redirect to their canonical route');
  assert.ok(
    posts.filter((p) => /^\/blog\/202[1-5]\//.test(p)).length >= 19,
    'at least 19 dated posts from 2021 to 2025',
  );
  assert.ok(htmlFileFor('/blog/page/2'), 'the blog list has a second page');
});

test("every URL the CLI prints for an error code is that code's page, and search finds it by its code", () => {
  const { codes } = JSON.parse(readFileSync(join(REPO, 'src', 'data', 'cli-errors.json'), 'utf8'));
  for (const { code } of codes) {
    const route = `/docs/pikku-cli/errors/${code.toLowerCase()}`;
    assert.ok(htmlFileFor(route), `${route} is built`);
    assert.match(readHtml(route), new RegExp(`<h1[^>]*>${code}\\b`), `${route} is headed by ${code}`);
  }
  const index = readdirSync(BUILD).find((f) => /^search-index.*\.json$/.test(f));
  assert.ok(index, 'the search index is built');
  const searchIndex = readFileSync(join(BUILD, index), 'utf8').toLowerCase();
  for (const { code } of codes) assert.ok(searchIndex.includes(code.toLowerCase()), `search indexes ${code}`);
});

test('every page has a title, a meta description and one h1', () => {
  for (const route of allPages) {
    const html = readHtml(route);
    assert.match(html, /<title[^>]*>[^<]+<\/title>/, `${route} title`);
    const description = /<meta[^>]*\bname="?description"?[^>]*\bcontent="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.ok(description.length >= 30, `${route} meta description: "${description}"`);
    assert.equal((html.match(/<h1[\s>]/g) ?? []).length, 1, `${route} has one h1`);
  }
});

test('docs and why pages carry at least 250 words of body text, CLI error pages 120 (indexes excepted)', () => {
  const short = [];
  for (const route of sitemapRoutes().filter((r) => /^\/(docs|why)\//.test(r) && !isIndexRoute(r))) {
    const least = /^\/docs\/pikku-cli\/errors\/pku\d{3}$/.test(route) ? 120 : 250;
    const n = words(textOf(article(readHtml(route))));
    if (n < least) short.push(`${route}: ${n}`);
  }
  assert.deepEqual(short, []);
});

// A fence without a language renders as language-text, like an explicit text fence; the source
// checker (tests/unit/content.test.mjs) is what rejects a fence with no language.
test('every code block is highlighted with a language class', () => {
  const bad = [];
  for (const route of allPages) {
    for (const m of readHtml(route).matchAll(/<pre[^>]*class="?([^">]*)"?[^>]*>/g))
      if (!/language-\w/.test(m[1])) bad.push(`${route}: ${m[0]}`);
  }
  assert.deepEqual(bad, []);
});

test('no page contains placeholder text', () => {
  for (const route of allPages) {
    const text = textOf(article(readHtml(route)) || readHtml(route));
    assert.doesNotMatch(text, /\b(TODO|TBD|FIXME)\b/, route);
    assert.doesNotMatch(text, /lorem ipsum|coming soon/i, route);
  }
});

test('without JavaScript, every page has its content and its navigation links in the HTML', () => {
  for (const route of allPages) {
    const html = readHtml(route);
    assert.match(html, /<nav[^>]*aria-label="?Main/, `${route} has the navbar`);
    for (const href of ['/why', '/docs/', '/blog'])
      assert.ok(html.includes(`href=${href}`) || html.includes(`href="${href}"`), `${route} links ${href}`);
    const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? article(html);
    assert.ok(textOf(main).length > 40, `${route} has its main content in the HTML`);
  }
});

test('docs pages render their sidebar in the HTML; why pages have none', () => {
  assert.match(readHtml('/docs/http/router'), /aria-label="?Docs sidebar/);
  assert.match(readHtml('/docs/skills/http'), /pikku-http/);
  for (const route of pageRoutes.filter((r) => r.startsWith('/why')))
    assert.doesNotMatch(readHtml(route), /aria-label="?Docs sidebar/, route);
});

test('every alias is a static redirect page to its canonical route', () => {
  for (const { from, to } of aliasRoutes) {
    const file = htmlFileFor(from);
    assert.ok(file, `${from} has a page`);
    const html = readFileSync(file, 'utf8');
    assert.match(html, new RegExp(`http-equiv="?refresh"? content="0; ?url=${to.replace(/\//g, '\\/')}`), from);
  }
});

const parser = new XMLParser({ ignoreAttributes: false });

test('every dated file in blog/ is a post of the build', () => {
  assert.equal(posts.length, postFiles.length);
  for (const file of postFiles) {
    const [, y, m, d] = /^(\d{4})-(\d\d)-(\d\d)-/.exec(file);
    assert.ok(
      posts.some((p) => p.startsWith(`/blog/${y}/${m}/${d}/`)),
      `${file} is served under its date`,
    );
  }
});

test('the RSS feed parses and carries every post', () => {
  const rss = parser.parse(readFileSync(join(BUILD, 'blog', 'rss.xml'), 'utf8'));
  const items = [rss.rss.channel.item].flat();
  assert.equal(items.length, posts.length);
  for (const item of items) assert.match(item.link, /\/blog\/20\d\d\/\d\d\/\d\d\//);
});

test('the Atom feed parses and carries every post', () => {
  const atom = parser.parse(readFileSync(join(BUILD, 'blog', 'atom.xml'), 'utf8'));
  const entries = [atom.feed.entry].flat();
  assert.equal(entries.length, posts.length);
  for (const e of entries) assert.ok(e.title && e.updated, 'entry has a title and a date');
});

test('the blog list has 10 posts a page, on as many pages as the posts need', () => {
  const count = (route) => (readHtml(route).match(/<article[\s>]/g) ?? []).length;
  const pages = Math.ceil(posts.length / POSTS_PER_PAGE);
  for (let n = 1; n <= pages; n++) {
    const route = n === 1 ? '/blog' : `/blog/page/${n}`;
    assert.equal(count(route), Math.min(POSTS_PER_PAGE, posts.length - (n - 1) * POSTS_PER_PAGE), route);
  }
  assert.equal(htmlFileFor(`/blog/page/${pages + 1}`), null);
});

test('the archive and the year-grouped sidebar list every post; reading time shows', () => {
  const archive = readHtml('/blog/archive');
  for (const p of posts)
    assert.ok(archive.includes(`href=${p}`) || archive.includes(`href="${p}"`), `archive lists ${p}`);
  const post = readHtml(posts[0]);
  const sidebar = /<nav[^>]*aria-label="?Blog recent posts navigation[\s\S]*?<\/nav>/.exec(post)?.[0] ?? '';
  for (const p of posts) assert.ok(sidebar.includes(p), `sidebar lists ${p}`);
  for (const year of new Set(posts.map((p) => p.split('/')[2])))
    assert.match(sidebar, new RegExp(`>${year}<`), `sidebar groups ${year}`);
  assert.match(post, /min read/);
});

test('the authors page lists The Pikku Team', () => {
  assert.match(readHtml('/blog/authors'), /The Pikku Team/);
});

test('the tags index lists every declared tag and every tag page lists at least one page', () => {
  const tagRoutes = declaredTags.map((tag) => `/docs/tags/${tag}`);
  const index = readHtml('/docs/tags');
  for (const r of tagRoutes)
    assert.ok(index.includes(`href=${r}`) || index.includes(`href="${r}"`), `index lists ${r}`);
  for (const r of tagRoutes) assert.match(readHtml(r), /<article[\s>][\s\S]*?href="?\/docs\//, `${r} lists a page`);
});

test('the announcement bar links to the newest release post on every page', () => {
  const { latestReleaseHref } = loadModule('src/data/site.ts');
  assert.ok(posts.includes(latestReleaseHref));
  for (const route of ['/', '/docs', '/blog', '/why']) assert.ok(readHtml(route).includes(latestReleaseHref), route);
});

test('analytics: gtag is defined in the HTML with IP anonymisation, and its script is not loaded by the HTML', () => {
  const html = readHtml('/');
  assert.match(html, /data-gtag-src="?https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=G-/);
  assert.match(html, /anonymize_ip["']?\s*:\s*(!0|true)/);
  assert.doesNotMatch(html, /<script[^>]*\ssrc="?https:\/\/www\.googletagmanager\.com/, 'no gtag script tag');
  assert.doesNotMatch(html, /<link[^>]*googletagmanager/, 'no connection opened to it either');
});

test('the not-found page exists in the site design', () => {
  const html = readFileSync(join(BUILD, '404.html'), 'utf8');
  assert.match(html, /Page not found/);
  assert.match(html, /<nav[^>]*aria-label="?Main/);
});

test('the size budget measures exactly the JavaScript every page loads first', () => {
  // `npm run size` (size-limit, .size-limit.json, a step of `npm test`) holds the gzip size of the files its globs
  // match under a limit. Should Docusaurus split or rename what a page loads first, the globs would measure too
  // little or nothing: every page's first-load scripts must be the files they match, no more and no fewer.
  const budget = JSON.parse(readFileSync(join(REPO, '.size-limit.json'), 'utf8'));
  const measured = globSync(
    budget.flatMap((check) => check.path),
    { cwd: REPO },
  )
    .map((file) => `/${relative(BUILD, join(REPO, file)).split(sep).join('/')}`)
    .sort();
  assert.ok(measured.length > 0, 'the budget measures files of the build');
  const differ = allPages.filter((route) => {
    const scripts = firstLoadScripts(readHtml(route)).filter((src) => src.startsWith('/'));
    return [...new Set(scripts)].sort().join(' ') !== measured.join(' ');
  });
  assert.deepEqual(differ, [], `pages whose first-load scripts are not the budget's files (${measured.join(', ')})`);
});

test('Prism is in one chunk of its own, which no page loads with its HTML', () => {
  // `.languages.insertBefore(` is how Prism's grammars register. A page's code blocks arrive highlighted and keep their
  // lines at hydration (src/theme/CodeBlock/Content); the browser loads Prism only to draw a block itself
  // (src/components/CodeTokens/browser.ts, swapped in by src/plugins/prism-with-code-blocks.ts).
  const PRISM = '.languages.insertBefore(';
  const firstLoad = firstLoadScripts(readHtml('/'));
  assert.ok(firstLoad.length > 0, 'the home page loads scripts');
  for (const src of firstLoad) assert.ok(!readFileSync(join(BUILD, src), 'utf8').includes(PRISM), `${src} has Prism`);
  const chunks = readdirSync(join(BUILD, 'assets', 'js')).filter((f) => f.endsWith('.js'));
  const withPrism = chunks.filter((f) => readFileSync(join(BUILD, 'assets', 'js', f), 'utf8').includes(PRISM));
  assert.equal(withPrism.length, 1, `chunks with Prism: ${withPrism.join(', ')}`);
  // The config's extra languages still highlight on the server: bash and TOML are not among Prism's defaults.
  const cloudflare = readHtml('/docs/skills/cloudflare');
  for (const language of ['bash', 'toml'])
    assert.match(
      cloudflare,
      new RegExp(
        `class="prism-code language-${language}[^>]*><code[^>]*>(?:(?!</code>)[\\s\\S])*class="token (?!plain)`,
      ),
      `a ${language} block has tokens`,
    );
});

test('token colours are classes for both colour modes, with a rule for each in the CSS, and no inline colour', () => {
  // src/data/tokenStyles.ts: one class per mode on each styled token; the stylesheet comes with every page's CSS.
  const html = readHtml('/docs/core-features/functions');
  const tokens = [...html.matchAll(/<span class="token ([^"]*)"( style="[^"]*")?/g)];
  assert.ok(tokens.length > 100, 'the page has highlighted code');
  assert.deepEqual(
    tokens.filter((m) => /color/.test(m[2] ?? '')).map((m) => m[0]),
    [],
    'no token has an inline colour',
  );
  assert.doesNotMatch(html, /<pre[^>]*class="prism-code[^"]*"[^>]*style="[^"]*color/, 'nor a block');
  const css = readdirSync(join(BUILD, 'assets', 'css'))
    .map((f) => readFileSync(join(BUILD, 'assets', 'css', f), 'utf8'))
    .join('\n');
  const classes = new Set(tokens.flatMap((m) => m[1].split(' ').filter((c) => /^t[ld]-/.test(c))));
  assert.ok([...classes].some((c) => c.startsWith('tl-')) && [...classes].some((c) => c.startsWith('td-')));
  for (const name of classes) {
    const mode = name.startsWith('tl-') ? 'light' : 'dark';
    assert.match(css, new RegExp(`\\[data-theme=['"]?${mode}['"]?\\] \\.${name}\\{`), `${name} has a rule`);
  }
});

test('no chunk of the build holds Mermaid: diagrams are drawn at build time, so it is not bundled at all', () => {
  // The site has no @docusaurus/theme-mermaid, whose renderer made every build bundle and minify Mermaid and its
  // layout libraries for chunks no page loads. Mermaid's config key appears only in its own code.
  const chunks = readdirSync(join(BUILD, 'assets', 'js')).filter((f) => f.endsWith('.js'));
  assert.ok(chunks.length > 0);
  const withMermaid = chunks.filter((f) =>
    readFileSync(join(BUILD, 'assets', 'js', f), 'utf8').includes('securityLevel'),
  );
  assert.deepEqual(withMermaid, []);
});

test('every page has its navbar search in the HTML once, and no part of a page waits for a script to be swapped in', () => {
  // React sends a Suspense boundary that is not ready as a fallback (<!--$?-->) and the content later in the page;
  // the search stand-in (src/theme/SearchBar) uses none, so each page has one search box where it is drawn.
  const bad = [];
  for (const route of allPages) {
    const html = readHtml(route);
    const boxes = html.match(/class="?navbar__search-input/g)?.length ?? 0;
    if (boxes !== 1) bad.push(`${route}: ${boxes} search boxes`);
    if (html.includes('<!--$?-->')) bad.push(`${route}: a pending Suspense boundary`);
  }
  assert.deepEqual(bad, []);
});
