// src/plugins/lean-main.ts and its loader: what they take out of the browser build, and the build failures, naming
// the plugin, when Docusaurus changes the files under them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';

const require = createRequire(import.meta.url);
const { stripRegistryPaths, stripServerOnlyConfig, SERVER_ONLY_CONFIG, sortWithoutCollator, COLLATOR_SORTS } = require(
  join(REPO, 'src/plugins/lean-main-loader.cjs'),
);
const { tslibHelpersCalled, LOADER_FILES, UTILS_COMMON } = loadModule('src/plugins/lean-main.ts');
const tslibStandIn = loadModule('src/plugins/lean-main-tslib.ts');

// The shape Docusaurus 3 writes (@docusaurus/core/lib/server/codegen/codegen.js), two entries.
const REGISTRY = `export default {
  "0058b4c6": [() => import(/* webpackChunkName: "0058b4c6" */ "@generated/a/p/docs-175.json"), "@generated/a/p/docs-175.json", require.resolveWeak("@generated/a/p/docs-175.json")],
  "17896441": [() => import(/* webpackChunkName: "17896441" */ "@theme/DocItem"), "@theme/DocItem", require.resolveWeak("@theme/DocItem")],};
`;

test('the registry keeps its loaders and weak ids but not the module paths', () => {
  const out = stripRegistryPaths(REGISTRY);
  assert.equal(out.match(/, null, require\.resolveWeak\(/g)?.length, 2);
  assert.equal(out.match(/import\(\/\* webpackChunkName/g)?.length, 2, 'the loaders stay');
  assert.match(out, /require\.resolveWeak\("@theme\/DocItem"\)/, 'the weak ids stay');
  assert.doesNotMatch(out, /, "@theme\/DocItem", /);
});

test('a registry of another shape fails the build, naming the plugin', () => {
  for (const changed of [
    REGISTRY.replace(', "@theme/DocItem", ', ', { path: "@theme/DocItem" }, '),
    'export default {};',
  ])
    assert.throws(() => stripRegistryPaths(changed), /src\/plugins\/lean-main\.ts: \.docusaurus\/registry\.js/);
});

test('the site config in the browser has no server-only fields and keeps the rest', () => {
  const config = { title: 'Pikku', ssrTemplate: '<html>', plugins: [null], presets: [], themes: [], themeConfig: {} };
  const out = stripServerOnlyConfig(`/* generated */\nexport default ${JSON.stringify(config, null, 2)};\n`);
  const kept = JSON.parse(/^export default (.*);$/m.exec(out)[1]);
  assert.deepEqual(kept, { title: 'Pikku', themeConfig: {} });
  assert.deepEqual(SERVER_ONLY_CONFIG, ['ssrTemplate', 'plugins', 'presets', 'themes']);
});

test('a site config that is not JSON fails the build, naming the plugin', () => {
  assert.throws(
    () => stripServerOnlyConfig('export default { title: "Pikku", x: () => 1 };'),
    /src\/plugins\/lean-main\.ts: \.docusaurus\/docusaurus\.config\.mjs/,
  );
});

test('the loader runs on the generated registry and config, and not on the routes', () => {
  assert.ok(LOADER_FILES.test('/site/.docusaurus/registry.js'));
  assert.ok(LOADER_FILES.test('C:\\site\\.docusaurus\\docusaurus.config.mjs'));
  assert.ok(!LOADER_FILES.test('/site/.docusaurus/routes.js'));
});

test('every tslib helper @docusaurus/utils-common calls is in the stand-in', () => {
  const lib = dirname(require.resolve('@docusaurus/utils-common', { paths: [REPO] }));
  assert.ok(UTILS_COMMON.test(lib), lib);
  const called = tslibHelpersCalled(lib);
  assert.ok(called.length > 0, 'utils-common calls tslib');
  for (const helper of called) assert.equal(typeof tslibStandIn[helper], 'function', helper);
  const esm = { __esModule: true, default: 1 };
  assert.equal(tslibStandIn.__importDefault(esm), esm);
  assert.deepEqual(tslibStandIn.__importDefault(2), { default: 2 });
});

test('the sorts that used the collator are each in the installed module once, and sort as they did', async () => {
  const { readFileSync } = await import('node:fs');
  for (const { file, from, to } of COLLATOR_SORTS) {
    const path = join(REPO, 'node_modules', file);
    const out = sortWithoutCollator(readFileSync(path, 'utf8'), path);
    assert.ok(out.includes(to) && !out.includes(from), file);
    assert.ok(LOADER_FILES.test(path), `the loader runs on ${file}`);
  }
  // The same orders as with localeCompare, for the keys and paths they sort.
  const keys = ['subtree', 'childList', 'attributes', 'characterData'].map((k) => [k, true]);
  const deps = keys.slice();
  eval(COLLATOR_SORTS[0].to.replace(/;$/, ''));
  assert.deepEqual(
    deps,
    keys.slice().sort((a, b) => a[0].localeCompare(b[0])),
  );
  const plugins = ['/', '/docs', '/why', '/docs/api', '/android/foo', '/android'].map((p) => [p, { path: p }]);
  const sorted = eval(`plugins.slice()${COLLATOR_SORTS[1].to}`);
  assert.deepEqual(
    sorted,
    plugins.slice().sort((a, b) => b[1].path.localeCompare(a[1].path)),
  );
});

test('a sort that is no longer there fails the build, naming the plugin', () => {
  assert.throws(
    () => sortWithoutCollator('deps.sort(byKey);', '/x/node_modules/@docusaurus/theme-common/lib/utils/reactUtils.js'),
    /src\/plugins\/lean-main\.ts: @docusaurus\/theme-common\/lib\/utils\/reactUtils\.js no longer has/,
  );
});
