// Config invariants: every constant and setting the spec names, read from the real config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadDefault, loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { readRoutes } from '../../scripts/lib/content.mjs';

const config = loadDefault('docusaurus.config.ts');
const { site, latestRelease, latestReleaseHref, announcementId, inertAnalyticsId } = loadModule('src/data/site.ts');
const [, presetOptions] = config.presets.find(([name]) => name === 'classic');
const { docs, blog, pages } = presetOptions;
const analyticsPlugin = config.plugins.find((p) => Array.isArray(p) && p[0]?.name === 'analytics');
const theme = config.themeConfig;
const whyPlugin = config.plugins.find((p) => Array.isArray(p) && p[1]?.id === 'why')[1];
const redirectPlugin = config.plugins.find(
  (p) => Array.isArray(p) && p[0] === '@docusaurus/plugin-client-redirects',
)[1];

test('site identity: title, tagline, favicon, url and base URL', () => {
  assert.equal(config.title, 'Pikku');
  assert.equal(config.tagline, site.tagline);
  assert.ok(config.tagline.length > 10);
  assert.equal(config.baseUrl, '/');
  assert.equal(config.url, site.url);
  assert.ok(existsSync(join(REPO, 'static', config.favicon)), 'favicon file exists');
});

test('the social card image exists', () => {
  assert.ok(existsSync(join(REPO, 'static', config.themeConfig.image)), config.themeConfig.image);
});

test('English is the only locale', () => {
  assert.deepEqual(config.i18n, { defaultLocale: 'en', locales: ['en'] });
});

test('Docusaurus v4 future flags and the faster bundler are on', () => {
  assert.equal(config.future.v4, true);
  assert.equal(config.future.faster, true);
});

test('broken links fail the build; anchors and duplicate routes only warn', () => {
  assert.equal(config.onBrokenLinks, 'throw');
  assert.equal(config.markdown.hooks.onBrokenMarkdownLinks, 'throw');
  assert.equal(config.onBrokenAnchors, 'warn');
  assert.equal(config.onDuplicateRoutes, 'warn');
});

test('MDX with MDX 1 compatibility for comments, admonitions and heading ids; no Mermaid in the browser', () => {
  assert.equal(config.markdown.format, 'mdx');
  assert.deepEqual(config.markdown.mdx1Compat, { comments: true, admonitions: true, headingIds: true });
  assert.equal(config.markdown.mermaid, undefined);
  assert.ok(!config.themes.includes('@docusaurus/theme-mermaid'));
  assert.equal(theme.mermaid, undefined);
});

test('diagrams are drawn at build time with a light and a dark Mermaid theme, in every MDX instance', () => {
  for (const [name, options] of [
    ['docs', docs],
    ['why', whyPlugin],
    ['blog', blog],
    ['pages', pages],
  ]) {
    const drawn = (options.beforeDefaultRemarkPlugins ?? []).find(
      (p) => Array.isArray(p) && p[0].name === 'remarkDiagrams',
    );
    assert.ok(drawn, `${name} draws its diagrams at build time`);
    assert.deepEqual(drawn[1].themes, { light: 'neutral', dark: 'dark' }, `${name} uses the configured themes`);
  }
});

test('code blocks have a light and a different dark theme', () => {
  assert.ok(theme.prism.theme && theme.prism.darkTheme);
  assert.notDeepEqual(theme.prism.theme, theme.prism.darkTheme);
});

test('npm2yarn converts to yarn, pnpm and bun on docs, why, blog and pages', () => {
  for (const [name, opts] of Object.entries({ docs, why: whyPlugin, blog, pages })) {
    const entry = opts.remarkPlugins.find((p) => Array.isArray(p) && p[1]?.converters);
    assert.ok(entry, `${name} has the npm2yarn plugin`);
    assert.deepEqual(entry[1].converters, ['yarn', 'pnpm', 'bun'], name);
    assert.equal(entry[1].sync, true, `${name} syncs the tabs`);
  }
});

test('table of contents covers heading levels 2 to 3', () => {
  assert.deepEqual(theme.tableOfContents, { minHeadingLevel: 2, maxHeadingLevel: 3 });
});

test('colour mode: default light, switch enabled, three-way toggle (light, dark, system)', () => {
  assert.equal(theme.colorMode.defaultMode, 'light');
  assert.equal(theme.colorMode.disableSwitch, false);
  // The classic theme offers "system" as a third state only when it respects the OS preference.
  assert.equal(theme.colorMode.respectPrefersColorScheme, true);
});

test('docs sidebar cannot be hidden and does not auto-collapse', () => {
  assert.deepEqual(theme.docs.sidebar, { hideable: false, autoCollapseCategories: false });
});

test('docs: two sidebars, declared tags only, one version labelled Next', () => {
  const sidebars = loadDefault('sidebars.ts');
  assert.deepEqual(Object.keys(sidebars).sort(), ['docs', 'skills']);
  assert.equal(docs.onInlineTags, 'throw');
  assert.equal(docs.tags, 'tags.yml');
  assert.equal(docs.lastVersion, 'current');
  assert.deepEqual(docs.versions, { current: { label: 'Next' } });
  assert.ok(!existsSync(join(REPO, 'versions.json')), 'no other docs versions');
});

test('skills sidebar: the landing page, then every skill of src/data/skills.ts with a pikku- label', () => {
  const { skills } = loadDefault('sidebars.ts');
  const { skillNames } = loadModule('src/data/skills.ts');
  assert.equal(skills.length, 1);
  const [category] = skills;
  assert.deepEqual(category.link, { type: 'doc', id: 'skills/index' });
  assert.equal(category.items.length, skillNames.length);
  for (const item of category.items) assert.equal(item.label, `pikku-${item.id.replace('skills/', '')}`);
});

test('"Why?" is a second docs instance at /why with no sidebar', () => {
  assert.equal(whyPlugin.routeBasePath, 'why');
  assert.equal(whyPlugin.path, 'why');
  assert.equal(whyPlugin.sidebarPath, false);
});

test('blog: 10 posts a page, all posts in a year-grouped sidebar, reading time, RSS and Atom', () => {
  assert.equal(blog.postsPerPage, 10);
  assert.equal(blog.blogSidebarCount, 'ALL');
  assert.equal(theme.blog.sidebar.groupByYear, true);
  assert.equal(blog.showReadingTime, true);
  assert.deepEqual(blog.feedOptions.type, ['rss', 'atom']);
  assert.equal(blog.feedOptions.limit, false, 'feeds carry every post');
});

test('blog: inline tags, inline authors and untruncated posts warn', () => {
  assert.equal(blog.onInlineTags, 'warn');
  assert.equal(blog.onInlineAuthors, 'warn');
  assert.equal(blog.onUntruncatedBlogPosts, 'warn');
});

test('analytics: gtag with IP anonymisation, reporting to the inert id unless the build sets one', () => {
  assert.equal(presetOptions.gtag, undefined, "the preset's gtag plugin (script in the head) is off");
  const gtag = analyticsPlugin?.[1];
  assert.ok(gtag, 'src/plugins/analytics.ts is configured');
  assert.equal(gtag.trackingID, process.env.PIKKU_GA_MEASUREMENT_ID ?? inertAnalyticsId);
  assert.match(gtag.trackingID, /^G-[A-Z0-9]+$/);
  assert.equal(gtag.anonymizeIP, true);
});

test('navbar: Why?, Docs and Blog, then repository, social and chat icon links with accessible names', () => {
  const items = theme.navbar.items;
  assert.deepEqual(
    items.filter((i) => i.label && !i.type?.startsWith('custom-')).map((i) => i.label),
    ['Why?', 'Docs', 'Blog'],
  );
  assert.equal(items.find((i) => i.label === 'Why?').to, '/why');
  assert.deepEqual(
    items.find((i) => i.label === 'Docs'),
    { type: 'docSidebar', sidebarId: 'docs', label: 'Docs', position: 'left' },
  );
  const icons = items.filter((i) => i.type === 'custom-iconLink');
  assert.deepEqual(
    icons.map((i) => i.href),
    [site.repository, site.social, site.chat],
  );
  assert.equal(site.repository, 'https://github.com/pikkujs/pikku');
  assert.equal(site.social, 'https://x.com/pikkujs');
  assert.match(site.chat, /^https:\/\/discord\.gg\//);
  for (const i of icons) assert.ok(i.label.length > 3, 'each icon link has an accessible name');
});

test('footer: licence notice with copyright, and link columns', () => {
  assert.match(theme.footer.copyright, /MIT licen[cs]e/);
  assert.match(theme.footer.copyright, /Copyright ©/);
  assert.ok(theme.footer.links.length >= 3);
});

test('announcement bar: dismissible, id derived from the newest release, link to its post', () => {
  assert.equal(theme.announcementBar.isCloseable, true);
  assert.equal(theme.announcementBar.id, announcementId);
  assert.equal(announcementId, `release-${latestRelease.version}`);
  const [y, m, d] = latestRelease.date.split('-');
  assert.equal(latestReleaseHref, `/blog/${y}/${m}/${d}/${latestRelease.slug}`);
  const post = readdirSync(join(REPO, 'blog')).find((f) =>
    f.startsWith(`${latestRelease.date}-${latestRelease.slug}.`),
  );
  assert.ok(post, `a blog post file exists for ${latestReleaseHref}`);
});

test('the announced release is the newest release post', () => {
  const releases = readdirSync(join(REPO, 'blog'))
    .map((f) => /^(\d{4}-\d\d-\d\d)-pikku-(\d+\.\d+)\.mdx$/.exec(f))
    .filter(Boolean)
    .sort((a, b) => a[1].localeCompare(b[1]));
  assert.ok(releases.length >= 7);
  assert.equal(releases.at(-1)[2], latestRelease.version);
});

test('redirects: every alias of the route map, and one pikku- name for every skill', () => {
  const { aliases } = readRoutes();
  const fromConfig = new Set(redirectPlugin.redirects.map((r) => `${r.from} -> ${r.to}`));
  assert.deepEqual(
    aliases.map((a) => `${a.from} -> ${a.to}`).filter((a) => !fromConfig.has(a)),
    [],
  );
  const { skillNames } = loadModule('src/data/skills.ts');
  for (const name of skillNames) assert.ok(fromConfig.has(`/docs/skills/pikku-${name} -> /docs/skills/${name}`), name);
});
