// The lint gates fail when they should: a misspelling, a misformatted file and a type error
// each make their command exit non-zero, naming the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../scripts/lib/content.mjs';

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const run = (cmd, args) =>
  spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });

/** A scratch folder inside src/, so each tool applies the project's own configuration. */
function scratch(files) {
  const dir = mkdtempSync(join(ROOT, 'src', 'gate-check-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return { dir, rel: relative(ROOT, dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('spelling: a misspelled word fails cspell', () => {
  const s = scratch({ 'typo.tsx': '// This componnent renders the recieved data.\nexport const x = 1;\n' });
  try {
    const res = run(bin('cspell'), ['--no-progress', '--no-summary', `${s.rel}/typo.tsx`]);
    assert.notEqual(res.status, 0);
    assert.match(res.stdout, /typo\.tsx.*componnent/);
  } finally {
    s.cleanup();
  }
});

test('formatting: a misformatted file fails the Prettier check', () => {
  const s = scratch({ 'ugly.ts': 'export const  value = {a:1,\n    b : "two"}\n' });
  try {
    const res = run(bin('prettier'), ['--check', `${s.rel}/ugly.ts`]);
    assert.notEqual(res.status, 0);
    assert.match(res.stdout + res.stderr, /ugly\.ts/);
  } finally {
    s.cleanup();
  }
});

test('types: a type error in src/ fails tsc', () => {
  const s = scratch({ 'wrong.ts': "import { site } from '../data/site';\nexport const port: number = site.name;\n" });
  try {
    const res = run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
    assert.notEqual(res.status, 0);
    assert.match(res.stdout, /wrong\.ts.*TS2322/);
  } finally {
    s.cleanup();
  }
});
