// The swizzles of src/theme survive a Docusaurus upgrade visibly: each still names a component the installed theme
// has, and each one Docusaurus calls unsafe to wrap or eject says so in its header comment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from '../../scripts/lib/content.mjs';

const require = createRequire(import.meta.url);
const THEME_DIR = join(dirname(require.resolve('@docusaurus/theme-classic/package.json')), 'lib', 'theme');
// The search plugin's theme components (SearchBar, SearchPage), which the site also wraps.
const SEARCH_THEME_DIR = join(
  dirname(require.resolve('@easyops-cn/docusaurus-search-local/package.json')),
  'dist',
  'client',
  'client',
  'theme',
);
const getSwizzleConfig = require('@docusaurus/theme-classic/lib/getSwizzleConfig.js').default;
const safety = getSwizzleConfig().components;

/** Every swizzled component: { name: 'NotFound/Content', file }. */
const swizzles = (function walk(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return walk(path);
    if (!/\.tsx?$/.test(entry)) return [];
    const name = relative(join(ROOT, 'src', 'theme'), path)
      .replace(/\\/g, '/')
      .replace(/(\/index)?\.tsx?$/, '');
    return [{ name, file: path }];
  });
})(join(ROOT, 'src', 'theme'));

test('every swizzle names a component the installed theme still has', () => {
  assert.ok(swizzles.length > 0);
  const gone = swizzles
    .filter(
      ({ name }) =>
        ![THEME_DIR, SEARCH_THEME_DIR].some((dir) =>
          ['.js', '/index.js'].some((ext) => existsSync(join(dir, name + ext))),
        ),
    )
    .map(({ name }) => name);
  assert.deepEqual(gone, []);
});

test('each swizzle says whether it wraps or ejects, and the unsafe ones say they are unsafe', () => {
  for (const { name, file } of swizzles) {
    const source = readFileSync(file, 'utf8');
    const wraps = source.includes(`@theme-original/${name}`);
    const action = wraps ? 'wrap' : 'eject';
    const level = safety[name]?.actions?.[action] ?? 'unsafe';
    if (level !== 'safe')
      assert.match(source, new RegExp(`Unsafe swizzle \\(${action}\\)`), `${name} is unsafe to ${action}`);
    if (wraps) assert.match(source, new RegExp(`from '@theme/${name}'`), `${name} is typed from '@theme/${name}'`);
  }
});

test("each ejected component (a copy of the theme's code) keeps the upstream license header", () => {
  const missing = swizzles
    .filter(({ name, file }) => !readFileSync(file, 'utf8').includes(`@theme-original/${name}`))
    .filter(({ file }) => {
      const source = readFileSync(file, 'utf8');
      return !(source.includes('Copyright (c) Facebook, Inc. and its affiliates.') && source.includes('MIT license'));
    })
    .map(({ name }) => name);
  assert.deepEqual(missing, []);
});
