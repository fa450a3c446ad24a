#!/usr/bin/env node
// The samples marked cli-error="PKU..." judged by the framework's real CLI: each marked block is laid into a copy
// of the to-do app (as a reader would add the file to their project) and `pikku all` runs on it; the block passes
// when the CLI reports exactly the marked code among its diagnostics, and none of the codes the app alone gives.
// Copies live in examples/todo-app/.cli-samples/<n>/ (so the app's node_modules resolve) and are removed after.
// Usage: node scripts/cli-samples.mjs [FILE ...]   (exit 1 on a problem; prints each block's result and time)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { spawn } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP } from './app.mjs';
import { extractBlocks, sampleFiles } from './code-samples.mjs';
import { ROOT } from './lib/content.mjs';

export const WORK = join(APP, '.cli-samples');
const PROJECT_FILES = ['package.json', 'tsconfig.json', 'pikku.config.json'];

/** Where a block goes in the copy: its title when it names a TypeScript file under src/, else a file of its own. */
export const placeOf = (block) => {
  const title = (block.meta.title ?? '').replace(/^\.\//, '');
  if (/^src\/.+\.tsx?$/.test(title) && !title.includes('..')) return title;
  return `src/__sample_L${block.line}.${block.lang === 'tsx' ? 'tsx' : 'ts'}`;
};

/** Runs `pikku all` in a folder; resolves to { codes, output, seconds }. */
function pikkuAll(cwd) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(join(APP, 'node_modules', '.bin', 'pikku'), ['all', '--fail-on-error'], { cwd });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) =>
      done({
        status,
        codes: [...new Set([...output.matchAll(/\[(PKU\d{3})\]/g)].map((m) => m[1]))].sort(),
        output,
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

/** A copy of the app (its src, config and the schema cache of its last run) with the block added. */
function layProject(dir, block) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of PROJECT_FILES) cpSync(join(APP, f), join(dir, f));
  cpSync(join(APP, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(APP, 'types'), join(dir, 'types'), { recursive: true });
  const cache = join(APP, 'node_modules', '.cache', 'pikku');
  if (existsSync(cache)) cpSync(cache, join(dir, 'node_modules', '.cache', 'pikku'), { recursive: true });
  const place = join(dir, placeOf(block));
  mkdirSync(dirname(place), { recursive: true });
  writeFileSync(place, block.code);
}

/** Checks the marked blocks; returns { results: [{ block, ok, got, seconds }], problems }. */
export async function checkCliSamples(files = sampleFiles(), { log = () => {} } = {}) {
  const blocks = files.flatMap(extractBlocks).filter((b) => b.meta['cli-error'] && !b.meta.file);
  rmSync(WORK, { recursive: true, force: true });
  const baseline = await pikkuAll(APP);
  const problems = [];
  if (baseline.status !== 0 || baseline.codes.length)
    problems.push(
      `examples/todo-app: pikku all alone reports ${baseline.codes.join(', ') || `exit ${baseline.status}`}`,
    );
  const results = [];
  const queue = blocks.map((block, n) => ({ block, n }));
  const worker = async () => {
    while (queue.length) {
      const { block, n } = queue.shift();
      const dir = join(WORK, String(n));
      layProject(dir, block);
      const { codes, seconds } = await pikkuAll(dir);
      rmSync(dir, { recursive: true, force: true });
      const want = block.meta['cli-error'];
      const where = `${relative(ROOT, block.file)}:${block.line}`;
      const ok = codes.length === 1 && codes[0] === want;
      results.push({ block, ok, got: codes, seconds });
      log(
        `${ok ? 'ok  ' : 'FAIL'} ${where} cli-error="${want}" (${seconds.toFixed(1)} s)${ok ? '' : `: the CLI reports ${codes.join(', ') || 'nothing'}`}`,
      );
      if (!ok)
        problems.push(
          `${where}: marked cli-error="${want}" but pikku all on the app with this block reports ${codes.join(', ') || 'no diagnostic'}`,
        );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), 2)) }, worker));
  rmSync(WORK, { recursive: true, force: true });
  return { blocks, results, problems };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2).map((f) => resolve(f));
  const started = Date.now();
  const { blocks, problems } = await checkCliSamples(args.length ? args : undefined, { log: console.log });
  for (const p of problems) console.log(p);
  console.log(
    `cli-samples: ${blocks.length} blocks marked cli-error run through pikku all, ${problems.length} problems (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  process.exit(problems.length ? 1 : 0);
}
