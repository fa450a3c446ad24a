// src/plugins/app-code-loader.mjs and its rule in src/plugins/app-snippets.ts: an MDX page depends on the to-do app's
// files its fences pull, so a change to one rebuilds the page under the bundler's persistent cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { listMdxFiles } from '../../scripts/lib/content.mjs';
import { fencesOfFile } from '../../scripts/lib/fences.mjs';
import { APP_DIR, PULL_LANGS } from '../../src/plugins/remark-app-code.mjs';
import appCodeLoader from '../../src/plugins/app-code-loader.mjs';

const LOADER = join(REPO, 'src/plugins/app-code-loader.mjs');

/** What the loader declares for a source: the files it passes to addDependency, and the source it returns. */
function runLoader(source) {
  const dependencies = [];
  const out = appCodeLoader.call({ addDependency: (file) => dependencies.push(file) }, source);
  return { dependencies, out };
}

/** The app files the fences of an MDX file pull, as remark-app-code sees the fences (MDX-parsed). */
const pulledFiles = (file) =>
  [
    ...new Set(fencesOfFile(file).flatMap((f) => (PULL_LANGS.has(f.lang) && f.attrs.file ? [f.attrs.file] : []))),
  ].sort();

test('a fence that pulls an app file makes it a dependency; the source is returned as it is', () => {
  const source = [
    '```ts file="src/todo-store.ts" region="types"',
    '```',
    '~~~tsx title="x" file=\'src/auth.ts\'',
    '~~~',
    '```ts file=src/roles.ts',
    '```',
    '```json file="pikku.config.json"',
    '```',
    '```text file="README.md"',
    '```',
    '```ts title="src/other.ts"',
    'const profile="x"',
    '```',
  ].join('\n');
  const { dependencies, out } = runLoader(source);
  assert.equal(out, source);
  assert.deepEqual(
    dependencies.map((d) => relative(APP_DIR, d)),
    ['src/todo-store.ts', 'src/auth.ts', 'src/roles.ts', 'pikku.config.json'],
    'ts, tsx and json fences with a file, quoted or not; not a text fence nor a fence without one',
  );
});

test("every page's dependencies are exactly the app files its fences pull, and each exists", () => {
  let pulling = 0;
  for (const file of listMdxFiles()) {
    const source = readFileSync(file, 'utf8');
    const expected = pulledFiles(file);
    const { dependencies } = runLoader(source);
    const name = relative(REPO, file);
    assert.deepEqual(dependencies.map((d) => relative(APP_DIR, d)).sort(), expected, name);
    for (const dependency of dependencies) assert.ok(existsSync(dependency), `${name}: ${dependency}`);
    if (expected.length) pulling++;
  }
  assert.ok(pulling > 50, `pages that pull app files: ${pulling}`);
});

test('the plugin runs the loader first on every Markdown and MDX file, matched by resource', () => {
  const { default: appSnippets, MDX_FILES } = loadModule('src/plugins/app-snippets.ts');
  const plugin = appSnippets({ siteDir: REPO });
  const rules = plugin.configureWebpack().module.rules;
  assert.deepEqual(rules, [{ resource: MDX_FILES, enforce: 'pre', use: [{ loader: LOADER }] }]);
  for (const file of ['docs/index.mdx', 'blog/x.md', 'src/pages/manual-setup.mdx']) assert.match(file, MDX_FILES);
  // A rule whose `test` matches .mdx would be taken for a content plugin's MDX rule by Docusaurus's fallback rule.
  assert.equal(rules[0].test, undefined);
});
