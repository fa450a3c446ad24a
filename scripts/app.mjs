#!/usr/bin/env node
// The to-do app (examples/todo-app) on the framework's real tools.
// - `node scripts/app.mjs install`: checks every vendored tarball (vendor/pikku) against the manifest's sha256,
//   then `npm ci` in the app (run by the root package's postinstall).
// - `node scripts/app.mjs generate`: what a reader runs before starting the app: the example addon's `pikku all`
//   and build (the app imports its generated tree from its dist/), then the app's `pikku all`. Each CLI run uses
//   --fail-on-error, so an error-level diagnostic (PKU463, say) fails it like a critical one. Prints each step's
//   time; on a failure prints the CLI's output and exits 1.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/content.mjs';
import { APP_DIR } from '../src/plugins/remark-app-code.mjs';

export const APP = APP_DIR;
export const ADDON = join(APP, 'addon-example');
export const VENDOR = join(ROOT, 'vendor', 'pikku');
/** A command the app installs (pikku, tsc). */
export const bin = (name) => join(APP, 'node_modules', '.bin', name);

/**
 * The vendored packages' manifest (vendor/pikku/manifest.json): { packages: [{ name, version, file, sha256, ... }],
 * leftOut }, each package with `spec`, the dependency an app two folders below the root gives it
 * (`file:../../vendor/pikku/<tarball>`).
 */
export function vendorManifest(dir = VENDOR) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  for (const p of manifest.packages) p.spec = `file:../../vendor/pikku/${p.file}`;
  return manifest;
}

/** Problems with the vendored tarballs: a file missing, or a sha256 other than the manifest's. */
export function vendorProblems(dir = VENDOR) {
  const manifest = vendorManifest(dir);
  const problems = [];
  for (const { name, file, sha256 } of manifest.packages) {
    const path = join(dir, file);
    if (!existsSync(path)) {
      problems.push(`${name}: ${relative(ROOT, path)} is missing`);
      continue;
    }
    const actual = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (actual !== sha256)
      problems.push(`${name}: ${relative(ROOT, path)} has sha256 ${actual}, the manifest says ${sha256}`);
  }
  return problems;
}

/** Runs one command; returns { ok, output, seconds }. */
export function run(command, args, cwd) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
    seconds: (Date.now() - started) / 1000,
  };
}

/** The codes of the diagnostics a CLI run printed, each once, sorted: ["PKU410", "PKU463"]. */
export const pkuCodes = (output) => [...new Set([...output.matchAll(/\[(PKU\d{3})\]/g)].map((m) => m[1]))].sort();

/** `pikku all --fail-on-error` in a folder. */
const pikkuAll = (cwd) => run(bin('pikku'), ['all', '--fail-on-error'], cwd);

/** The steps of `generate`, in order: [name, () => result]. */
export const GENERATE_STEPS = [
  ['addon: pikku all', () => pikkuAll(ADDON)],
  [
    'addon: build',
    () => {
      rmSync(join(ADDON, 'dist'), { recursive: true, force: true });
      const result = run(bin('tsc'), ['-p', 'tsconfig.json'], ADDON);
      if (result.ok)
        for (const dir of ['.pikku', 'types']) cpSync(join(ADDON, dir), join(ADDON, 'dist', dir), { recursive: true });
      return result;
    },
  ],
  ['app: pikku all', () => pikkuAll(APP)],
];

export function generate({ log = console.log } = {}) {
  for (const [name, step] of GENERATE_STEPS) {
    const { ok, output, seconds } = step();
    log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds.toFixed(1)} s)`);
    if (!ok) {
      log(output.trim().replace(/^/gm, '     '));
      return false;
    }
  }
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command] = process.argv.slice(2);
  if (command === 'install') {
    const problems = vendorProblems();
    if (problems.length) {
      console.error(`vendor/pikku does not match its manifest:\n${problems.map((p) => `  ${p}`).join('\n')}`);
      process.exit(1);
    }
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: APP, stdio: 'inherit' });
    process.exit(result.status ?? 1);
  } else if (command === 'generate') {
    process.exit(generate() ? 0 : 1);
  } else {
    console.error('usage: node scripts/app.mjs install|generate');
    process.exit(2);
  }
}
