// What the scripts and tests share about the content: where it lives, its front matter, its routes and its words.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { fencesOfFile, readFences } from './fences.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CONTENT_DIRS = ['docs', 'why', 'blog'];
/** The product spec's route map, copied unchanged: the routes the site must have whatever its content. */
export const ROUTES_FILE = join(ROOT, 'tests', 'data', 'spec-routes.txt');
export const MIN_WORDS = 250;
/** A CLI error page is a reference entry (cause, offending code, fix, links): it needs fewer words. */
export const ERROR_PAGE = /^docs\/pikku-cli\/errors\/pku\d{3}\.mdx$/;
export const MIN_WORDS_ERROR_PAGE = 120;

/** Canonical routes and aliases of a route map (by default the spec's, tests/data/spec-routes.txt). */
export function readRoutes(file = ROUTES_FILE) {
  const canonical = [];
  const aliases = [];
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [from, to] = line.split(/\s+->\s+/);
    if (to) aliases.push({ from, to });
    else canonical.push(from);
  }
  return { canonical, aliases };
}

/** Every .md/.mdx content file below the given paths; partials (_x.mdx) excluded. */
export function listContentFiles(paths = CONTENT_DIRS.map((d) => join(ROOT, d))) {
  const out = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      // Hidden entries are no content, for Docusaurus either (the lint test's fixture folder is one).
      for (const name of readdirSync(p).sort()) if (!name.startsWith('.')) walk(join(p, name));
    } else if (/\.mdx?$/.test(p) && !p.split(sep).pop().startsWith('_')) out.push(p);
  };
  paths.forEach(walk);
  return out;
}

export function splitFrontMatter(source) {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!m) return { data: {}, body: source, bodyLine: 1 };
  return { data: yaml.load(m[1]) ?? {}, body: source.slice(m[0].length), bodyLine: m[0].split('\n').length };
}

/** The route a content file is served at (docs/why: by path or slug; blog: null). */
export function routeOfFile(file) {
  const rel = relative(ROOT, file).split(sep).join('/');
  const [section, ...rest] = rel.split('/');
  if (section === 'blog') return null;
  const path = rest
    .join('/')
    .replace(/\.mdx?$/, '')
    .replace(/(^|\/)index$/, '');
  return `/${section}${path ? `/${path}` : ''}`;
}

/** The route of any content page: docs and why by path (routeOfFile), blog posts by their front matter's slug. */
export const routeOfPage = (file, data = splitFrontMatter(readFileSync(file, 'utf8')).data) =>
  routeOfFile(file) ?? (data.slug ? `/blog/${data.slug}` : null);

/**
 * Body text as prose: no code, imports, JSX tags, link targets or markup. `fences` are the body's fences
 * (scripts/lib/fences.mjs; read from the body when not given), each blanked out from its opening to its closing line.
 */
export function proseOf(body, fences = readFences(body)) {
  const lines = body.split('\n');
  for (const { line, endLine } of fences) lines.fill('', line - 1, endLine);
  return lines
    .join('\n')
    .replace(/^(import|export) .*$/gm, ' ')
    .replace(/<!--[\s\S]*?-->|\{\/\*[\s\S]*?\*\/\}/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/`[^`]*`/g, ' x ')
    .replace(/[#*_>|:\-[\]{}]/g, ' ');
}
/** The words of a body's prose (proseOf; `fences` as proseOf takes them). */
export const wordCount = (body, fences) =>
  proseOf(body, fences)
    .split(/\s+/)
    .filter((w) => /[A-Za-z0-9]/.test(w)).length;

export function loadTagSet(file) {
  if (!existsSync(file)) return new Set();
  return new Set(Object.keys(yaml.load(readFileSync(file, 'utf8')) ?? {}));
}

/** Every MDX file the build compiles: the content (partials included) and src/pages. */
export function listMdxFiles() {
  const out = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const name of readdirSync(p).sort()) walk(join(p, name));
    else if (/\.mdx?$/.test(p)) out.push(p);
  };
  [...CONTENT_DIRS, join('src', 'pages')].forEach((d) => walk(join(ROOT, d)));
  return out;
}

/**
 * Every ```mermaid fence the build draws, as scripts/lib/fences.mjs reads it: { file (relative), route, line, source, key }, where
 * key names the drawing in src/diagrams (see src/plugins/remark-diagrams.mjs).
 */
export async function contentDiagrams() {
  const { diagramKey } = await import('../../src/plugins/remark-diagrams.mjs');
  const found = [];
  for (const file of listMdxFiles()) {
    // Only a page whose text has a mermaid info string can have such a fence: the others need no parse.
    const source = readFileSync(file, 'utf8');
    if (!/(`{3}|~{3})[ \t]*mermaid/.test(source)) continue;
    const route = routeOfPage(file, splitFrontMatter(source).data);
    for (const { lang, code, line } of fencesOfFile(file))
      if (lang === 'mermaid')
        found.push({ file: relative(ROOT, file), route, line, source: code, key: diagramKey(code) });
  }
  return found;
}
