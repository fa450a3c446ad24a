// What the build offers AI assistants: /llms.txt lists every docs, skills and why page, each has a clean Markdown
// copy at its URL plus .md (no JSX left, fences intact, the app's code filled in exactly as the HTML page shows it),
// and /llms-full.txt holds them all. The pages are derived from the build's sitemap and checked against the content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD, readHtml, sitemapRoutes } from '../lib/routes.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { loadModule } from '../lib/load.mjs';
import { listContentFiles, routeOfFile } from '../../scripts/lib/content.mjs';
import { mdPathOf } from '../../src/data/md-path.mjs';
import { fencesOfFile } from '../../scripts/lib/fences.mjs';
import { readAppCode, visibleCode } from '../../src/plugins/remark-app-code.mjs';

assert.ok(existsSync(join(BUILD, 'index.html')), 'run `npm run build` before the site tests');
const { site } = loadModule('src/data/site.ts');

/** Docs, skills and why pages: the sitemap's routes under /docs and /why, less the generated tag pages. */
const routes = sitemapRoutes().filter((r) => /^\/(docs|why)(\/|$)/.test(r) && !/^\/docs\/tags(\/|$)/.test(r));
/** The content files behind them (docs/**, why/**), by route. */
const sources = new Map(
  listContentFiles([join(REPO, 'docs'), join(REPO, 'why')]).map((file) => [routeOfFile(file), file]),
);
const mdFile = (route) => join(BUILD, mdPathOf(route));
const markdown = (route) => readFileSync(mdFile(route), 'utf8');

test('the sitemap and the content agree on the docs, skills and why pages', () => {
  assert.ok(routes.length > 0);
  assert.deepEqual([...routes].sort(), [...sources.keys()].sort());
  assert.ok(
    routes.some((r) => r.startsWith('/docs/skills/')),
    'skills are among them',
  );
});

test('llms.txt follows the llmstxt.org shape and lists every docs, skills and why page once, with a description', () => {
  const text = readFileSync(join(BUILD, 'llms.txt'), 'utf8');
  const lines = text.split('\n');
  assert.equal(lines[0], `# ${site.name}`);
  assert.match(lines[2], /^> \S/, 'a summary blockquote follows the title');
  assert.ok(
    lines.filter((l) => /^#/.test(l)).every((l) => /^#{1,2} /.test(l) && !/^# /.test(l) === (l !== lines[0])),
    'one h1, then h2 sections',
  );
  for (const heading of ['## Docs', '## Skills', '## Why']) assert.ok(lines.includes(heading), heading);
  const links = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)(?:: (.+))?$/gm)].map(([, title, url, description]) => ({
    title,
    url,
    description,
  }));
  const optional = text.slice(text.indexOf('\n## Optional'));
  const pages = links.filter((l) => !optional.includes(`(${l.url})`));
  const listed = pages.map((l) => l.url);
  const expected = routes.map((r) => `${site.url}${mdPathOf(r)}`);
  assert.deepEqual([...listed].sort(), [...expected].sort(), 'every page listed once, nothing else');
  for (const l of pages) assert.ok(l.description?.length > 20, `${l.url} has a description`);
  assert.ok(optional.includes(`${site.url}/llms-full.txt`), 'the Optional list links llms-full.txt');
});

test('every docs, skills and why page has its Markdown copy at its URL plus .md', () => {
  const missing = routes.filter((r) => !existsSync(mdFile(r)));
  assert.deepEqual(missing, []);
  assert.ok(existsSync(join(BUILD, 'docs.md')), 'the docs index at /docs.md');
});

/** The fenced blocks of a Markdown text (fences in list items are indented), whether every fence closes, and the rest. */
function fences(md) {
  const blocks = [];
  const outside = [];
  let open = null;
  for (const line of md.split('\n')) {
    if (!open) {
      const m = /^( *)(`{3,}|~{3,})(.*)$/.exec(line);
      if (m) open = { indent: m[1].length, marker: m[2], info: m[3].trim(), lines: [] };
      else outside.push(line);
    } else if (new RegExp(`^ *\\${open.marker[0]}{${open.marker.length},} *$`).test(line)) {
      blocks.push({ lang: open.info.split(/\s/)[0], meta: open.info, code: open.lines.join('\n') });
      open = null;
    } else open.lines.push(line.replace(new RegExp(`^ {0,${open.indent}}`), ''));
  }
  return { blocks, unclosed: open, outside: outside.join('\n') };
}

/** The Markdown outside fences and inline code: where JSX could hide. */
const prose = (md) => fences(md).outside.replace(/(`+)[^`]*?\1/g, '');

test('the copies hold plain Markdown: no JSX, imports, MDX comments or admonition fences', () => {
  const bad = [];
  for (const route of routes) {
    const text = prose(markdown(route));
    const tag = /<\/?[A-Za-z][\w.:-]*(\s[^>]*)?\/?>/.exec(text.replace(/<https?:[^>]+>/g, ''));
    if (tag) bad.push(`${route}: ${tag[0]}`);
    if (/^import\s+(?:[\w*{][^\n]*\sfrom\s|['"])|^export\s+(?:const|let|default|function|\{)/m.test(text))
      bad.push(`${route}: an import or export`);
    if (/\{\/\*|^:::/m.test(text)) bad.push(`${route}: an MDX comment or an admonition fence`);
  }
  assert.deepEqual(bad, []);
});

test('every fence of every copy closes, has a language and a body', () => {
  const bad = [];
  for (const route of routes) {
    const { blocks, unclosed } = fences(markdown(route));
    if (unclosed) bad.push(`${route}: a fence never closes (${unclosed.marker}${unclosed.info})`);
    for (const b of blocks) {
      if (!b.lang) bad.push(`${route}: a fence without a language`);
      if (!b.code.trim()) bad.push(`${route}: an empty ${b.meta} fence`);
    }
  }
  assert.deepEqual(bad, []);
});

test("every app-code fence is filled with the app's code, cut as on the page, under its title", () => {
  let checked = 0;
  const bad = [];
  for (const route of routes) {
    const { blocks } = fences(markdown(route));
    for (const { attrs: meta } of fencesOfFile(sources.get(route)).filter(
      (f) => (f.lang === 'ts' || f.lang === 'tsx') && f.attrs.file,
    )) {
      const code = visibleCode(readAppCode(meta.file, meta.region));
      const title = meta.title ?? meta.file;
      checked++;
      if (!blocks.some((b) => b.code === code && b.meta.includes(`title="${title}`)))
        bad.push(`${route}: ${meta.file}${meta.region ? `#${meta.region}` : ''}`);
    }
  }
  assert.ok(checked > 20, `app-code fences found: ${checked}`);
  assert.deepEqual(bad, []);
});

const decode = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');

/** The TypeScript code blocks of a built page, with their titles, as a reader sees them. */
function htmlCodeBlocks(html) {
  const out = [];
  const re =
    /<div class="?[^">]*codeBlockContainer[^>]*>(?:(?!<pre)[\s\S])*?(?:<div class="?codeBlockTitle[^>]*>([^<]*)<\/div>)?(?:(?!<pre)[\s\S])*?<pre[^>]*class="?prism-code language-(tsx?)[^>]*>\s*<code[^>]*>([\s\S]*?)<\/code><\/pre>/g;
  for (const [, title, lang, body] of html.matchAll(re)) {
    const code = decode(
      body
        .replace(/<br\s*\/?>/g, '')
        .replace(/<\/div>/g, '\n')
        .replace(/<[^>]+>/g, ''),
    ).replace(/\n$/, '');
    out.push({ title: title && decode(title), lang, code });
  }
  return out;
}

test('the TypeScript blocks of every copy are the ones its HTML page shows, code and title', () => {
  let checked = 0;
  const bad = [];
  for (const route of routes) {
    const { blocks } = fences(markdown(route));
    for (const block of htmlCodeBlocks(readHtml(route))) {
      checked++;
      const same = blocks.some(
        (b) =>
          b.lang === block.lang && b.code === block.code && (!block.title || b.meta.includes(`title="${block.title}"`)),
      );
      if (!same) bad.push(`${route}: ${block.title ?? block.code.split('\n')[0]}`);
    }
  }
  assert.ok(checked > 100, `TypeScript blocks compared: ${checked}`);
  assert.deepEqual(bad.slice(0, 20), []);
});

test('npm2yarn installs keep their npm commands, and diagrams stay fenced mermaid', () => {
  let installs = 0;
  let diagrams = 0;
  for (const route of routes) {
    const { blocks } = fences(markdown(route));
    for (const { lang, meta, code } of fencesOfFile(sources.get(route))) {
      if (lang === 'bash' && meta === 'npm2yarn') {
        installs++;
        assert.ok(
          blocks.some((b) => b.meta === 'bash' && b.code === code),
          `${route}: ${code}`,
        );
      }
      if (lang === 'mermaid') {
        diagrams++;
        assert.ok(
          blocks.some((b) => b.lang === 'mermaid' && b.code === code),
          `${route}: a mermaid diagram`,
        );
      }
    }
  }
  assert.ok(installs > 0 && diagrams > 0, `installs ${installs}, diagrams ${diagrams}`);
});

test('links in the copies are absolute: to a page with a copy, its .md', () => {
  const bad = [];
  for (const route of routes)
    for (const [, url] of prose(markdown(route)).matchAll(/\]\(([^)\s]+)\)/g))
      if (!/^(https?:|mailto:|#)/.test(url)) bad.push(`${route}: ${url}`);
      else if (url.startsWith(`${site.url}/`) && url.split('#')[0].endsWith('.md')) {
        const path = url.slice(site.url.length).split('#')[0];
        if (!existsSync(join(BUILD, path))) bad.push(`${route}: ${url} (no such copy)`);
      }
  assert.deepEqual(bad, []);
});

test('llms-full.txt holds the copy of every docs, skills and why page', () => {
  const full = readFileSync(join(BUILD, 'llms-full.txt'), 'utf8');
  const missing = routes.filter((r) => !full.includes(markdown(r)));
  assert.deepEqual(missing, []);
});
