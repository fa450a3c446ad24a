#!/usr/bin/env node
// The claims check: every statement of behaviour that a page ties to a test with a marker must name a test of the
// behaviour suite (examples/todo-app/tests/behaviour) that exists and passed.
//
// Markers are MDX comments written right after the sentence they back, inside the same paragraph or list item:
//   {/* claim: http#session-required-403 */}            one test, or several separated by commas
//   {/* source: @pikku/cloudflare */}                    read from the framework's source: it cannot run here
// A test's id is "<test file name without .test.ts>#<its name up to the first colon>".
//
// The report lists, per page, the tested statements, the statements read from the source, and the sentences that
// look like statements of behaviour (a status code, a PKU code or a verb such as "returns" or "throws") and carry
// no marker. Only markers fail the check; the untested list is for the next audit.
//
// `node scripts/claims.mjs --markers` (npm run check:claims, part of npm run lint) checks the markers without
// running the suite: each is well formed, follows its sentence, and names a test that the suite's files declare.
// Whether those tests pass is the full check's work.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { ROOT, listMdxFiles } from './lib/content.mjs';

const MARKER = /^\/\*\s*(claim|source):\s*([^*]*?)\s*\*\/$/s;
const ID = /^[a-z0-9][a-z0-9-]*#[a-z0-9][a-z0-9-]*$/;
const BEHAVIOUR =
  /\b(?:[1-5]\d\d|PKU\d{3})\b|\b(?:returns?|answers?|responds?|throws?|rejects?|fails?|retries|retry|closes?|coerce[sd]?|validates?|reports?|registers?|delivers?|redelivers?)\b/i;

const parser = unified().use(remarkParse).use(remarkFrontmatter).use(remarkGfm).use(remarkMdx);

/** Keeps a sentence whole across inline code that holds a full stop, such as a quoted error message. */
const KEEP = '\uE000';

/** Plain text of a node, with inline code kept and MDX expressions left out. */
const textOf = (node) => {
  if (node.type === 'text') return node.value;
  if (node.type === 'inlineCode') return node.value.replace(/([.!?])(?=\s)/g, `$1${KEEP}`);
  if (node.type === 'mdxTextExpression' || node.type === 'mdxFlowExpression' || node.type === 'code') return '';
  return (node.children ?? []).map(textOf).join('');
};

const sentences = (text) =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z`(])/)
    .map((s) => s.replaceAll(KEEP, '').trim())
    .filter(Boolean);

/**
 * The markers of one MDX source and the sentences they back, plus the behaviour-like sentences with no marker.
 * Blocks are paragraphs, table cells and headings; a marker backs the last sentence before it in its block.
 */
export function readClaims(source, file = '<source>') {
  const tree = parser.parse(source);
  const claims = [];
  const untested = [];
  const problems = [];
  const walk = (node) => {
    if (node.type === 'code' || node.type === 'yaml') return;
    if (node.type === 'paragraph' || node.type === 'tableCell' || node.type === 'heading') {
      let before = '';
      let markedUpTo = 0;
      const parts = [];
      for (const child of node.children ?? []) {
        const match = child.type === 'mdxTextExpression' ? MARKER.exec(child.value.trim()) : null;
        if (!match) {
          before += textOf(child);
          continue;
        }
        const [, kind, list] = match;
        const said = sentences(before.slice(markedUpTo));
        const statement = said.at(-1) ?? sentences(before).at(-1) ?? '';
        parts.push(...said.slice(0, -1));
        markedUpTo = before.length;
        const line = child.position?.start.line;
        const names = list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (!statement) problems.push(`${file}:${line}: a ${kind} marker with no sentence before it`);
        if (!names.length) problems.push(`${file}:${line}: an empty ${kind} marker`);
        if (kind === 'claim')
          for (const id of names)
            if (!ID.test(id)) problems.push(`${file}:${line}: "${id}" is not a test id (file#name, lower-case kebab)`);
        claims.push({ kind, names, statement, line });
      }
      parts.push(...sentences(before.slice(markedUpTo)));
      for (const s of parts) if (BEHAVIOUR.test(s)) untested.push({ statement: s, line: node.position?.start.line });
      return;
    }
    if (node.type === 'mdxFlowExpression' && MARKER.test(node.value.trim()))
      problems.push(
        `${file}:${node.position?.start.line}: a marker on a line of its own backs nothing; put it after its sentence`,
      );
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return { claims, untested, problems };
}

/**
 * Reads the markers of each file. `judge(id)` says what is wrong with the test a claim names, or null; each such
 * answer is a problem naming the page, the line and the sentence. Returns the pages with markers or untested sentences.
 */
function readPages(files, judge) {
  const pages = [];
  const problems = [];
  for (const file of files) {
    const name = relative(ROOT, file);
    const page = readClaims(readFileSync(file, 'utf8'), name);
    problems.push(...page.problems);
    for (const claim of page.claims) {
      if (claim.kind !== 'claim') continue;
      for (const id of claim.names) {
        const wrong = judge(id);
        if (wrong) problems.push(`${name}:${claim.line}: ${wrong} ("${claim.statement}")`);
      }
    }
    if (page.claims.length || page.untested.length) pages.push({ file: name, ...page });
  }
  return { pages, problems };
}

/**
 * Checks the markers of the given files against the suite's results ({ tests: [{ id, passed }] }).
 * Returns { pages, problems, totals }.
 */
export function checkClaims(results, files = listMdxFiles()) {
  const byId = new Map();
  const problems = [];
  for (const t of results.tests) {
    if (!t.id) continue;
    if (byId.has(t.id)) problems.push(`two tests have the id ${t.id}`);
    byId.set(t.id, t);
  }
  const { pages, problems: pageProblems } = readPages(files, (id) => {
    const test = byId.get(id);
    return !test ? `no test ${id} in the behaviour suite` : test.passed ? null : `test ${id} did not pass`;
  });
  problems.push(...pageProblems);
  const tested = pages.flatMap((p) => p.claims.filter((c) => c.kind === 'claim'));
  const totals = {
    tested: tested.length,
    testedPages: pages.filter((p) => p.claims.some((c) => c.kind === 'claim')).length,
    source: pages.reduce((n, p) => n + p.claims.filter((c) => c.kind === 'source').length, 0),
    untested: pages.reduce((n, p) => n + p.untested.length, 0),
  };
  return { pages, problems, totals };
}

/** The per-page report: tested, read from source, untested. */
export function formatReport({ pages, totals }, { untested = true } = {}) {
  const out = [];
  for (const page of pages) {
    const tested = page.claims.filter((c) => c.kind === 'claim');
    const source = page.claims.filter((c) => c.kind === 'source');
    if (!tested.length && !source.length && !untested) continue;
    out.push(
      `${page.file}: ${tested.length} tested, ${source.length} read from source, ${page.untested.length} untested`,
    );
    for (const c of tested) out.push(`  tested  :${c.line} ${c.statement}  [${c.names.join(', ')}]`);
    for (const c of source) out.push(`  source  :${c.line} ${c.statement}  [${c.names.join(', ')}]`);
    if (untested) for (const u of page.untested) out.push(`  untested:${u.line} ${u.statement}`);
  }
  out.push(
    `${totals.tested} statements tied to tests on ${totals.testedPages} pages; ${totals.source} read from source; ` +
      `${totals.untested} behaviour-like sentences without a marker`,
  );
  return out.join('\n');
}

export const SUITE = join(ROOT, 'examples', 'todo-app', 'tests', 'behaviour');

/** The ids of the tests the suite's files declare (`test('<name>: ...'`), without running them. */
export function declaredTests(dir = SUITE) {
  const ids = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts'))) {
    const stem = file.slice(0, -'.test.ts'.length);
    for (const [, , name] of readFileSync(join(dir, file), 'utf8').matchAll(/\btest\(\s*(['"`])([a-z0-9][a-z0-9-]*):/g))
      ids.add(`${stem}#${name}`);
  }
  return ids;
}

/** Problems of the markers alone: malformed or misplaced, or naming a test no file of the suite declares. */
export function checkMarkers(ids = declaredTests(), files = listMdxFiles()) {
  return readPages(files, (id) => (ids.has(id) ? null : `no test ${id} in the behaviour suite`)).problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--markers')) {
    const problems = checkMarkers();
    for (const p of problems) console.error(`claims: ${p}`);
    process.exit(problems.length ? 1 : 0);
  }
  const resultsFile = process.argv[2] ?? 'examples/todo-app/.behaviour/results.json';
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const report = checkClaims(results);
  console.log(formatReport(report, { untested: !process.argv.includes('--quiet') }));
  for (const p of report.problems) console.error(`claims: ${p}`);
  process.exit(report.problems.length ? 1 : 0);
}
