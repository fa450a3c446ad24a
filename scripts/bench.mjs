#!/usr/bin/env node
// `npm run bench`: builds the site from a cold cache and prints speed and size figures.
// Nothing here asserts a threshold; compare the figures between runs on the same machine.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const BUILD = join(ROOT, 'build');

function timeBuild(label) {
  const start = process.hrtime.bigint();
  const res = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (res.status !== 0) {
    console.error(res.stdout, res.stderr);
    process.exit(1);
  }
  console.log(`${label.padEnd(28)} ${seconds.toFixed(1)} s`);
}

const files = (dir, ext) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map((f) => join(dir, f))
        .filter((f) => f.endsWith(ext) && statSync(f).isFile())
    : [];
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const sum = (list) => list.reduce((a, f) => a + statSync(f).size, 0);
const gz = (list) => list.reduce((a, f) => a + gzipSync(readFileSync(f)).length, 0);

/** What a first visit to a page downloads before hydration: its HTML and the assets it references. */
function pageWeight(route) {
  const html = join(BUILD, route, 'index.html');
  const text = readFileSync(html, 'utf8');
  const assets = [...text.matchAll(/(?:src|href)="?(\/assets\/[^"\s>]+\.(?:js|css))/g)].map((m) => join(BUILD, m[1]));
  const unique = [...new Set([html, ...assets])].filter(existsSync);
  return { raw: sum(unique), gzip: gz(unique), requests: unique.length };
}

console.log('Pikku website benchmark');
rmSync(join(ROOT, 'node_modules', '.cache'), { recursive: true, force: true });
rmSync(join(ROOT, '.docusaurus'), { recursive: true, force: true });
timeBuild('cold build (no cache)');
timeBuild('warm build (cache)');

const html = files(BUILD, '.html');
const js = files(join(BUILD, 'assets', 'js'), '.js');
const css = files(join(BUILD, 'assets', 'css'), '.css');
const largest = js.map((f) => [f, statSync(f).size]).sort((a, b) => b[1] - a[1])[0];
console.log(`${'HTML pages'.padEnd(28)} ${html.length}`);
console.log(`${'JS, all chunks'.padEnd(28)} ${kb(sum(js))} (${kb(gz(js))} gzip) in ${js.length} files`);
console.log(`${'largest JS chunk'.padEnd(28)} ${kb(largest[1])} (${largest[0].split('/').pop()})`);
console.log(`${'CSS'.padEnd(28)} ${kb(sum(css))} (${kb(gz(css))} gzip)`);
for (const route of ['', 'docs', 'docs/core-features/functions', 'blog', 'manual-setup']) {
  const w = pageWeight(route);
  console.log(`${`first load /${route}`.padEnd(28)} ${kb(w.raw)} (${kb(w.gzip)} gzip), ${w.requests} requests`);
}
