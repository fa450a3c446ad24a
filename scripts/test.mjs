#!/usr/bin/env node
// `npm test`: every check CI runs, in order, stopping at the first that fails, then the time each step and each
// test file took. The steps: the app's generated code (the real CLI), the lint checks, the app's behavior suite
// with the claims check, the production build, its size budget, and the unit, built-site, browser and fixture tests.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) of this process's finished children and their waited descendants (Linux only). */
function childCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TEST_FILES = [
  'tests/unit/*.test.mjs',
  'tests/site/*.test.mjs',
  'tests/e2e/*.test.mjs',
  'tests/fixtures/*.test.mjs',
];
const STEPS = [
  ['app:generate', [npm, 'run', '--silent', 'app:generate']],
  // The site's samples compile in tests/unit/code-samples.test.mjs, with the fixtures, in one program: not twice.
  ['lint', [process.execPath, 'scripts/lint.mjs', '--except', 'check:samples']],
  ['test:behaviour', [npm, 'run', '--silent', 'test:behaviour']],
  ['build', [npm, 'run', '--silent', 'build']],
  // The JavaScript every page loads first (runtime~main + main, gzip) against its budget in .size-limit.json.
  ['size', [npm, 'run', '--silent', 'size']],
  [
    'node --test',
    [
      process.execPath,
      '--test',
      '--test-concurrency=1',
      '--test-timeout=300000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./tests/lib/file-times.mjs',
      '--test-reporter-destination=stdout',
      ...TEST_FILES,
    ],
  ],
];

const run = ([command, ...args]) =>
  new Promise((resolve) => spawn(command, args, { stdio: 'inherit' }).on('close', (code) => resolve(code ?? 1)));

const started = Date.now();
const times = [];
let failed = null;
for (const [name, command] of STEPS) {
  const t0 = Date.now();
  const cpu0 = childCpu();
  console.log(`\n== ${name}`);
  const code = await run(command);
  times.push([name, (Date.now() - t0) / 1000, childCpu() - cpu0]);
  if (code !== 0) {
    failed = name;
    break;
  }
}
console.log('\nTime per step (wall, and CPU of its processes):');
for (const [name, s, cpu] of times)
  console.log(
    `  ${name.padEnd(14)} ${s.toFixed(1).padStart(6)} s  ${Number.isNaN(cpu) ? '' : `${cpu.toFixed(1).padStart(6)} s CPU`}`,
  );
console.log(`  ${'total'.padEnd(14)} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`);
if (failed) console.error(`npm test: ${failed} failed`);
process.exit(failed ? 1 : 0);
