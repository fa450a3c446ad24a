// The one fence reader of the scripts and tests (scripts/lib/fences.mjs): every fenced block of an MDX page, read
// from the Markdown AST, wherever it sits (JSX, lists, indented), with its lines in the whole file; code inside a
// fence is never a fence; a page that is not MDX fails naming its file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/content.mjs';
import { fencesOfFile, parseAttrs, readFences } from '../../scripts/lib/fences.mjs';

const page = [
  '---', //                                         1
  'title: A page',
  'description: Fences everywhere.',
  '---',
  '',
  "import Tabs from '@theme/Tabs';", //             6
  '',
  '```ts title="src/a.ts" region=getTodo npm2yarn', // 8
  'const a = 1',
  '```', //                                         10
  '',
  '<Tabs>', //                                      12
  '  <TabItem value="npm">',
  '    ```bash',
  '    npm install x',
  '      --save-dev',
  '    ```', //                                     17
  '  </TabItem>',
  '</Tabs>',
  '',
  '- A step:', //                                   21
  '',
  "  ~~~json file='pikku.config.json'",
  '  {}',
  '  ~~~', //                                       25
  '',
  '````md', //                                      27
  '```ts title="not/a/fence.ts"',
  'inside',
  '```',
  '````', //                                        31
  '',
  '~~~text',
  '```js',
  '~~~', //                                         35
  '',
  '```',
  'no language',
  '```', //                                         39
  '',
].join('\n');

const fences = readFences(page, { file: 'docs/page.mdx' });

test('every fence is found once, in page order, with its lines in the whole file (front matter included)', () => {
  assert.deepEqual(
    fences.map((f) => [f.lang, f.line, f.endLine]),
    [
      ['ts', 8, 10],
      ['bash', 14, 17],
      ['json', 23, 25],
      ['md', 27, 31],
      ['text', 33, 35],
      ['', 37, 39],
    ],
  );
  assert.ok(fences.every((f) => f.file === 'docs/page.mdx'));
});

test('a fence keeps its meta as written and its attributes parsed; no meta is an empty one', () => {
  const [ts, bash, json] = fences;
  assert.equal(ts.meta, 'title="src/a.ts" region=getTodo npm2yarn');
  assert.deepEqual(ts.attrs, { title: 'src/a.ts', region: 'getTodo', npm2yarn: true });
  assert.equal(ts.code, 'const a = 1');
  assert.equal(bash.meta, '');
  assert.deepEqual(bash.attrs, {});
  assert.deepEqual(json.attrs, { file: 'pikku.config.json' });
  assert.equal(fences[5].meta, '');
});

test('a fence in JSX or in a list item loses only its own indentation; a tilde fence is a fence', () => {
  assert.equal(fences[1].code, 'npm install x\n  --save-dev');
  assert.equal(fences[2].code, '{}');
  assert.equal(fences[4].code, '```js');
});

test('backticks inside a longer fence are code, not a fence', () => {
  assert.equal(fences[3].code, '```ts title="not/a/fence.ts"\ninside\n```');
  assert.ok(!fences.some((f) => f.lang === 'js' || f.attrs.title === 'not/a/fence.ts'));
});

test('a line range is no attribute, and a quoted value keeps its spaces and equals signs', () => {
  assert.deepEqual(parseAttrs('{1,3-4} title="a b=c" showLineNumbers'), { title: 'a b=c', showLineNumbers: true });
  assert.deepEqual(parseAttrs(''), {});
  assert.deepEqual(parseAttrs(null), {});
});

test('a file is parsed once per process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fences-'));
  try {
    const file = join(dir, 'a.mdx');
    writeFileSync(file, '# A\n\n```ts\nx\n```\n');
    const first = fencesOfFile(file);
    writeFileSync(file, '# Changed\n');
    assert.equal(fencesOfFile(file), first);
    assert.equal(first[0].file, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page that is not MDX fails, naming its file and line with the parser message', () => {
  const broken = '---\ntitle: T\n---\n\nText.\n\nAn { unclosed brace.\n';
  assert.throws(
    () => readFences(broken, { file: join(ROOT, 'docs', 'broken.mdx') }),
    /^Error: docs\/broken\.mdx:7:\d+: not valid MDX: .*(brace|expression)/,
  );
  const dir = mkdtempSync(join(tmpdir(), 'fences-'));
  try {
    const file = join(dir, 'bad.mdx');
    writeFileSync(file, '# Bad\n\n<div>\n\n```ts\nx\n```\n');
    assert.throws(
      () => fencesOfFile(file),
      (error) => error.message.includes(`${file}:`) && /:\d+:\d+: /.test(error.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
