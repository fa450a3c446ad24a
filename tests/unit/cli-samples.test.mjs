// How scripts/cli-samples.mjs packs the samples into copies of the app and names a failing block, with a stand-in
// for the CLI run (tests/fixtures/cli-samples.test.mjs runs the real one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkCliSamples, exportedNames, pack, placeOf, unitsOf } from '../../scripts/cli-samples.mjs';
import { codesOf } from '../../scripts/code-samples.mjs';
import { ROOT } from '../../scripts/lib/content.mjs';

const block = (file, line, code, meta = {}) => ({ file: join(ROOT, 'docs', file), line, lang: 'ts', meta, code });
/** A stand-in CLI: each block reports the codes written in a `// reports PKU...` comment of its code. */
const fakeRunner = (calls) => async (units) => {
  calls.push(units.map((u) => u.label));
  const codes = units.flatMap((u) =>
    u.blocks.flatMap((b) => [...b.code.matchAll(/reports (PKU\d{3})/g)].map((m) => m[1])),
  );
  return { status: codes.length ? 1 : 0, codes: [...new Set(codes)].sort(), output: '', seconds: 0 };
};

test('a unit is one marked block, or all the other samples of a page; pulled blocks and mistakes are left out', () => {
  const units = unitsOf([
    block('a.mdx', 1, 'export const one = 1', { title: 'src/one.ts' }),
    block('a.mdx', 9, 'export const two = 2'),
    block('a.mdx', 20, 'export const bad = 1', { 'cli-error': 'PKU410 PKU411' }),
    block('a.mdx', 30, '', { file: 'src/config.ts' }),
    block('a.mdx', 40, 'const x: number = "no"', { mistake: 'TS2322' }),
  ]);
  assert.deepEqual(
    units.map((u) => [u.label, u.want, [...u.names], [...u.paths]]),
    [
      ['docs/a.mdx:20', ['PKU410', 'PKU411'], ['bad'], ['src/__sample_docs_a_L20.ts']],
      ['docs/a.mdx', [], ['one', 'two'], ['src/one.ts', 'src/__sample_docs_a_L9.ts']],
    ],
  );
  assert.deepEqual(codesOf('PKU411, PKU410'), ['PKU410', 'PKU411']);
  assert.equal(placeOf(block('b.mdx', 3, '', { title: 'src/functions/x.ts' })), 'src/functions/x.ts');
  assert.deepEqual(
    exportedNames(
      'export const a = 1, b = 2\nexport function c() {}\nexport type T = 1\nconst d = 4\ninterface UserSession {}',
    ),
    ['a', 'b', 'c', 'type UserSession'],
  );
});

test('copies share no exported name, file, expected code or singleton call', () => {
  const units = unitsOf([
    block('a.mdx', 1, 'export const same = 1'),
    block('b.mdx', 1, 'export const same = 2'),
    block('c.mdx', 1, 'export const c1 = 1', { 'cli-error': 'PKU410' }),
    block('d.mdx', 1, 'export const d1 = 1', { 'cli-error': 'PKU410' }),
    block('e.mdx', 1, 'export const e1 = pikkuServices(async () => ({}))'),
    block('f.mdx', 1, 'export const f1 = pikkuServices(async () => ({}))'),
    block('g.mdx', 1, 'export const g1 = 1', { title: 'src/g.ts' }),
    block('h.mdx', 1, 'export const h1 = 1', { title: 'src/g.ts' }),
  ]);
  const copies = pack(units);
  for (const copy of copies) {
    const seen = { names: new Set(), paths: new Set(), want: new Set() };
    for (const u of copy.units) {
      for (const [key, values] of [
        ['names', u.names],
        ['paths', u.paths],
        ['want', u.want],
      ])
        for (const v of values) {
          assert.ok(!seen[key].has(v), `${v} twice in one copy`);
          seen[key].add(v);
        }
    }
  }
  assert.equal(copies.length, 4, 'two copies of marked blocks and two of the others');
});

test('a copy passes when it reports exactly what its units expect; otherwise halves run until the culprit is named', async () => {
  const blocks = [
    block('ok.mdx', 1, 'export const a = 1 // reports PKU410', { 'cli-error': 'PKU410' }),
    block('clean.mdx', 1, 'export const b = 1'),
    block('wrong.mdx', 1, 'export const c = 1 // reports PKU573', { 'cli-error': 'PKU411' }),
    block('noisy.mdx', 1, 'export const d = 1 // reports PKU851'),
  ];
  const calls = [];
  const { problems, runs } = await checkCliSamples(blocks, { runner: fakeRunner(calls), parallel: 1 });
  assert.deepEqual(
    calls.slice(0, 2).map((labels) => labels.length),
    [2, 2],
    'one copy of the marked blocks and one of the others first',
  );
  assert.deepEqual(problems.map((p) => p.replace(/^.*docs\//, '')).sort(), [
    "noisy.mdx: pikku all on the app with this page's samples reports PKU851",
    'wrong.mdx:1: marked cli-error="PKU411" but pikku all on the app with this block reports PKU573',
  ]);
  assert.ok(runs < 2 * blocks.length);

  const clean = [];
  const passed = await checkCliSamples(blocks.slice(0, 2), { runner: fakeRunner(clean), parallel: 1 });
  assert.deepEqual(passed.problems, []);
  assert.equal(clean.length, 2, 'each passing copy (one marked, one not) runs once');
});

test('an unmarked sample that reports a code fails, even when a marked block of the run expects that code', async () => {
  const blocks = [
    block('marked.mdx', 1, 'export const a = 1 // reports PKU338', { 'cli-error': 'PKU338' }),
    block('unmarked.mdx', 1, 'export const b = 1 // reports PKU338'),
  ];
  const { problems } = await checkCliSamples(blocks, { runner: fakeRunner([]), parallel: 1 });
  assert.deepEqual(
    problems.map((p) => p.replace(/^.*docs\//, '')),
    ["unmarked.mdx: pikku all on the app with this page's samples reports PKU338"],
  );
});

test('a run that exits non-zero without a code fails its block, whatever the block expects', async () => {
  const crash = async () => ({ status: 1, codes: [], output: 'TypeError: boom', seconds: 0 });
  const { problems } = await checkCliSamples([block('crash.mdx', 3, 'export const x = 1', { 'cli-error': 'PKU410' })], {
    runner: crash,
    parallel: 1,
  });
  assert.deepEqual(problems, [
    'docs/crash.mdx:3: marked cli-error="PKU410" but pikku all on the app with this block reports an exit code of 1 and no PKU code',
  ]);
});
