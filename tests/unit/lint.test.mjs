// The content lint: remark-lint (.remarkrc.mjs, with the site's own rules in scripts/lib/remark-pikku.mjs) and
// textlint (.textlintrc.json). A fixture page trips each rule it should. That all content passes is `npm run lint`'s
// job (lint:md and lint:text), which `npm test` runs first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../scripts/lib/content.mjs';
import { checkSource } from '../../scripts/lib/remark-pikku.mjs';

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const remark = (files) =>
  spawnSync(bin('remark'), ['--quiet', '--frail', '--no-stdout', '--no-color', ...files], {
    cwd: ROOT,
    encoding: 'utf8',
  });
const textlint = (files) =>
  spawnSync(bin('textlint'), ['--no-color', ...files], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });

test('each rule fails on a page that breaks it, naming the file and line', () => {
  // A hidden folder, which no other check's glob finds while it exists (scripts/test.mjs runs checks side by side).
  const dir = mkdtempSync(join(ROOT, 'docs', '.lint-fixture-'));
  const rel = relative(ROOT, dir);
  const head =
    '---\ntitle: Fixture\ndescription: A fixture page the lint tests break on purpose, one rule at a time.\n';
  const page = (body, extra = '') => `${head}${extra}---\n\n${'Words of a long enough page. '.repeat(60)}\n\n${body}\n`;
  const cases = {
    'no-description.mdx': ['---\ntitle: T\n---\n\nText.\n', /description|minLength|required/],
    'unknown-key.mdx': [page('x', 'slug_typo: x\n'), /additional properties/i],
    'bad-tag.mdx': [page('x', 'tags: [no-such-tag]\n'), /not declared/],
    'no-lang.mdx': [page('```\ncode\n```'), /fenced code language/i],
    'broken-link.mdx': [page('[x](./missing.mdx)'), /Cannot find file `missing\.mdx`/],
    'broken-anchor.mdx': [page('[x](../core-features/functions.mdx#no-such-heading)'), /Cannot find heading/],
    'cross-link.mdx': [page('[x](../../why/index.mdx)'), /use its route/],
    'bad-mdx.mdx': [page('An { unclosed brace.'), /brace|expression|Could not parse|Unexpected/i],
    'short.mdx': [`${head}---\n\nToo short.\n`, /words of body text/],
    'placeholder.mdx': [page('This part is TBD.'), /placeholder/],
  };
  try {
    for (const [name, [content]] of Object.entries(cases)) writeFileSync(join(dir, name), content);
    writeFileSync(join(dir, 'casing.mdx'), page('Written in Typescript for Websockets.\n\nTODO: write this.'));
    const r = remark(Object.keys(cases).map((n) => `${rel}/${n}`));
    assert.notEqual(r.status, 0);
    for (const [name, [, expected]] of Object.entries(cases)) {
      const section = r.stderr.split(`${rel}/`).find((s) => s.startsWith(name)) ?? '';
      assert.match(section, expected, `${name}:\n${section}`);
      // The schema rule reports an unknown key without a position; every other rule names the line.
      if (name !== 'unknown-key.mdx') assert.match(section, /\d+:\d+/, `${name} names a line`);
    }
    const t = textlint([`${rel}/casing.mdx`]);
    assert.notEqual(t.status, 0);
    assert.match(t.stdout, /“Typescript”, use “TypeScript”/);
    assert.match(t.stdout, /“Websockets”, use “WebSockets”/);
    assert.match(t.stdout, /TODO: write this/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the site rules: lower-case "todo" is the domain, a post needs its date in the slug and a truncate marker', () => {
  const docs = join(ROOT, 'docs', 'x.mdx');
  const body = 'Each todo has an owner. '.repeat(60);
  assert.deepEqual(checkSource(docs, `---\ntitle: T\ndescription: d\n---\n\n${body}\n`), []);
  const post = join(ROOT, 'blog', '2026-01-02-x.mdx');
  const rules = checkSource(post, '---\nslug: 2026/01/03/x\ntitle: T\n---\n\nNo marker.\n').map((p) => p.message);
  assert.ok(rules.some((m) => /slug must be 2026\/01\/02\/x/.test(m)));
  assert.ok(rules.some((m) => /truncate/.test(m)));
});
