#!/usr/bin/env node
// `npm test`: every check CI runs, then the time each step and each test file took. The steps: the quick lint checks
// (Markdown, text, spelling, formatting, types), the app's generated code (the real CLI), the real CLI on the samples,
// the app's behavior suite with the claims check, every skill page followed in a scratch project, the production
// build, its size budget, and the unit, built-site, browser and fixture tests.
//
// Steps run side by side where one does not need another's output, as many at a time as keep this machine's cores
// busy: most steps leave a core idle for much of their run (the CLI and the TypeScript compiler use one core, tests
// wait for servers), so running them one after another left the machine half idle. Each step declares what it needs
// (`after`) and about how many cores it keeps busy (`cores`); a step starts once what it needs has passed and the
// cores of the steps running, its own included, stay within the budget: the machine's cores plus one, since the
// figures are averages and a step's idle moments are what the next one fills (one step always may run). Among the
// steps that may start, those listed first start first. A step's output is printed whole when it ends. After a
// failure no new step starts; the running ones finish, and the command fails naming every step that failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const nodeTest = (files) => [
  process.execPath,
  '--test',
  '--test-concurrency=1',
  '--test-timeout=300000',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=./tests/lib/file-times.mjs',
  '--test-reporter-destination=stdout',
  ...files,
];

/** name: { run, after, cores }. The order is the order of preference among steps that may start. */
const STEPS = {
  // The quick checks first, so that a spelling or formatting mistake fails the run within a minute. The site's
  // samples compile in tests/unit/code-samples.test.mjs, with the fixtures, in one program: not twice.
  lint: {
    run: [process.execPath, 'scripts/lint.mjs', '--except', 'check:samples', '--except', 'check:samples:cli'],
    after: [],
    cores: 1,
  },
  // The route crawl: one browser per core (tests/e2e/routes.test.mjs).
  e2e: { run: nodeTest(['tests/e2e/*.test.mjs']), after: ['build'], cores: 2 },
  // The real CLI on copies of the app with the samples, two copies at a time (scripts/cli-samples.mjs).
  'check:samples:cli': { run: [npm, 'run', '--silent', 'check:samples:cli'], after: ['app:generate'], cores: 2 },
  build: { run: [npm, 'run', '--silent', 'build'], after: [], cores: 1 },
  'app:generate': { run: [npm, 'run', '--silent', 'app:generate'], after: [], cores: 1 },
  fixtures: { run: nodeTest(['tests/fixtures/*.test.mjs']), after: ['app:generate'], cores: 1 },
  'test:behaviour': { run: [npm, 'run', '--silent', 'test:behaviour'], after: ['app:generate'], cores: 1 },
  // Every skill page followed word for word in scratch projects (scripts/skills-run.mjs): mostly waiting on servers,
  // workers and a one-minute schedule, so it shares the cores with the steps above. After the behavior suite, since
  // both use the fixed ports the pages name (Redis's 6379 for BullMQ's default address).
  'test:skills': { run: [npm, 'run', '--silent', 'test:skills'], after: ['test:behaviour'], cores: 0.5 },
  unit: { run: nodeTest(['tests/unit/*.test.mjs']), after: ['app:generate'], cores: 1 },
  site: { run: nodeTest(['tests/site/*.test.mjs']), after: ['build'], cores: 1 },
  // The JavaScript every page loads first (runtime~main + main, gzip) against its budget in .size-limit.json.
  size: { run: [npm, 'run', '--silent', 'size'], after: ['build'], cores: 0.5 },
};

const CORES = availableParallelism();
const BUDGET = Number(process.env.TEST_BUDGET ?? CORES + 1);
const work = mkdtempSync(join(tmpdir(), 'npm-test-'));
const fileTimesJson = join(work, 'file-times.jsonl');
const started = Date.now();
const state = new Map(Object.keys(STEPS).map((name) => [name, 'waiting']));
const results = [];
let busy = 0;
let failed = false;

function runStep(name) {
  const step = STEPS[name];
  state.set(name, 'running');
  busy += step.cores;
  const t0 = Date.now();
  const cpuFile = join(work, `${name.replace(/\W/g, '_')}.cpu`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/lib/with-cpu.mjs', ...step.run], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CPU_TIME_FILE: cpuFile, FILE_TIMES_JSON: fileTimesJson, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      busy -= step.cores;
      const seconds = (Date.now() - t0) / 1000;
      let cpu = NaN;
      try {
        cpu = Number(readFileSync(cpuFile, 'utf8'));
      } catch {}
      const ok = code === 0;
      state.set(name, ok ? 'passed' : 'failed');
      if (!ok) failed = true;
      results.push({ name, seconds, cpu, ok, startedAt: (t0 - started) / 1000 });
      console.log(`\n== ${name}: ${ok ? 'passed' : 'FAILED'} (${seconds.toFixed(1)} s)`);
      console.log(output.replace(/^npm warn Unknown user config.*\n/gm, '').trimEnd());
      resolve();
    });
  });
}

const running = new Set();
function startWhatMay() {
  if (failed) return;
  for (const [name, step] of Object.entries(STEPS)) {
    if (state.get(name) !== 'waiting' || !step.after.every((n) => state.get(n) === 'passed')) continue;
    if (running.size && busy + step.cores > BUDGET) continue;
    const done = runStep(name).then(() => {
      running.delete(done);
      startWhatMay();
    });
    running.add(done);
  }
}

startWhatMay();
while (running.size) await Promise.race(running);

const fmt = (s) => s.toFixed(1).padStart(6);
console.log(`\nTime per step (start, wall, and the CPU time of its processes; ${CORES} cores, a budget of ${BUDGET}):`);
for (const r of [...results].sort((a, b) => a.startedAt - b.startedAt))
  console.log(
    `  ${r.name.padEnd(15)} at ${fmt(r.startedAt)} s  ${fmt(r.seconds)} s  ${Number.isNaN(r.cpu) ? '' : `${fmt(r.cpu)} s CPU`}${r.ok ? '' : '  FAILED'}`,
  );
let rows = [];
try {
  rows = readFileSync(fileTimesJson, 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);
} catch {}
if (rows.length) {
  rows.sort((a, b) => b.s - a.s);
  const width = Math.max(...rows.map((r) => r.file.length));
  console.log('\nTime per test file:');
  for (const r of rows) console.log(`  ${r.file.padEnd(width)}  ${fmt(r.s)} s${r.failed ? '  (failed)' : ''}`);
}
const cpu = results.reduce((sum, r) => sum + (Number.isNaN(r.cpu) ? 0 : r.cpu), 0);
console.log(`\nnpm test: ${fmt((Date.now() - started) / 1000).trim()} s of wall time, ${cpu.toFixed(0)} s of CPU time`);
rmSync(work, { recursive: true, force: true });
const never = [...state].filter(([, s]) => s === 'waiting').map(([n]) => n);
if (failed) {
  const names = results.filter((r) => !r.ok).map((r) => r.name);
  console.error(`npm test: ${names.join(', ')} failed${never.length ? `; not run: ${never.join(', ')}` : ''}`);
}
process.exit(failed ? 1 : 0);
