// The skills are recipes followed in order (src/data/skills.ts) in one project: they pin what they install,
// and a recipe that rewrites a file an earlier recipe wrote says so before showing it: the text before the block
// names the file and says it is replaced, changed or added to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, splitFrontMatter } from '../../scripts/lib/content.mjs';
import { blocks } from '../../scripts/lib/skills.mjs';
import { loadModule } from '../lib/load.mjs';

const { skillNames } = loadModule('src/data/skills.ts');
const body = (name) => splitFrontMatter(readFileSync(join(ROOT, 'docs', 'skills', `${name}.mdx`), 'utf8')).body;

/** The fences of a page, as the skills runner reads them: { lang, meta, code, before } (before: the text since
 * the previous fence). */
export const fences = (text) => blocks(text).filter((b) => b.kind === 'fence');

/** Package arguments of the install commands in a fence. */
export function installedPackages(code) {
  return code
    .split('\n')
    .filter((line) => /^\s*npm (install|i|add)\b/.test(line))
    .flatMap((line) => line.trim().split(/\s+/).slice(2))
    .filter((arg) => !arg.startsWith('-'));
}

test('every package a skill installs is pinned to an exact version', () => {
  const unpinned = skillNames.flatMap((name) =>
    fences(body(name))
      .filter((f) => f.lang === 'bash')
      .flatMap((f) => installedPackages(f.code))
      .filter((pkg) => !/^(@[^/]+\/)?[^@]+@\d+\.\d+\.\d+$/.test(pkg) && !/^github:[^#]+#v\d+\.\d+\.\d+$/.test(pkg))
      .map((pkg) => `${name}: ${pkg}`),
  );
  assert.deepEqual(unpinned, []);
});

test('no skill silently overwrites a file an earlier skill wrote', () => {
  const writtenBy = new Map();
  const silent = [];
  for (const name of skillNames) {
    const seenHere = new Set();
    for (const fence of fences(body(name))) {
      const path = fence.meta.title ?? fence.meta.file;
      if (!path || !/\.(tsx?|json|ya?ml|toml)$/.test(path) || seenHere.has(path)) continue;
      seenHere.add(path);
      const earlier = writtenBy.get(path);
      const announced = fence.before.includes(`\`${path}\``) && /\b(replace|change|add|edit)/i.test(fence.before);
      if (earlier && !announced) silent.push(`${name} rewrites ${path} (written by ${earlier}) without saying so`);
      if (!earlier) writtenBy.set(path, name);
    }
  }
  assert.deepEqual(silent, []);
});

test('the checks catch an unpinned install and read fences with their titles', () => {
  assert.deepEqual(installedPackages('npm install @pikku/core@0.12.90 zod --save-dev'), ['@pikku/core@0.12.90', 'zod']);
  assert.doesNotMatch('express@5', /^(@[^/]+\/)?[^@]+@\d+\.\d+\.\d+$/, 'a major version alone is not a pin');
  const [f] = fences('Replace `src/a.ts` now.\n\n```ts title="src/a.ts"\nx\n```\n');
  assert.equal(f.meta.title, 'src/a.ts');
  assert.match(f.before, /Replace `src\/a\.ts`/);
});
