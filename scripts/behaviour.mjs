#!/usr/bin/env node
// `npm run test:behaviour`: the to-do app's behaviour suite (examples/todo-app/tests/behaviour/*.test.ts) on the
// vendored framework, with real Redis and PostgreSQL started by the tests themselves, then the claims check
// (scripts/claims.mjs) on its results. Needs the app's generated tree: `npm run app:generate` first.
// Prints the suite's own time; fails if a test fails, a marker names a missing or failing test, or a service
// left a temporary folder behind.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { APP } from './app.mjs';
import { SUITE, checkClaims, formatReport } from './claims.mjs';
import { ROOT } from './lib/content.mjs';

const RESULTS = join(APP, '.behaviour', 'results.json');
const REPORT = join(APP, '.behaviour', 'claims-report.txt');
// The harness names its temporary folders after the run (BEHAVIOUR_RUN, tests/behaviour/harness/temp.ts), its servers'
// and its scratch projects', so that a run checks and removes only what it made itself, never another run's.
const RUN = String(process.pid);
const LEFTOVER = new RegExp(`^todo-[a-z][a-z0-9-]*-${RUN}-`);

if (!existsSync(join(APP, '.pikku', 'pikku-bootstrap.gen.ts'))) {
  console.error('behaviour: examples/todo-app/.pikku is missing; run `npm run app:generate` first');
  process.exit(1);
}
const files = readdirSync(SUITE)
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .map((f) => join('tests', 'behaviour', f));
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const chosen = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;

/** Files in the app folder that git does not know and does not ignore: what a test left behind. */
const untracked = () =>
  spawnSync('git', ['status', '--porcelain', '--untracked-files=all', '--', '.'], { cwd: APP, encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.startsWith('??'))
    .map((line) => line.slice(3));

mkdirSync(join(APP, '.behaviour'), { recursive: true });
const untrackedBefore = new Set(untracked());
const leftoversBefore = new Set(readdirSync(tmpdir()).filter((n) => LEFTOVER.test(n)));
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-timeout=120000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./tests/behaviour/harness/reporter.mjs',
    `--test-reporter-destination=${RESULTS}`,
    ...chosen,
  ],
  { cwd: APP, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', BEHAVIOUR_RUN: RUN } },
);
const seconds = ((Date.now() - started) / 1000).toFixed(1);

const problems = [];
if (run.status !== 0) problems.push(`the behaviour suite failed (exit ${run.status ?? run.signal})`);
const left = readdirSync(tmpdir()).filter((n) => LEFTOVER.test(n) && !leftoversBefore.has(n));
if (left.length) {
  // Reported as a failure, then removed: a file stopped at its timeout never reaches its `after`, and a failed run
  // must not leave the machine with clusters nobody stops.
  problems.push(`tests left temporary folders behind (now removed): ${left.join(', ')}`);
  for (const name of left) {
    // A server still running from that folder (redis-server --dir, postgres -D) is stopped first.
    spawnSync('pkill', ['-f', join(tmpdir(), name)]);
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
const strays = untracked().filter((f) => !untrackedBefore.has(f));
if (strays.length) problems.push(`tests left files in examples/todo-app: ${strays.join(', ')}`);

const results = JSON.parse(readFileSync(RESULTS, 'utf8'));
console.log(
  `behaviour suite: ${results.tests.filter((t) => t.nesting > 0 || !t.file || t.name !== t.file).length} tests in ${chosen.length} files, ${seconds} s`,
);
if (!only.length) {
  const report = checkClaims(results);
  // The whole report, untested sentences included, goes to a file; the terminal gets the tested statements.
  writeFileSync(REPORT, formatReport(report, { untested: true }) + '\n');
  console.log(formatReport(report, { untested: process.argv.includes('--untested') }));
  console.log(`claims: the full report, with each page's untested sentences, is in ${relative(ROOT, REPORT)}`);
  problems.push(...report.problems);
}
for (const p of problems) console.error(`behaviour: ${p}`);
process.exit(problems.length ? 1 : 0);
