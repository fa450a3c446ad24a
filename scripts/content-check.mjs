#!/usr/bin/env node
// Fast checks of the MDX sources, without a Docusaurus build: front matter, declared tags,
// MDX syntax, code-fence languages, relative links to other content files, placeholder text
// and body length. Used by `npm run check:content` and by tests/unit/content.test.mjs.
// Usage: node scripts/content-check.mjs [FILE_OR_DIR ...]   (default: docs why blog)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import yaml from 'js-yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTENT_DIRS = ['docs', 'why', 'blog'];
export const ROUTES_FILE = join(ROOT, 'tests', 'data', 'routes.txt');
export const MIN_WORDS = 250;
/** A CLI error page is a reference entry (cause, offending code, fix, links): it needs fewer words. */
export const ERROR_PAGE = /^docs\/pikku-cli\/errors\/pku\d{3}\.mdx$/;
export const MIN_WORDS_ERROR_PAGE = 120;
// Upper-case markers only: the running example is a to-do app, so `todo` is a real word here.
const isPlaceholder = (line) => /\b(TODO|TBD|FIXME)\b/.test(line) || /\b(lorem ipsum|coming soon)\b/i.test(line);

/** Canonical routes and aliases from the site's route map (tests/data/routes.txt). */
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
      for (const name of readdirSync(p).sort()) walk(join(p, name));
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

/** Body text as prose: no code, imports, JSX tags, link targets or markup. */
export function proseOf(body) {
  return body
    .replace(/^(```|~~~)[\s\S]*?^\1\s*$/gm, ' ')
    .replace(/^(import|export) .*$/gm, ' ')
    .replace(/<!--[\s\S]*?-->|\{\/\*[\s\S]*?\*\/\}/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/`[^`]*`/g, ' x ')
    .replace(/[#*_>|:\-[\]{}]/g, ' ');
}
export const wordCount = (body) =>
  proseOf(body)
    .split(/\s+/)
    .filter((w) => /[A-Za-z0-9]/.test(w)).length;

/** Product and technology names as their owners write them; checked in prose, not in code. */
export const CASING = [
  [/\bTypescript\b|\btypescript\b(?![-.\w])/, 'TypeScript'],
  [/\bJavascript\b|\bjavascript\b(?![-.\w])/, 'JavaScript'],
  [/\bWebsockets?\b|\bWeb[ -]Sockets?\b|\bwebsockets?\b(?![-.\w/])/, 'WebSocket'],
  [/\b[Nn]odejs\b|\bNode\.JS\b|\bnode\.js\b/, 'Node.js'],
  [/\bGithub\b/, 'GitHub'],
  [/\bPostgresql\b|\bPostgreSql\b|\bpostgresql\b(?![-.\w])/, 'PostgreSQL'],
  [/\bNextjs\b|\bNext\.JS\b|\bnext\.js\b/, 'Next.js'],
  [/\bOpenApi\b|\bOpenapi\b/, 'OpenAPI'],
  [/\bNPM\b/, 'npm'],
  [/\bPIKKU\b(?!_)/, 'Pikku'],
];
/** Prose of a line: inline code, link targets, URLs and HTML/JSX tags removed. */
const proseOfLine = (line) =>
  line
    .replace(/`[^`]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/<[^>]+>/g, ' ');

const INDEX_LIKE = /(^|\/)index\.mdx?$/;
let compileMdx;
async function mdxCompiler() {
  if (!compileMdx) {
    const [{ compile }, { default: gfm }, { default: directive }] = await Promise.all([
      import('@mdx-js/mdx'),
      import('remark-gfm'),
      import('remark-directive'),
    ]);
    compileMdx = (text) => compile(text, { remarkPlugins: [gfm, directive] });
  }
  return compileMdx;
}

/** Docusaurus's mdx1Compat: HTML comments and {#heading-ids} are accepted in our MDX. */
const mdx1Compat = (body) =>
  body
    .replace(/<!--([\s\S]*?)-->/g, (_, c) => `{/*${c.replace(/\*\//g, '* /')}*/}`)
    .replace(/^(#{1,6} .*?)\s*\{#[\w-]+\}\s*$/gm, '$1');

/**
 * Check one file. Returns a list of problems, each "file:line: message".
 * `knownRoutes` lets a link point at a page another change is still writing.
 */
export async function checkFile(file, { docTags, blogTags, knownRoutes, minWords = MIN_WORDS } = {}) {
  const problems = [];
  const rel = relative(ROOT, file);
  const say = (line, msg) => problems.push(`${rel}:${line}: ${msg}`);
  const source = readFileSync(file, 'utf8');
  let fm;
  try {
    fm = splitFrontMatter(source);
  } catch (e) {
    say(1, `front matter is not valid YAML: ${e.message.split('\n')[0]}`);
    return problems;
  }
  const { data, body, bodyLine } = fm;
  const section = rel.split(sep)[0];
  if (!data.title && section !== 'blog') say(1, 'front matter needs a title');
  if (section === 'blog' && !data.title) say(1, 'blog post needs a title');
  if (!data.description || String(data.description).length < 40)
    say(1, 'front matter needs a description of at least 40 characters');
  const declared = section === 'blog' ? blogTags : docTags;
  for (const tag of data.tags ?? []) {
    const key = typeof tag === 'string' ? tag : tag?.label;
    if (declared && !declared.has(key)) say(1, `tag "${key}" is not declared in ${section}/tags.yml`);
  }
  if (section === 'blog') {
    if (!/<!--\s*truncate\s*-->|\{\/\*\s*truncate\s*\*\/\}/.test(body))
      say(1, 'blog post needs a <!-- truncate --> marker');
    if (!data.slug) say(1, 'blog post needs a slug');
    if (!data.authors) say(1, 'blog post needs authors');
  }
  const lines = body.split('\n');
  let inFence = null;
  lines.forEach((line, i) => {
    const n = bodyLine + i;
    const fence = /^\s*(```+|~~~+)\s*(\S*)/.exec(line);
    if (fence) {
      if (!inFence) {
        inFence = fence[1];
        if (!fence[2]) say(n, 'code block without a language');
      } else if (line.trim().startsWith(inFence) && line.trim().replace(/[`~]/g, '') === '') inFence = null;
      return;
    }
    if (inFence) return;
    if (isPlaceholder(line)) say(n, `placeholder text: ${line.trim().slice(0, 60)}`);
    const prose = proseOfLine(line);
    for (const [wrong, right] of CASING) {
      const m = wrong.exec(prose);
      if (m) say(n, `write "${right}", not "${m[0]}"`);
    }
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^(https?:|mailto:|#|\/)/.test(target)) continue;
      const path = target.split('#')[0];
      if (!/\.mdx?$/.test(path)) continue;
      const abs = resolve(dirname(file), path);
      const targetSection = relative(ROOT, abs).split(sep)[0];
      if (targetSection !== section) {
        // Docusaurus resolves file links only inside one content plugin (docs, why, blog).
        say(
          n,
          `link to a file in ${targetSection}/ from ${section}/: use its route instead (${routeOfFile(abs) ?? target})`,
        );
        continue;
      }
      if (existsSync(abs)) continue;
      const route = routeOfFile(abs);
      if (knownRoutes && route && knownRoutes.has(route)) continue;
      say(n, `link to a file that does not exist: ${target}`);
    }
  });
  if (/^---/.test(source) === false) say(1, 'file has no front matter');
  try {
    await (
      await mdxCompiler()
    )(mdx1Compat(body));
  } catch (e) {
    const line = e.line ?? e.place?.line ?? e.position?.start?.line;
    say(line ? bodyLine + line - 1 : bodyLine, `MDX does not compile: ${e.reason ?? e.message}`);
  }
  const isIndex = INDEX_LIKE.test(rel);
  if (!isIndex && section !== 'blog') {
    const words = wordCount(body);
    const least = ERROR_PAGE.test(rel) ? Math.min(minWords, MIN_WORDS_ERROR_PAGE) : minWords;
    if (words < least) say(1, `only ${words} words of body text (at least ${least})`);
  }
  return problems;
}

export function loadTagSet(file) {
  if (!existsSync(file)) return new Set();
  return new Set(Object.keys(yaml.load(readFileSync(file, 'utf8')) ?? {}));
}

export async function checkAll(paths) {
  const files = listContentFiles(paths);
  const { canonical } = readRoutes();
  const opts = {
    docTags: loadTagSet(join(ROOT, 'docs', 'tags.yml')),
    blogTags: loadTagSet(join(ROOT, 'blog', 'tags.yml')),
    knownRoutes: new Set(canonical),
  };
  const problems = [];
  for (const f of files) problems.push(...(await checkFile(f, opts)));
  return { files, problems };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2).map((a) => resolve(a));
  const { files, problems } = await checkAll(args.length ? args : undefined);
  for (const p of problems) console.log(p);
  console.log(`content-check: ${files.length} files, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}
