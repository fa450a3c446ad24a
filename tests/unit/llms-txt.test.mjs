// The Markdown copies of the pages (src/plugins/llms-txt.mjs): MDX in, plain Markdown out, on small inputs
// written to exercise each rule; and its settings file checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SETTINGS_FILE,
  docCardsOf,
  llmsTxt,
  mdPathOf,
  mdxToMarkdown,
  orderedDocs,
  readSettings,
} from '../../src/plugins/llms-txt.mjs';
import { readAppCode, visibleCode } from '../../src/plugins/remark-app-code.mjs';
import { REPO } from '../lib/fixture-site.mjs';

const page = (body) => `---\ntitle: Ignored here\ndescription: From the metadata instead.\n---\n\n${body}\n`;
const convert = (body, options = {}) => mdxToMarkdown(page(body), { file: 'docs/x.mdx', ...options });

test('the title and description head the copy; front matter, imports and comments go', () => {
  const md = convert("import DocCardList from '@theme/DocCardList';\n\nText.\n\n{/* truncate */}\n\nMore.", {
    title: 'Functions',
    description: 'What a function is.',
  });
  assert.equal(md, '# Functions\n\n> What a function is.\n\nText.\n\nMore.\n');
});

test('a page with its own h1 keeps it and gets no second one', () => {
  const md = convert('# Own title\n\nText.', { title: 'Functions' });
  assert.equal((md.match(/^# /gm) ?? []).length, 1);
  assert.match(md, /^# Own title/);
});

test("an app-code fence is filled with the app's code, cut, and titled, exactly as remark-app-code shows it", () => {
  const md = convert('```ts file="src/functions/todos.functions.ts" region="getTodo"\n```');
  const code = visibleCode(readAppCode('src/functions/todos.functions.ts', 'getTodo'));
  assert.ok(code.length > 20);
  assert.ok(md.includes('```ts title="src/functions/todos.functions.ts"\n' + code + '\n```'), md);
});

test('lines above // ---cut--- are hidden and a deliberate mistake keeps its marked title', () => {
  const md = convert(
    '```ts title="src/x.ts" mistake="TS2345"\nimport { hidden } from "./y.js"\n// ---cut---\nshown(1)\n```',
  );
  assert.match(md, /```ts title="src\/x\.ts \(a deliberate mistake: fails with TS2345\)"\nshown\(1\)\n```/);
  assert.doesNotMatch(md, /hidden/);
});

test('an npm2yarn fence keeps its npm commands (the first tab) and loses the marker; titles stay', () => {
  const md = convert(
    '```bash npm2yarn\nnpm install @pikku/core\n```\n\n```toml title="wrangler.toml"\nname = "x"\n```',
  );
  assert.match(md, /```bash\nnpm install @pikku\/core\n```/);
  assert.match(md, /```toml title="wrangler.toml"\nname = "x"\n```/);
});

test('a mermaid diagram stays a fenced mermaid block', () => {
  const md = convert('```mermaid\nflowchart LR\n  A --> B\n```');
  assert.match(md, /```mermaid\nflowchart LR\n {2}A --> B\n```/);
});

test('admonitions become blockquotes that say what kind they are, with their label', () => {
  const md = convert(':::warning\n\nMind the gap.\n\n:::\n\n:::tip[Version]\n\nSince 0.12.\n\n:::');
  assert.match(md, /> \*\*Warning\*\*\n>\n> Mind the gap\./);
  assert.match(md, /> \*\*Tip: Version\*\*\n>\n> Since 0\.12\./);
  assert.doesNotMatch(md, /:::/);
});

test('a colon in prose that parses as a directive is kept as written', () => {
  const md = convert('Runs at 10:30 and at 12:00:daily.');
  assert.match(md, /10:30 and at 12:00:daily/);
});

test('<CardGrid>/<Card> and <DocCardList /> become lists of links; <Tabs> its first tab', () => {
  const md = convert(
    '<CardGrid>\n  <Card title="HTTP" href="/docs/http">\n    Routes and clients.\n  </Card>\n</CardGrid>\n\n<DocCardList />\n\n' +
      '<Tabs>\n  <TabItem value="npm">\n\nnpm it.\n\n  </TabItem>\n  <TabItem value="yarn">\n\nyarn it.\n\n  </TabItem>\n</Tabs>',
    {
      resolveLink: (url) => `https://example.test${url}`,
      docCards: () => [{ title: 'Router', href: 'https://example.test/docs/http/router.md', description: 'Routes.' }],
    },
  );
  assert.match(md, /- \[HTTP\]\(https:\/\/example\.test\/docs\/http\): Routes and clients\./);
  assert.match(md, /[-*] \[Router\]\(https:\/\/example\.test\/docs\/http\/router\.md\): Routes\./);
  assert.match(md, /npm it\./);
  assert.doesNotMatch(md, /yarn it|<[A-Z]/);
});

test('links and images go through resolveLink', () => {
  const md = convert('See [router](../http/router.mdx#auth) and ![logo](/img/logo.svg).', {
    resolveLink: (url) => `https://resolved.test/${url}`,
  });
  assert.ok(md.includes('[router](https://resolved.test/../http/router.mdx#auth)'), md);
  assert.ok(md.includes('![logo](https://resolved.test//img/logo.svg)'), md);
});

test('a component with no Markdown form, or an expression, fails naming the file and line', () => {
  assert.throws(() => convert('Intro.\n\n<Mystery />'), /docs\/x\.mdx:8: <Mystery> has no Markdown form/);
  assert.throws(() => convert('Sum: {1 + 1}'), /docs\/x\.mdx:6: the expression \{1 \+ 1\} is not a comment/);
  assert.throws(() => convert(':::aside\n\nHm.\n\n:::'), /docs\/x\.mdx:6: :::aside is not an admonition/);
  assert.throws(() => convert('<DocCardList />'), /<DocCardList \/> outside a sidebar category/);
});

test('a missing app file fails naming the MDX file', () => {
  assert.throws(() => convert('```ts file="src/nope.ts"\n```'), /docs\/x\.mdx: file="src\/nope\.ts" is not a file/);
});

test('Markdown copies live at the page URL plus .md; an index page at its folder name', () => {
  assert.equal(mdPathOf('/docs/http/router'), '/docs/http/router.md');
  assert.equal(mdPathOf('/docs/'), '/docs.md');
  assert.equal(mdPathOf('/why'), '/why.md');
});

const version = {
  docs: [
    { id: 'index', title: 'Intro', description: 'Start.', permalink: '/docs/' },
    { id: 'http/index', title: 'HTTP', description: 'The transport.', permalink: '/docs/http' },
    { id: 'http/router', title: 'Router', description: 'Routes.', permalink: '/docs/http/router' },
    { id: 'orphan', title: 'Orphan', description: 'In no sidebar.', permalink: '/docs/orphan' },
    { id: 'hidden', title: 'Hidden', description: 'Unlisted.', permalink: '/docs/hidden', unlisted: true },
  ],
  sidebars: {
    docs: [
      { type: 'doc', id: 'index' },
      { type: 'link', label: 'Elsewhere', href: '/manual-setup' },
      {
        type: 'category',
        label: 'HTTP',
        link: { type: 'doc', id: 'http/index' },
        items: [{ type: 'doc', id: 'http/router', label: 'HTTP router' }],
      },
    ],
  },
};

test('pages come in sidebar order with their top-level category; pages in no sidebar follow; unlisted ones go', () => {
  const ordered = orderedDocs({ loadedVersions: [version] }).map(({ doc, group }) => [doc.id, group]);
  assert.deepEqual(ordered, [
    ['index', null],
    ['http/index', 'HTTP'],
    ['http/router', 'HTTP'],
    ['orphan', null],
  ]);
});

test("a DocCardList lists its category's items with their sidebar labels and descriptions", () => {
  const cards = docCardsOf(version.docs[1], version, (href) => `U${href}`);
  assert.deepEqual(cards, [{ title: 'HTTP router', href: 'U/docs/http/router', description: 'Routes.' }]);
});

test('llms.txt follows the llmstxt.org shape: h1, summary quote, details, h2 lists of links', () => {
  const text = llmsTxt({
    name: 'Pikku',
    summary: 'A summary.',
    details: 'Details.',
    groups: [
      { heading: 'Docs', pages: [{ title: 'A', url: 'https://x.test/a.md', description: 'About A.' }] },
      { heading: 'Empty', pages: [] },
    ],
    optional: [{ title: 'Blog', url: 'https://x.test/blog' }],
  });
  assert.equal(
    text,
    '# Pikku\n\n> A summary.\n\nDetails.\n\n## Docs\n\n- [A](https://x.test/a.md): About A.\n\n## Optional\n\n- [Blog](https://x.test/blog)\n',
  );
});

test("the site's settings file is valid, and a bad one fails naming the file", () => {
  const settings = readSettings(join(REPO, SETTINGS_FILE));
  assert.ok(settings.sections.length > 0);
  const dir = mkdtempSync(join(tmpdir(), 'llms-settings-'));
  try {
    const bad = join(dir, 'llms-txt.json');
    writeFileSync(bad, JSON.stringify({ summary: 'x', sections: [{ title: 'Docs', prefix: 'docs' }] }));
    assert.throws(() => readSettings(bad), new RegExp(`${bad.replace(/[.]/g, '\\.')}: every section needs`));
    writeFileSync(bad, '{ not json');
    assert.throws(() => readSettings(bad), /llms-txt\.json: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the post-build step writes each copy, and a copy's error names its file", async () => {
  // A two-page site: the copies are made by markdownCopies.
  const { default: llmsTxtPlugin } = await import('../../src/plugins/llms-txt.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'llms-post-build-'));
  try {
    mkdirSync(join(dir, 'src', 'data'), { recursive: true });
    mkdirSync(join(dir, 'docs'));
    mkdirSync(join(dir, 'build'));
    writeFileSync(
      join(dir, SETTINGS_FILE),
      JSON.stringify({ summary: 'A site.', sections: [{ title: 'Docs', prefix: '/docs' }] }),
    );
    writeFileSync(join(dir, 'docs', 'a.mdx'), page('See [page b](./b.mdx#usage).'));
    writeFileSync(join(dir, 'docs', 'b.mdx'), page('Plain.'));
    const doc = (id) => ({
      id,
      title: id.toUpperCase(),
      description: `Page ${id}.`,
      permalink: `/docs/${id}`,
      source: `@site/docs/${id}.mdx`,
    });
    const plugins = [
      { name: 'docusaurus-plugin-content-docs', content: { loadedVersions: [{ docs: [doc('a'), doc('b')] }] } },
    ];
    const postBuild = (outDir) =>
      llmsTxtPlugin({ siteDir: dir }).postBuild({ outDir, plugins, siteConfig: { url: 'https://x.dev', title: 'X' } });
    await postBuild(join(dir, 'build'));
    assert.equal(
      readFileSync(join(dir, 'build', 'docs', 'a.md'), 'utf8'),
      '# A\n\n> Page a.\n\nSee [page b](https://x.dev/docs/b.md#usage).\n',
    );
    assert.match(readFileSync(join(dir, 'build', 'llms-full.txt'), 'utf8'), /<!-- https:\/\/x\.dev\/docs\/b -->/);
    writeFileSync(join(dir, 'docs', 'b.mdx'), page('<Shiny />'));
    await assert.rejects(postBuild(join(dir, 'build')), /docs\/b\.mdx:\d+: <Shiny> has no Markdown form/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
