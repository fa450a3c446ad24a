#!/usr/bin/env node
// `npm run build`: runs `docusaurus build` and, when it fails on broken links or on a page that
// cannot be rendered, names the source file of each page (Docusaurus names only the route).
// Usage: node scripts/build.mjs [SITE_DIR] [-- extra docusaurus build args]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const trim = (route) => (route.length > 1 ? route.replace(/\/+$/, '') : route);

/** Map each route of the generated site metadata to the file it was built from. */
export function routeSources(siteDir) {
  const generated = join(siteDir, '.docusaurus');
  const sources = new Map();
  const walk = (dir) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) {
        try {
          const data = JSON.parse(readFileSync(path, 'utf8'));
          if (typeof data?.permalink === 'string' && typeof data?.source === 'string')
            sources.set(trim(data.permalink), data.source.replace(/^@site\//, ''));
        } catch {
          // Not a metadata file.
        }
      }
    }
  };
  walk(generated);
  return sources;
}

/** Source file of a route: docs/blog metadata first, then src/pages by convention. */
export function sourceOf(siteDir, route, sources = routeSources(siteDir)) {
  const key = trim(route);
  if (sources.has(key)) return sources.get(key);
  const base = key === '/' ? 'index' : key.slice(1);
  for (const ext of ['tsx', 'jsx', 'mdx', 'md', 'js']) {
    for (const candidate of [`src/pages/${base}.${ext}`, `src/pages/${base}/index.${ext}`])
      if (existsSync(join(siteDir, candidate))) return candidate;
  }
  return null;
}

/** Lines that name the file behind each "Broken link on source page path = ROUTE", with the targets it links to. */
export function explainBrokenLinks(siteDir, output) {
  const targets = new Map();
  let route = null;
  for (const line of output.split('\n')) {
    const page = /Broken (?:link|anchor) on source page path = (\S+?):?\s*$/.exec(line);
    if (page) {
      route = page[1];
      if (!targets.has(route)) targets.set(route, []);
      continue;
    }
    const target = /^\s*-> linking to (\S+)/.exec(line);
    if (target && route) targets.get(route).push(target[1]);
  }
  const sources = routeSources(siteDir);
  return [...targets].map(([route, links]) => {
    const file = sourceOf(siteDir, route, sources);
    const to = links.length ? `: links to ${[...new Set(links)].join(', ')}, which does not exist` : '';
    return `[ERROR] Broken link in ${file ?? `the page at ${route} (source file not found)`} (page ${route})${to}`;
  });
}

/** "file: reason" for each MDX file that failed to compile (Docusaurus prints the reason under a stack trace). */
export function explainMdxErrors(siteDir, output) {
  const found = [...output.matchAll(/MDX compilation failed for file "([^"]+)"\s*\n(?:Cause: )?([^\n]*)/g)];
  return [...new Map(found.map((m) => [m[1], m[2]])).entries()].map(
    ([file, reason]) => `[ERROR] ${relative(siteDir, file)}: ${reason.trim() || 'MDX compilation failed'}`,
  );
}

/** The output without stack-trace lines, which bury the reason. */
export const withoutStacks = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s+at (?:\S+ \(|file:|node:|\/|async )/.test(line))
    .join('\n');

/** Lines that name the file behind each route whose static rendering failed. */
export function explainFailedRenders(siteDir, output) {
  const block = /static site generation failed for \d+ paths?:\s*\n((?:\s*- "[^"]+"\s*\n?)+)/.exec(output)?.[1] ?? '';
  const routes = [...block.matchAll(/- "([^"]+)"/g)].map((m) => m[1]);
  const sources = routeSources(siteDir);
  return routes.map((route) => {
    const file = sourceOf(siteDir, route, sources);
    return `[ERROR] Rendering failed for ${file ?? `the page at ${route} (source file not found)`} (page ${route}); check that it has a default export that renders`;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const siteDir = resolve(args[0] && !args[0].startsWith('-') ? args.shift() : '.');
  const bin = require.resolve('@docusaurus/core/bin/docusaurus.mjs');
  const child = spawn(process.execPath, [bin, 'build', siteDir, ...args.filter((a) => a !== '--')], {
    stdio: ['inherit', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (d) => {
    output += d;
    process.stdout.write(d);
  });
  // Held back until the end: when the build fails, the files and reasons go first, then Docusaurus's own
  // report without its stack traces.
  child.stderr.on('data', (d) => {
    output += d;
    errors += d;
  });
  child.on('close', (code) => {
    if (code !== 0) {
      const reasons = [
        ...explainMdxErrors(siteDir, output),
        ...explainBrokenLinks(siteDir, output),
        ...explainFailedRenders(siteDir, output),
      ];
      if (reasons.length) console.error(reasons.join('\n') + '\n');
      process.stderr.write(withoutStacks(errors));
      console.error(`build failed in ${relative(process.cwd(), siteDir) || '.'}`);
    } else process.stderr.write(errors);
    process.exit(code ?? 1);
  });
}
