// Config invariants that the settings alone do not make true: files the config names exist, and what it builds from
// the content and data (the skills sidebar, the announcement, the redirects, the diagram step) covers all of them.
// What a setting does is checked where it shows: in the built site (tests/site, tests/e2e) and the fixture builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadDefault, loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { readRoutes } from '../../scripts/lib/content.mjs';

const config = loadDefault('docusaurus.config.ts');
const { latestRelease, latestReleaseHref, announcementId } = loadModule('src/data/site.ts');
const { skillNames } = loadModule('src/data/skills.ts');
const [, presetOptions] = config.presets.find(([name]) => name === 'classic');
const { docs, blog, pages } = presetOptions;
const whyPlugin = config.plugins.find((p) => Array.isArray(p) && p[1]?.id === 'why')[1];
const redirectPlugin = config.plugins.find(
  (p) => Array.isArray(p) && p[0] === '@docusaurus/plugin-client-redirects',
)[1];

test('the favicon and the social card image the config names exist', () => {
  for (const file of [config.favicon, config.themeConfig.image])
    assert.ok(existsSync(join(REPO, 'static', file)), file);
});

test('every MDX instance (docs, why, blog, pages) draws its diagrams at build time', () => {
  for (const [name, options] of [
    ['docs', docs],
    ['why', whyPlugin],
    ['blog', blog],
    ['pages', pages],
  ])
    assert.ok(
      (options.beforeDefaultRemarkPlugins ?? []).some((p) => Array.isArray(p) && p[0].name === 'remarkDiagrams'),
      `${name} draws its diagrams at build time`,
    );
});

test('skills sidebar: the landing page, then every skill of src/data/skills.ts with a pikku- label', () => {
  const { skills } = loadDefault('sidebars.ts');
  assert.equal(skills.length, 1);
  const [category] = skills;
  assert.deepEqual(category.link, { type: 'doc', id: 'skills/index' });
  assert.equal(category.items.length, skillNames.length);
  for (const item of category.items) assert.equal(item.label, `pikku-${item.id.replace('skills/', '')}`);
});

test('the announcement bar names the newest release post, and its id changes with it', () => {
  const releases = readdirSync(join(REPO, 'blog'))
    .map((f) => /^(\d{4}-\d\d-\d\d)-pikku-(\d+\.\d+)\.mdx$/.exec(f))
    .filter(Boolean)
    .sort((a, b) => a[2].localeCompare(b[2], 'en', { numeric: true }));
  assert.ok(releases.length > 0, 'release posts exist');
  assert.equal(releases.at(-1)[2], latestRelease.version);
  assert.equal(config.themeConfig.announcementBar.id, announcementId);
  assert.equal(announcementId, `release-${latestRelease.version}`);
  const [y, m, d] = latestRelease.date.split('-');
  assert.equal(latestReleaseHref, `/blog/${y}/${m}/${d}/${latestRelease.slug}`);
  assert.ok(
    readdirSync(join(REPO, 'blog')).some((f) => f.startsWith(`${latestRelease.date}-${latestRelease.slug}.`)),
    `a blog post file exists for ${latestReleaseHref}`,
  );
});

test('redirects: every alias of the route map, and one pikku- name for every skill', () => {
  const { aliases } = readRoutes();
  const fromConfig = new Set(redirectPlugin.redirects.map((r) => `${r.from} -> ${r.to}`));
  assert.deepEqual(
    aliases.map((a) => `${a.from} -> ${a.to}`).filter((a) => !fromConfig.has(a)),
    [],
  );
  for (const name of skillNames) assert.ok(fromConfig.has(`/docs/skills/pikku-${name} -> /docs/skills/${name}`), name);
});
