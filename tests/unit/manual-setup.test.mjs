// The manual setup page builds the to-do app by hand, so what it types out must be the app's: each JSON file it
// shows is a part of the app's file (the same keys with the same values), and each package it installs is at the
// version the app declares. A vendored package (file:../../vendor/pikku/<tarball>) counts as its manifest version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP, vendorManifest } from '../../scripts/app.mjs';
import { ROOT } from '../../scripts/lib/content.mjs';
import { fencesOfFile } from '../../scripts/lib/fences.mjs';
import { parseInstall } from '../../scripts/lib/skills.mjs';

const PAGE = join(ROOT, 'src', 'pages', 'manual-setup.mdx');
const fences = fencesOfFile(PAGE);
const vendored = new Map(vendorManifest().packages.map((p) => [p.spec, p.version]));
const appPackage = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8'));
/** What the app's package.json asks for a package: a vendored tarball as its version. */
const appSpec = (name) => {
  const spec = appPackage.dependencies?.[name] ?? appPackage.devDependencies?.[name];
  return vendored.get(spec) ?? spec;
};

/** The paths at which `part` differs from `whole` or is not in it (none when `part` is a part of `whole`). */
function differences(part, whole, path = '') {
  if (part && typeof part === 'object' && !Array.isArray(part)) {
    if (!whole || typeof whole !== 'object' || Array.isArray(whole)) return [`${path || '(root)'}: not an object`];
    return Object.entries(part).flatMap(([key, value]) => differences(value, whole[key], `${path}.${key}`));
  }
  const normal = (v) => (typeof v === 'string' ? (vendored.get(v) ?? v) : JSON.stringify(v));
  return normal(part) === normal(whole)
    ? []
    : [`${path}: the page has ${JSON.stringify(part)}, the app ${JSON.stringify(whole)}`];
}

test('each JSON file the manual setup types out is a part of the to-do app file of that name', () => {
  const shown = fences.filter((f) => f.lang === 'json' && f.attrs.title && existsSync(join(APP, f.attrs.title)));
  assert.ok(shown.length > 0, 'the page shows JSON files of the app');
  const problems = shown.flatMap((f) =>
    differences(JSON.parse(f.code), JSON.parse(readFileSync(join(APP, f.attrs.title), 'utf8'))).map(
      (d) => `src/pages/manual-setup.mdx:${f.line} ${f.attrs.title}${d}`,
    ),
  );
  assert.deepEqual(problems, []);
});

test('each package the manual setup installs is at the version the to-do app declares', () => {
  const installs = fences
    .filter((f) => f.lang === 'bash')
    .flatMap((f) => f.code.split('\n'))
    .flatMap((line) => parseInstall(line)?.packages.map((p) => p.arg) ?? []);
  assert.ok(installs.length > 0, 'the page installs packages');
  const problems = installs.flatMap((arg) => {
    const [, name, version] = /^((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(arg) ?? [, arg, undefined];
    return version === appSpec(name) ? [] : [`${arg}: the app declares ${name} as ${appSpec(name) ?? 'nothing'}`];
  });
  assert.deepEqual(problems, []);
});
