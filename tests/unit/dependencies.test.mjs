// Every package the site's own code imports is declared in package.json, so a clean install has it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/content.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
/** Modules Docusaurus provides to site code through its webpack aliases, not packages to install. */
const ALIASED =
  /^(@theme(-original|-init)?|@site|@generated|@docusaurus\/(Link|Head|router|useDocusaurusContext|useBaseUrl|BrowserOnly|ExecutionEnvironment|Interpolate|Translate|isInternalUrl|useIsBrowser|ErrorBoundary|renderRoutes|constants|useRouteContext|useGlobalData|ComponentCreator|Noop))(\/|$)/;

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(path).isDirectory() ? walk(path) : /\.(m?[jt]sx?)$/.test(name) ? [path] : [];
  });

test('every package imported by the site, its scripts and its tests is declared', () => {
  const files = [
    ...['src', 'scripts', 'tests'].flatMap((d) => walk(join(ROOT, d))),
    join(ROOT, 'docusaurus.config.ts'),
    join(ROOT, '.remarkrc.mjs'),
  ];
  const missing = new Set();
  for (const file of files) {
    const code = readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
    for (const m of code.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"`]*?from\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.') || spec.startsWith('node:') || ALIASED.test(spec)) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (!declared.has(name)) missing.add(`${name} (${file.slice(ROOT.length + 1)})`);
    }
  }
  assert.deepEqual([...missing], []);
});

test('CI and local runs use one Node.js version, within the engines range', () => {
  const nvmrc = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim();
  const [major] = nvmrc.split('.').map(Number);
  assert.ok(major >= Number(/\d+/.exec(pkg.engines.node)[0]), `.nvmrc ${nvmrc} satisfies ${pkg.engines.node}`);
  assert.match(
    readFileSync(join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8'),
    /node-version-file: \.nvmrc[\s\S]*npm ci && npm test/,
  );
});

test('every @docusaurus package is pinned to one exact version, and the lockfile installs it', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const pins = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([name]) =>
    name.startsWith('@docusaurus/'),
  );
  const loose = pins.filter(([, version]) => !/^\d+\.\d+\.\d+$/.test(version)).map(([n, v]) => `${n}@${v}`);
  assert.deepEqual(loose, [], 'exact versions, not ranges: a fresh install must not bring a newer Docusaurus');
  assert.equal(new Set(pins.map(([, v]) => v)).size, 1, `one version for all: ${pins.map((p) => p.join('@'))}`);
  const [, version] = pins[0];
  assert.match(version, /^3\./, 'Docusaurus 3');
  const installed = Object.entries(lock.packages)
    .filter(([path]) => /(^|\/)node_modules\/@docusaurus\/[^/]+$/.test(path))
    .filter(([, entry]) => entry.version !== version)
    .map(([path, entry]) => `${path}@${entry.version}`);
  assert.deepEqual(installed, [], `package-lock.json installs only @docusaurus/*@${version}`);
});
