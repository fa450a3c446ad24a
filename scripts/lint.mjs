#!/usr/bin/env node
// `npm run lint`: the content and code checks of package.json (check:samples:cli, the longest, first; then lint:md,
// lint:text, check:samples, spell, format:check, typecheck, check:claims), one per core at a time. Each check's output is
// printed when it ends, whole, and the command fails if any check fails. `--except NAME` leaves a check out (npm test
// leaves out check:samples, whose work its unit test tests/unit/code-samples.test.mjs does in the same program as
// the fixtures that prove it can fail, and check:samples:cli, which it runs as a step of its own once the app's
// code is generated, so that the quick checks need not wait for it).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const ALL = [
  'check:samples:cli',
  'lint:md',
  'lint:text',
  'check:samples',
  'spell',
  'format:check',
  'typecheck',
  'check:claims',
];
const except = process.argv.flatMap((a, i, argv) => (argv[i - 1] === '--except' ? [a] : []));
for (const name of except)
  if (!ALL.includes(name)) throw new Error(`--except ${name}: not a check of ${ALL.join(', ')}`);
const CHECKS = ALL.filter((name) => !except.includes(name));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const run = (name) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)`);
      const shown = output.replace(/^npm warn Unknown user config.*\n/gm, '').trim();
      if (shown) console.log(shown.replace(/^/gm, '     '));
      resolve(code === 0);
    });
  });

const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), CHECKS.length) }, async () => {
    while (queue.length) results.push(await run(queue.shift()));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
