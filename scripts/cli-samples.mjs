#!/usr/bin/env node
// The samples judged by the framework's real CLI, as a reader's project would be: each sample is laid into a copy
// of the to-do app (at the path its title names) and `pikku all --fail-on-error` runs on the copy.
// - A block marked cli-error="PKU641" (or several codes, space-separated) must make the CLI report exactly those
//   codes. Every other TypeScript block of the page (not pulled from the app, not a deliberate type error) is
//   added with the app too, and must make the CLI report nothing.
// - To keep the runs few, units (one marked block, or all the unmarked blocks of one page) are packed into shared
//   copies: no two units of a copy export the same name, write the same file, or expect the same code, and units that
//   expect nothing are packed apart from marked ones (so they cannot hide behind them). A copy
//   passes when the codes it reports are exactly the union its units expect; when it does not, it is split in two
//   and each half runs again, down to single units, so a failure names its block or page.
// Copies live in examples/todo-app/.cli-samples-<pid>/ (so the app's node_modules resolve) and are removed after.
// Usage: node scripts/cli-samples.mjs [FILE ...]   (exit 1 on a problem; prints each run and its time)
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { APP, bin, pkuCodes } from './app.mjs';
import { codesOf, extractBlocks, sampleFiles } from './code-samples.mjs';
import { ROOT } from './lib/content.mjs';
import { TS_LANGS } from '../src/plugins/remark-app-code.mjs';

export const WORK = join(APP, `.cli-samples-${process.pid}`);
/**
 * What a copy takes from the app: its sources and its generated `.pikku/` (written by `app:generate`), as a reader's
 * project has it when they add a sample and run `pikku all` again. Without `.pikku/` the CLI first bootstraps the tree
 * and inspects the project twice more.
 */
const PROJECT = ['package.json', 'tsconfig.json', 'pikku.config.json', 'src', 'types', '.pikku'];
/** Calls that make a project-wide singleton (a services factory, the auth set-up, the personas): one of each per copy. */
const SINGLETONS =
  /\b(pikkuServices|pikkuWireServices|pikkuAddonServices|pikkuAuth|pikkuBetterAuth|definePersonas|pikkuConfig)\s*\(/g;
const MAX_UNITS = 100;

const slug = (file) =>
  relative(ROOT, file)
    .replace(/\.(mdx?|ts)$/, '')
    .replace(/[^\w-]+/g, '_');
/** Where a block goes in the copy: its title when that is a TypeScript file under src/, else a file of its own. */
export const placeOf = (block) => {
  const title = (block.meta.title ?? '').replace(/^\.\//, '');
  if (/^src\/.+\.tsx?$/.test(title) && !title.includes('..')) return title;
  return `src/__sample_${slug(block.file)}_L${block.line}.${block.lang === 'tsx' ? 'tsx' : 'ts'}`;
};

/** Types the CLI looks up by name across the project: two declarations of one in a copy make it pick (PKU724). */
const PROJECT_TYPES = new Set(['Config', 'UserSession', 'SingletonServices', 'Services']);

/** The names a block adds to the project: its top-level value exports, and the project types it declares. */
export function exportedNames(code) {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, false);
  const names = [];
  const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of source.statements) {
    if (ts.isVariableStatement(st) && exported(st))
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && exported(st) && st.name)
      names.push(st.name.text);
    if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && PROJECT_TYPES.has(st.name.text))
      names.push(`type ${st.name.text}`);
  }
  return names;
}

/** The units to run: [{ id, label, blocks, want: [codes], names: Set, paths: Set }]. */
export function unitsOf(blocks) {
  const units = [];
  const byPage = new Map();
  for (const b of blocks) {
    if (!TS_LANGS.has(b.lang) || b.meta.file || b.meta.mistake) continue;
    if (b.meta['cli-error'])
      units.push({ label: `${relative(ROOT, b.file)}:${b.line}`, blocks: [b], want: codesOf(b.meta['cli-error']) });
    else {
      if (!byPage.has(b.file)) byPage.set(b.file, []);
      byPage.get(b.file).push(b);
    }
  }
  for (const [file, list] of byPage) units.push({ label: relative(ROOT, file), blocks: list, want: [] });
  return units.map((u, id) => ({
    ...u,
    id,
    names: new Set(
      u.blocks.flatMap((b) => [...exportedNames(b.code), ...[...b.code.matchAll(SINGLETONS)].map((m) => `${m[1]}()`)]),
    ),
    paths: new Set(u.blocks.map(placeOf)),
  }));
}

/**
 * The codes the real CLI throws instead of reporting (`throw new Error(`[${ErrorCode.X}] ...`)`): they end the run
 * there, so nothing after them is checked. Read from the installed CLI and inspector, so a newer CLI brings its own.
 */
export function stopperCodes(root = join(APP, 'node_modules', '@pikku')) {
  const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const names = new Map(
    [...read(join(root, 'inspector', 'dist', 'error-codes.js')).matchAll(/ErrorCode\["(\w+)"\] = "(PKU\d{3})"/g)].map(
      (m) => [m[1], m[2]],
    ),
  );
  const thrown = new Set();
  const walk = (dir) => {
    for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js'))
        for (const m of read(path).matchAll(/throw new \w*Error\(`\[\$\{ErrorCode\.(\w+)\}\]/g))
          if (names.has(m[1])) thrown.add(names.get(m[1]));
    }
  };
  for (const pkg of ['cli', 'inspector']) walk(join(root, pkg, 'dist'));
  return thrown;
}

/**
 * Packs units into copies: disjoint names (a singleton call counts as one), files and expected codes. Units that
 * expect nothing share copies only with each other, so an unmarked sample that makes the CLI report a code cannot hide
 * behind a marked block that expects the same code in its copy. A unit that
 * expects a code the CLI throws (`stoppers`) gets a copy of its own, since the run ends there and could neither
 * report another unit's codes nor show that another unit's samples pass.
 */
export function pack(units, stoppers = new Set()) {
  const copies = [];
  for (const unit of units) {
    const stops = unit.want.some((w) => stoppers.has(w));
    if (stops) {
      copies.push({ units: [unit], names: unit.names, paths: unit.paths, want: new Set(unit.want), alone: true });
      continue;
    }
    const quiet = unit.want.length === 0;
    const fits = (c) =>
      !c.alone &&
      c.quiet === quiet &&
      c.units.length < MAX_UNITS &&
      ![...unit.names].some((n) => c.names.has(n)) &&
      ![...unit.paths].some((p) => c.paths.has(p)) &&
      !unit.want.some((w) => c.want.has(w));
    let copy = copies.find(fits);
    if (!copy) copies.push((copy = { units: [], names: new Set(), paths: new Set(), want: new Set(), quiet }));
    copy.units.push(unit);
    for (const n of unit.names) copy.names.add(n);
    for (const p of unit.paths) copy.paths.add(p);
    for (const w of unit.want) copy.want.add(w);
  }
  return copies;
}

/** Runs `pikku all --fail-on-error` in a folder: { status, codes, output, seconds }. */
function pikkuAll(cwd) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(bin('pikku'), ['all', '--fail-on-error'], { cwd });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) =>
      done({
        status,
        codes: pkuCodes(output),
        output,
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

let counter = 0;
/** Lays a copy of the app (in `work`) with the units' blocks added, runs the CLI on it, removes it. */
async function runCopy(units, work = WORK) {
  const dir = join(work, String(counter++));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of PROJECT) if (existsSync(join(APP, f))) cpSync(join(APP, f), join(dir, f), { recursive: true });
  for (const b of units.flatMap((u) => u.blocks)) {
    const place = join(dir, placeOf(b));
    mkdirSync(dirname(place), { recursive: true });
    writeFileSync(place, b.code);
  }
  try {
    return await pikkuAll(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const say = (codes) => codes.join(', ') || 'nothing';

/** Checks the blocks; returns { units, copies, problems, runs }. */
export async function checkCliSamples(
  blocks,
  { log = () => {}, parallel = Math.min(availableParallelism(), 2), runner = runCopy, work = WORK } = {},
) {
  const units = unitsOf(blocks);
  const copies = pack(units, stopperCodes());
  const own = runner === runCopy;
  if (own) rmSync(work, { recursive: true, force: true });
  const problems = [];
  let runs = 0;
  const judge = (unit, codes) => {
    if (same(codes, unit.want)) return;
    problems.push(
      unit.want.length
        ? `${unit.label}: marked cli-error="${unit.want.join(' ')}" but pikku all on the app with this block reports ${say(codes)}`
        : `${unit.label}: pikku all on the app with this page's samples reports ${say(codes)}`,
    );
  };
  const queue = copies.map((c) => c.units);
  const worker = async () => {
    while (queue.length) {
      const group = queue.shift();
      const want = [...new Set(group.flatMap((u) => u.want))].sort();
      const { codes, seconds, status, output } = await runner(group, work);
      runs++;
      // A crash (a non-zero exit with no code) fails whatever was expected; a warning-level code exits 0.
      const crashed = status !== 0 && !codes.length;
      const ok = same(codes, want) && !crashed;
      if (crashed)
        log(`     pikku all exited ${status} with no code:\n${output.trim().split('\n').slice(-15).join('\n')}`);
      log(
        `${ok ? 'ok  ' : group.length > 1 ? 'split' : 'FAIL'} ${group.length === 1 ? group[0].label : `${group.length} units`} (${seconds.toFixed(1)} s): expects ${say(want)}, reports ${say(codes)}`,
      );
      if (ok) continue;
      if (group.length === 1) judge(group[0], crashed ? [`an exit code of ${status} and no PKU code`] : codes);
      else queue.push(group.slice(0, group.length >> 1), group.slice(group.length >> 1));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
  if (own) rmSync(work, { recursive: true, force: true });
  return { units, copies, problems, runs };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2).map((f) => resolve(f));
  const started = Date.now();
  const blocks = (args.length ? args : sampleFiles()).flatMap(extractBlocks);
  const { units, copies, problems, runs } = await checkCliSamples(blocks, { log: console.log });
  for (const p of problems) console.log(p);
  const marked = units.filter((u) => u.want.length).length;
  console.log(
    `cli-samples: ${marked} marked blocks and ${units.length - marked} pages of other samples, in ${copies.length} copies of the app (${runs} runs of pikku all), ${problems.length} problems (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  process.exit(problems.length ? 1 : 0);
}
