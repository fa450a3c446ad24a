#!/usr/bin/env node
// `npm run bench`: speed and size figures of the current checkout, with the targets of the performance work.
//   1. Cold builds (no cache), BUILDS of them one after the other: the median time, each run's time, the peak
//      memory and the page count. One cold build on this machine varies by several seconds from run to run.
//   2. For the home page, the functions page, the newest blog post and a page with a diagram: the JavaScript and
//      CSS its HTML loads before interaction (raw and gzip), and the total JavaScript of the build.
//   3. Lighthouse (mobile, simulated throttling) on those pages, the median of RUNS runs each, served with gzip
//      from 127.0.0.1 by Debian's Chromium, with the analytics host blocked.
// It prints a table, writes bench-results.json, and reports each target as met or missed. It never fails because a
// figure is slow: machines differ, so the figures are for comparing runs on one machine (see BENCHMARKS.md).
// Options: --runs N (Lighthouse runs per page, default 5), --builds N (cold builds, default 3), --no-build (measure
// the existing build), --no-lighthouse (sizes only).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { serveStatic } from '../tests/lib/static-server.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/lib/browser.mjs';
import { firstLoadScripts } from '../tests/lib/routes.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BUILD = join(ROOT, 'build');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback);
const RUNS = option('--runs', 5);
const BUILDS = option('--builds', 3);
const OUT = join(ROOT, 'bench-results.json');

/**
 * The cold build of the last commit before the performance work (cf6beee, 2026-11-23) on the 2-core machine of
 * BENCHMARKS.md: the build may not get slower than this.
 */
const BASELINE_COLD_BUILD_S = 20.8;
/** The targets of issue 24 (React 19, no patches inside Docusaurus); the first-load one is .size-limit.json's budget. */
const TARGETS = {
  performance: 95,
  otherCategories: 100,
  lcpMinusFcpMs: 300,
  tbtMs: 200,
  cls: 0,
  firstLoadJsGzipKb: 150,
};

const kb = (bytes) => bytes / 1024;
const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const median = (list) => {
  const s = [...list].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Run a command; resolve to its wall time in seconds and peak memory in MB (GNU time, when installed). */
function timed(command, commandArgs) {
  const gnuTime = existsSync('/usr/bin/time');
  const [cmd, cmdArgs] = gnuTime
    ? ['/usr/bin/time', ['-f', 'PEAK_KB %M', command, ...commandArgs]]
    : [command, commandArgs];
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const child = spawn(cmd, cmdArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (code !== 0) return fail(new Error(`${command} failed:\n${output.slice(-4000)}`));
      const peak = /PEAK_KB (\d+)/.exec(output);
      done({ seconds: Number(process.hrtime.bigint() - start) / 1e9, peakMb: peak ? Number(peak[1]) / 1024 : NaN });
    });
  });
}

const filesUnder = (dir, ext) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map((f) => join(dir, f))
        .filter((f) => f.endsWith(ext) && statSync(f).isFile())
    : [];

/** The newest blog post's route, from the build's post folders (/blog/YYYY/MM/DD/slug). */
function newestPost() {
  const posts = filesUnder(join(BUILD, 'blog'), 'index.html')
    .map((f) => f.slice(BUILD.length).replace(/\/index\.html$/, ''))
    .filter((r) => /^\/blog\/\d{4}\/\d\d\/\d\d\/[^/]+$/.test(r))
    .sort();
  return posts.at(-1);
}

/** What the HTML of a route loads before interaction: its same-origin scripts and stylesheets. */
function firstLoad(route) {
  const html = readFileSync(join(BUILD, route, 'index.html'), 'utf8');
  const read = (paths) => [...new Set(paths)].map((p) => readFileSync(join(BUILD, p)));
  // Same-origin scripts only: the HTML's own tags and the app loader's list (src/ssrTemplate.ts).
  const js = read(firstLoadScripts(html).filter((src) => src.startsWith('/')));
  const css = read([...html.matchAll(/<link[^>]*rel="?stylesheet"?[^>]*href="?(\/[^"\s>]+\.css)/g)].map((m) => m[1]));
  const size = (list) => ({
    rawKb: kb(list.reduce((a, b) => a + b.length, 0)),
    gzipKb: kb(list.reduce((a, b) => a + gzipSync(b).length, 0)),
  });
  return { js: size(js), css: size(css) };
}

async function lighthouseRuns(url, runs) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const results = [];
  for (let i = 0; i < runs; i++) {
    // A fresh browser per run: no cache or warmed-up state carries from one run to the next.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS });
    try {
      const { lhr } = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        blockedUrlPatterns: ['*googletagmanager.com*', '*google-analytics.com*'],
      });
      const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
      results.push({
        performance: Math.round(lhr.categories.performance.score * 100),
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        bestPractices: Math.round(lhr.categories['best-practices'].score * 100),
        seo: Math.round(lhr.categories.seo.score * 100),
        fcpMs: audit('first-contentful-paint'),
        lcpMs: audit('largest-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
      });
    } finally {
      await chrome.kill();
    }
  }
  const keys = Object.keys(results[0]);
  return Object.fromEntries(keys.map((k) => [k, median(results.map((r) => r[k]))]));
}

const report = {
  date: new Date().toISOString(),
  machine: { cores: cpus().length, memoryGb: totalmem() / 2 ** 30, node: process.version },
};
console.log(`Pikku website benchmark: ${report.machine.cores} cores, Node ${process.version}`);

if (!args.includes('--no-build')) {
  const builds = [];
  for (let i = 0; i < BUILDS; i++) {
    rmSync(join(ROOT, 'node_modules', '.cache'), { recursive: true, force: true });
    rmSync(join(ROOT, '.docusaurus'), { recursive: true, force: true });
    rmSync(BUILD, { recursive: true, force: true });
    builds.push(await timed(process.execPath, [join(ROOT, 'scripts', 'build.mjs')]));
  }
  report.build = {
    seconds: median(builds.map((b) => b.seconds)),
    runs: builds.map((b) => b.seconds),
    peakMb: Math.max(...builds.map((b) => b.peakMb)),
  };
}
report.pages = filesUnder(BUILD, '.html').length;
const allJs = filesUnder(join(BUILD, 'assets', 'js'), '.js').map((f) => readFileSync(f));
report.totalJs = {
  rawKb: kb(allJs.reduce((a, b) => a + b.length, 0)),
  gzipKb: kb(allJs.reduce((a, b) => a + gzipSync(b).length, 0)),
};

const routes = {
  home: '/',
  functions: '/docs/core-features/functions',
  'newest post': newestPost(),
  diagram: '/docs/http/router',
};
report.routes = {};
const server = args.includes('--no-lighthouse') ? null : await serveStatic(BUILD, { compress: true });
try {
  for (const [name, route] of Object.entries(routes)) {
    report.routes[name] = { route, ...firstLoad(route) };
    if (server) report.routes[name].lighthouse = await lighthouseRuns(server.url + route, RUNS);
  }
} finally {
  await server?.close();
}

// The figures.
if (report.build)
  console.log(
    `cold build ${fmt(report.build.seconds)} s (median of ${report.build.runs.map((s) => fmt(s)).join(', ')}), ` +
      `peak memory ${fmt(report.build.peakMb, 0)} MB, ${report.pages} pages`,
  );
else console.log(`${report.pages} pages (existing build)`);
console.log(`all JavaScript of the build: ${fmt(report.totalJs.rawKb)} KB (${fmt(report.totalJs.gzipKb)} KB gzip)`);
const rows = [
  [
    'page',
    'first-load JS KB raw/gz',
    'CSS KB raw/gz',
    'perf',
    'a11y',
    'BP',
    'SEO',
    'FCP ms',
    'LCP ms',
    'TBT ms',
    'CLS',
  ],
];
for (const [name, r] of Object.entries(report.routes)) {
  const l = r.lighthouse ?? {};
  rows.push([
    `${name} (${r.route})`,
    `${fmt(r.js.rawKb)}/${fmt(r.js.gzipKb)}`,
    `${fmt(r.css.rawKb)}/${fmt(r.css.gzipKb)}`,
    fmt(l.performance, 0),
    fmt(l.accessibility, 0),
    fmt(l.bestPractices, 0),
    fmt(l.seo, 0),
    fmt(l.fcpMs, 0),
    fmt(l.lcpMs, 0),
    fmt(l.tbtMs, 0),
    fmt(l.cls, 3),
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  '));

// The targets, each met or missed.
const targets = [];
const target = (name, met, figure) => targets.push({ name, met, figure });
for (const [name, r] of Object.entries(report.routes)) {
  target(
    `${name}: first-load JS <= ${TARGETS.firstLoadJsGzipKb} KB gzip`,
    r.js.gzipKb <= TARGETS.firstLoadJsGzipKb,
    `${fmt(r.js.gzipKb)} KB`,
  );
  const l = r.lighthouse;
  if (!l) continue;
  target(`${name}: performance >= ${TARGETS.performance}`, l.performance >= TARGETS.performance, fmt(l.performance, 0));
  target(
    `${name}: accessibility, best practices, SEO = 100`,
    [l.accessibility, l.bestPractices, l.seo].every((s) => s >= TARGETS.otherCategories),
    `${l.accessibility}/${l.bestPractices}/${l.seo}`,
  );
  target(
    `${name}: LCP within ${TARGETS.lcpMinusFcpMs} ms of FCP`,
    l.lcpMs - l.fcpMs <= TARGETS.lcpMinusFcpMs,
    `${fmt(l.lcpMs - l.fcpMs, 0)} ms`,
  );
  target(`${name}: TBT <= ${TARGETS.tbtMs} ms`, l.tbtMs <= TARGETS.tbtMs, `${fmt(l.tbtMs, 0)} ms`);
  target(`${name}: CLS 0`, l.cls <= TARGETS.cls, fmt(l.cls, 3));
}
if (report.build)
  target(
    `cold build no slower than ${BASELINE_COLD_BUILD_S} s`,
    report.build.seconds <= BASELINE_COLD_BUILD_S,
    `${fmt(report.build.seconds)} s`,
  );
report.targets = targets;
console.log('\ntargets');
for (const t of targets) console.log(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.name} (${t.figure})`);
console.log(`${targets.filter((t) => t.met).length} of ${targets.length} targets met`);
writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
console.log(`figures written to ${OUT.slice(ROOT.length + 1)}`);
