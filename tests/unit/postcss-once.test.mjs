// src/plugins/postcss-once.ts: the CSS pipeline's PostCSS plugins are made once per build, the loader's config search
// is off, and the build fails if a PostCSS config file is added (it would be ignored).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';

const require = createRequire(import.meta.url);
const { default: postcssOnce, postcssConfigIn, POSTCSS_CONFIG_FILES } = loadModule('src/plugins/postcss-once.ts');
// What Docusaurus's style loader hands configurePostCss (@docusaurus/bundler/lib/loaders/styleLoader.js).
const PRESET_ENV = require.resolve('postcss-preset-env', { paths: [require.resolve('@docusaurus/bundler')] });
const docusaurusOptions = () => ({ ident: 'postcss', plugins: [[PRESET_ENV, {}]] });

test('each named plugin is made once and shared by every CSS rule; the config search is off', () => {
  const plugin = postcssOnce({ siteDir: REPO });
  const layers = { postcssPlugin: 'wrap-in-layer' };
  const first = plugin.configurePostCss(docusaurusOptions());
  const second = plugin.configurePostCss({ ...docusaurusOptions(), plugins: [[PRESET_ENV, {}], layers] });
  assert.equal(first.config, false);
  assert.equal(first.ident, 'postcss', 'the other options stay');
  assert.equal(first.plugins.length, 1);
  assert.equal(typeof first.plugins[0], 'object', 'an instance, not a module path');
  assert.equal(first.plugins[0].postcssPlugin, 'postcss-preset-env');
  assert.equal(second.plugins[0], first.plugins[0], 'the same instance');
  assert.equal(second.plugins[1], layers, 'plugins given as instances are handed on');
});

test('the site has no PostCSS config; one added fails the build, naming it', () => {
  assert.equal(postcssConfigIn(REPO), undefined);
  const dir = mkdtempSync(join(tmpdir(), 'postcss-once-'));
  try {
    assert.equal(postcssConfigIn(dir), undefined, 'a folder without package.json');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ postcss: { plugins: {} } }));
    assert.equal(postcssConfigIn(dir), 'package.json ("postcss")');
    writeFileSync(join(dir, POSTCSS_CONFIG_FILES[0]), 'module.exports = {};\n');
    assert.throws(() => postcssOnce({ siteDir: dir }), /\[postcss-once\] postcss\.config\.js: .* configurePostCss/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an entry that is not a PostCSS plugin creator fails the build, naming the plugin', () => {
  const plugin = postcssOnce({ siteDir: REPO });
  assert.throws(
    () => plugin.configurePostCss({ plugins: [[require.resolve('js-yaml'), {}]] }),
    /\[postcss-once\] .*js-yaml.* is not a PostCSS plugin creator/,
  );
});
