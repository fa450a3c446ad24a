// The framework the app and the samples run on is the real one: the vendored tarballs match their manifest, the
// app installs every @pikku package from them, its generated code is the CLI's own (never committed), and the
// only hand-written type stand-ins left are for packages that cannot be installed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP, VENDOR, vendorManifest, vendorProblems } from '../../scripts/app.mjs';
import { ROOT } from '../../scripts/lib/content.mjs';

const manifest = vendorManifest();
const appPkg = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8'));
const appLock = JSON.parse(readFileSync(join(APP, 'package-lock.json'), 'utf8'));

test('every vendored tarball matches the sha256 of the manifest', () => {
  assert.ok(manifest.packages.length > 0);
  assert.deepEqual(vendorProblems(), []);
  const files = readdirSync(VENDOR).filter((f) => f.endsWith('.tgz'));
  assert.deepEqual(files.sort(), manifest.packages.map((p) => p.file).sort(), 'vendor/pikku holds the manifest files');
});

test('the check names a tarball that was changed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vendor-check-'));
  try {
    const [first] = manifest.packages;
    for (const p of manifest.packages) copyFileSync(join(VENDOR, p.file), join(dir, p.file));
    copyFileSync(join(VENDOR, 'manifest.json'), join(dir, 'manifest.json'));
    writeFileSync(join(dir, first.file), 'not the tarball');
    const problems = vendorProblems(dir);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0],
      new RegExp(`^${first.name}: .*${first.file} has sha256 [0-9a-f]{64}, the manifest says ${first.sha256}`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the app installs each @pikku package from its tarball, and every transitive one resolves to the same file', () => {
  const spec = (name) => manifest.packages.find((p) => p.name === name).spec;
  const direct = Object.entries({ ...appPkg.dependencies, ...appPkg.devDependencies }).filter(([n]) =>
    n.startsWith('@pikku/'),
  );
  assert.ok(direct.length > 0);
  for (const [name, value] of direct) assert.equal(value, spec(name), name);
  assert.deepEqual(
    Object.keys(appPkg.overrides).sort(),
    manifest.packages.map((p) => p.name).sort(),
    'an override for every vendored package',
  );
  for (const [name, value] of Object.entries(appPkg.overrides)) assert.equal(value, spec(name), name);
  const locked = Object.entries(appLock.packages).filter(([path]) => /node_modules\/@pikku\/[^/]+$/.test(path));
  assert.ok(locked.length >= direct.length);
  for (const [path, entry] of locked)
    assert.match(entry.resolved ?? '', /^file:\.\.\/\.\.\/vendor\/pikku\/.+\.tgz$/, path);
});

// Skipped only in the copies of the repository other tests make, which have no .git.
test('no generated or hand-written framework code is committed', { skip: !existsSync(join(ROOT, '.git')) }, () => {
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  assert.deepEqual(
    tracked.filter((f) => /(^|\/)\.pikku\//.test(f) || /(^|\/)compat\//.test(f)),
    [],
  );
  const standIns = tracked.filter((f) => f.startsWith('examples/todo-app/types/packages/'));
  // uWebSockets.js is published on GitHub only, so it and the two @pikku packages built on it cannot be installed.
  assert.deepEqual(standIns.sort(), [
    'examples/todo-app/types/packages/uWebSockets.js.d.ts',
    'examples/todo-app/types/packages/uws-handler.d.ts',
    'examples/todo-app/types/packages/uws.d.ts',
  ]);
  const left = manifest.leftOut.map((p) => (typeof p === 'string' ? p : p.name)).join(' ');
  for (const name of ['@pikku/uws', '@pikku/uws-handler'])
    assert.ok(left.includes(name), `${name} is left out of the set`);
});

test('the project runs on Node.js 24 or newer, as the framework packages declare', () => {
  const core = manifest.packages.find((p) => p.name === '@pikku/core');
  assert.ok(core);
  for (const pkg of [JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), appPkg])
    assert.equal(pkg.engines.node, '>=24');
  assert.match(readFileSync(join(ROOT, '.nvmrc'), 'utf8'), /^24\./);
  assert.match(readFileSync(join(ROOT, '.ci', 'run'), 'utf8'), /node@\$\(cat \.nvmrc\)/);
});
