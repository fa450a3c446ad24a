// Which social image a page gets (src/data/social.ts): by the section of its route, or of its source file for the
// front matter the config fills in; and every section's image is drawn and committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadDefault, loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { listContentFiles } from '../../scripts/lib/content.mjs';

const { socialSections, socialSectionOf, socialImagePath, routeOfSource, sectionImage } =
  loadModule('src/data/social.ts');
const config = loadDefault('docusaurus.config.ts');

test('routes take the image of their longest matching section prefix, and home is the fallback', () => {
  const sectionOf = (route) => socialSectionOf(route).section;
  assert.equal(sectionOf('/'), 'home');
  assert.equal(sectionOf('/search'), 'home');
  assert.equal(sectionOf('/docs'), 'docs');
  assert.equal(sectionOf('/docs/http/router'), 'docs');
  assert.equal(sectionOf('/manual-setup'), 'docs');
  assert.equal(sectionOf('/docs/skills'), 'skills');
  assert.equal(sectionOf('/docs/skills/http'), 'skills');
  assert.equal(sectionOf('/docs/skillset'), 'docs', 'a prefix matches whole path segments');
  assert.equal(sectionOf('/why/vendor-lock-in'), 'why');
  assert.equal(sectionOf('/blog/2021/08/01/hello'), 'blog');
});

test('source files map to the routes their section is chosen by', () => {
  assert.equal(routeOfSource('/site/docs/skills/http.mdx'), '/docs/skills/http');
  assert.equal(routeOfSource('/site/docs/index.mdx'), '/docs');
  assert.equal(routeOfSource('/site/docs/http/index.mdx'), '/docs/http');
  assert.equal(routeOfSource('/site/why/vendor-lock-in.mdx'), '/why/vendor-lock-in');
  assert.equal(routeOfSource('/site/blog/2021-08-01-hello.mdx'), '/blog');
  assert.equal(routeOfSource('/site/src/pages/manual-setup.mdx'), '/manual-setup');
  assert.equal(routeOfSource('C:\\site\\docs\\skills\\http.mdx'), '/docs/skills/http');
  for (const file of listContentFiles())
    assert.notEqual(socialSectionOf(routeOfSource(file)).section, 'home', `${file} gets its section's image`);
});

test('every section has a drawn image in static/, and the fallback is the home one', () => {
  for (const section of socialSections) assert.ok(existsSync(join(REPO, 'static', socialImagePath(section))));
  assert.equal(`/${config.themeConfig.image}`, sectionImage('home'));
});

test('the config gives a Markdown page its section image unless its front matter names one', async () => {
  const { parseFrontMatter } = config.markdown;
  const defaultParseFrontMatter = async ({ fileContent }) => ({
    frontMatter: /image: (\S+)/.test(fileContent) ? { image: /image: (\S+)/.exec(fileContent)[1] } : {},
    content: '',
  });
  const parse = (filePath, fileContent = '') => parseFrontMatter({ filePath, fileContent, defaultParseFrontMatter });
  assert.equal((await parse('/site/docs/skills/http.mdx')).frontMatter.image, '/img/social/skills.png');
  assert.equal((await parse('/site/blog/2021-08-01-hello.mdx')).frontMatter.image, '/img/social/blog.png');
  assert.equal((await parse('/site/why/x.mdx', 'image: /img/own.png')).frontMatter.image, '/img/own.png');
});
