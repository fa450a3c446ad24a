// Content invariants over the MDX sources: the structures the issues require (runtime pages, skills, tags, blog,
// why) hold. The lint rules themselves are tested in lint.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { loadDefault } from '../lib/load.mjs';
import { fencesOfFile } from '../../scripts/lib/fences.mjs';
import { sections } from '../../scripts/lib/skills.mjs';
import {
  ROOT,
  listContentFiles,
  listMdxFiles,
  loadTagSet,
  readRoutes,
  routeOfFile,
  splitFrontMatter,
  wordCount,
} from '../../scripts/lib/content.mjs';

const read = (rel) => readFileSync(join(ROOT, rel), 'utf8');
const h2s = (rel) => [...splitFrontMatter(read(rel)).body.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());
const docsFiles = listContentFiles([join(ROOT, 'docs')]);

test('every docs and why route of the route map has a source file', () => {
  const have = new Set(listContentFiles().map(routeOfFile));
  const missing = readRoutes()
    .canonical.filter((r) => /^\/(docs|why)(\/|$)/.test(r) && !r.startsWith('/docs/tags'))
    .map((r) => r.replace(/\/$/, ''))
    .filter((r) => !have.has(r));
  assert.deepEqual(missing, []);
});

test('docs/tags.yml declares every tag of the route map, each with a label and a description', () => {
  const declared = [...loadTagSet(join(ROOT, 'docs', 'tags.yml'))].sort();
  const required = readRoutes()
    .canonical.filter((r) => r.startsWith('/docs/tags/'))
    .map((r) => r.slice('/docs/tags/'.length))
    .sort();
  assert.deepEqual(
    required.filter((t) => !declared.includes(t)),
    [],
  );
  const data = yaml.load(read('docs/tags.yml'));
  for (const [key, value] of Object.entries(data)) {
    assert.ok(value.label, `${key} has a label`);
    assert.ok(value.description?.length > 20, `${key} has a description`);
  }
});

test('every declared tag is used by at least one docs page', () => {
  const used = new Set(docsFiles.flatMap((f) => splitFrontMatter(readFileSync(f, 'utf8')).data.tags ?? []));
  const unused = [...loadTagSet(join(ROOT, 'docs', 'tags.yml'))].filter((t) => !used.has(t));
  assert.deepEqual(unused, []);
});

test('the realtime tag marks the channel and server-sent events pages', () => {
  for (const rel of ['docs/channels/index.mdx', 'docs/channels/channel-route.mdx', 'docs/http/server-sent-events.mdx'])
    assert.ok(splitFrontMatter(read(rel)).data.tags?.includes('realtime'), rel);
});

const RUNTIME_SECTIONS = [
  'What it is',
  'Supported wirings',
  'Install',
  'Entry file',
  'Configuration',
  'Run it locally',
  'Deploy',
  'Limits and gotchas',
  'Next steps',
];
const runtimePages = readdirSync(join(ROOT, 'docs', 'runtimes')).filter((f) => f !== 'index.mdx');

test('the runtime pages share one section structure', () => {
  for (const f of runtimePages) assert.deepEqual(h2s(`docs/runtimes/${f}`), RUNTIME_SECTIONS, f);
});

test('the runtimes index compares every runtime in a table', () => {
  const body = read('docs/runtimes/index.mdx');
  for (const f of runtimePages) assert.ok(body.includes(`./${f}`), `the comparison links ${f}`);
  assert.match(body, /^\|.*HTTP.*\|.*Channels.*\|/im);
});

const SKILL_SECTIONS = [
  'When to use it',
  'Prerequisites',
  'Install',
  'Files to create',
  'Commands to run',
  'Verify it worked',
  'Mistakes to avoid',
  'Related docs',
];
const skillPages = readdirSync(join(ROOT, 'docs', 'skills')).filter((f) => f !== 'index.mdx');

test('every skill has the recipe sections in order, an install block and titled files', () => {
  for (const f of skillPages) {
    const rel = `docs/skills/${f}`;
    assert.deepEqual(h2s(rel), SKILL_SECTIONS, rel);
    const fences = fencesOfFile(join(ROOT, rel));
    const { body, bodyLine } = splitFrontMatter(read(rel));
    const install = sections(body, { fences, firstLine: bodyLine }).find((s) => s.title === 'Install');
    assert.ok(
      install.fences.some((f) => f.lang === 'bash' && f.attrs.npm2yarn) || /^Nothing new/m.test(install.text),
      `${rel} installs with npm2yarn, or says nothing new is needed`,
    );
    assert.ok(
      fences.some((f) => f.lang && (f.attrs.title || f.attrs.file)),
      `${rel} has titled files`,
    );
  }
});

test('the docs index links to the skills landing page', () => {
  assert.match(read('docs/index.mdx'), /\/docs\/skills/);
});

const posts = readdirSync(join(ROOT, 'blog')).filter((f) => f.endsWith('.mdx'));

test('every blog post has a slug matching its date, a description, the team as author and a truncate marker', () => {
  for (const f of posts) {
    const [, date, name] = /^(\d{4}-\d\d-\d\d)-(.+)\.mdx$/.exec(f);
    assert.ok(date >= '2021-01-01' && new Date(date) <= new Date(), `${f} is dated from 2021 to today`);
    const { data, body } = splitFrontMatter(read(`blog/${f}`));
    assert.equal(data.slug, `${date.replaceAll('-', '/')}/${name}`, f);
    assert.ok(data.description?.length >= 40, `${f} has a description`);
    assert.deepEqual(data.authors, ['pikku-team'], f);
    assert.match(body, /\{\/\*\s*truncate\s*\*\/\}/, `${f} has an MDX truncate marker`);
  }
});

test('blog authors and tags are declared, and every declared tag is used', () => {
  // Every post is by the team (checked per post above); the team is declared under its name.
  const authors = yaml.load(read('blog/authors.yml'));
  assert.equal(authors['pikku-team']?.name, 'The Pikku Team');
  const declared = loadTagSet(join(ROOT, 'blog', 'tags.yml'));
  const used = new Set(posts.flatMap((f) => splitFrontMatter(read(`blog/${f}`)).data.tags ?? []));
  for (const t of used) assert.ok(declared.has(t), `blog tag ${t} is declared`);
  for (const t of declared) assert.ok(used.has(t), `blog tag ${t} is used`);
});

// The release notes the specification names (site-spec.md, "Release notes for versions ..."); others may follow.
const SPEC_RELEASES = ['0.2', '0.3', '0.5', '0.6', '0.8', '0.9'];
test('the release notes the specification names exist', () => {
  for (const v of SPEC_RELEASES)
    assert.ok(
      posts.some((f) => f.endsWith(`-pikku-${v}.mdx`)),
      v,
    );
});

// Which why pages exist is the route map's to say (tests/data/spec-routes.txt, checked against the build).
test('the why pages take no tags, and each essay has at least 400 words', () => {
  for (const f of readdirSync(join(ROOT, 'why')).filter((n) => n.endsWith('.mdx'))) {
    const { data, body } = splitFrontMatter(read(`why/${f}`));
    assert.equal(data.tags, undefined, `${f} takes no tags`);
    if (f !== 'index.mdx') assert.ok(wordCount(body) >= 400, `${f}: ${wordCount(body)} words`);
  }
});

test('no published percentage or speed claim the facts do not source', () => {
  for (const f of listContentFiles()) {
    const text = readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /\b(40|85)% (cost|fewer)/i, f);
    assert.doesNotMatch(text, /\b10[x×] (faster|the throughput)/i, f);
  }
});

test('stale API names never appear as current API in the docs', () => {
  for (const f of docsFiles) {
    // TypeScript, JavaScript and JSON (ts, tsx, js, json...).
    for (const { code } of fencesOfFile(f).filter((b) => /^(ts|js)/.test(b.lang))) {
      assert.doesNotMatch(code, /\bwireMCPTool\s*\(/, `${f}: wireMCPTool does not exist`);
      assert.doesNotMatch(
        code,
        /@pikku\/(express-server|fastify-server|aws-lambda|uws-server|nextjs|cloudflare-workers)\b/,
        f,
      );
      assert.doesNotMatch(code, /\bcreateSessionServices\b/, f);
      assert.doesNotMatch(code, /\baddHTTPPermission\b|\baddTagPermission\b/, f);
    }
  }
});

test("every code fence's language is one Prism highlights (with the config's extra languages), or plain text", () => {
  // A fence in a language Prism does not know renders as plain text with no warning; this says which file has it.
  const require = createRequire(join(ROOT, 'package.json'));
  const { Prism } = require('prism-react-renderer');
  const { additionalLanguages } = loadDefault('docusaurus.config.ts').themeConfig.prism;
  // As the theme's prism-include-languages does (src/theme/CodeBlock runs it in the browser).
  globalThis.Prism = Prism;
  for (const language of additionalLanguages) require(`prismjs/components/prism-${language}`);
  delete globalThis.Prism;
  const drawnOrPlain = new Set(['text', 'mermaid']);
  const unknown = [];
  for (const file of listMdxFiles())
    for (const { lang: language } of fencesOfFile(file))
      if (language && !drawnOrPlain.has(language) && !Prism.languages[language])
        unknown.push(`${file.slice(ROOT.length + 1)}: ${language}`);
  assert.deepEqual(unknown, []);
});
