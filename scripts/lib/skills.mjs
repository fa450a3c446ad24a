// What scripts/skills-run.mjs reads from a skill page: its prerequisites, and the steps the page asks for, in the
// page's order, each taken as the site renders it (a `file=`/`region=` fence is filled from the to-do app, a
// `// ---cut---` prefix dropped). The runner executes these steps; this module only reads and plans, so its unit
// test (tests/unit/skills-run.test.mjs) needs no project, install or server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, splitFrontMatter } from './content.mjs';
import { fencesOfFile, inFenceBody, readFences } from './fences.mjs';
import { APP_DIR, PULL_LANGS, TS_LANGS, readAppCode, visibleCode } from '../../src/plugins/remark-app-code.mjs';

export const SKILLS_DIR = join(ROOT, 'docs', 'skills');

/**
 * The `## ` sections of a page body, in order: [{ title, text, line, fences }], `line` the heading's line counted
 * from `firstLine` (the body's first line). A `## ` line inside one of `fences` (readFences of the body, or of the
 * whole page with `firstLine` the body's line in it) is code, not a heading. A section's `fences` are those of its
 * text, their lines counted from the text's first line (the heading's), as blocks() takes them.
 */
export function sections(body, { fences = [], firstLine = 1 } = {}) {
  const out = [];
  const lineOf = (index) => firstLine + body.slice(0, index).split('\n').length - 1;
  const heads = [...body.matchAll(/^## (.+)$/gm)].filter((m) => !inFenceBody(fences, lineOf(m.index)));
  heads.forEach((m, i) => {
    const end = i + 1 < heads.length ? heads[i + 1].index : body.length;
    const line = lineOf(m.index);
    const text = body.slice(m.index + m[0].length, end);
    const last = line + text.split('\n').length - 1;
    out.push({
      title: m[1].trim(),
      text,
      line,
      fences: fences
        .filter((f) => f.line > line && f.line <= last)
        .map((f) => ({ ...f, line: f.line - line + 1, endLine: f.endLine - line + 1 })),
    });
  });
  return out;
}

/**
 * The blocks of a section, in order: fences { kind: 'fence', lang, meta, rawMeta, code, before } and top-level list
 * items { kind: 'bullet', text }. `before` is the prose since the previous fence. `fences` are the section's fences
 * as scripts/lib/fences.mjs reads them, their lines counted from the section text's first line (by default the
 * text's own).
 */
export function blocks(text, fences = readFences(text)) {
  const out = [];
  const lines = text.split('\n');
  const opening = new Map(fences.map((f) => [f.line - 1, f]));
  let prose = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = opening.get(i);
    if (fence) {
      out.push({
        kind: 'fence',
        lang: fence.lang,
        meta: { ...fence.attrs },
        rawMeta: fence.meta,
        code: fence.code,
        before: prose.join('\n'),
      });
      prose = [];
      i = fence.endLine - 1;
      continue;
    }
    prose.push(lines[i]);
    if (/^- /.test(lines[i])) {
      let item = lines[i].slice(2);
      while (i + 1 < lines.length && !opening.has(i + 1) && /^ {2}\S/.test(lines[i + 1]))
        item += ` ${lines[++i].trim()}`;
      // MDX comments (claim markers) are not part of what the reader sees.
      out.push({ kind: 'bullet', text: item.replace(/\s*\{\/\*[\s\S]*?\*\/\}/g, '').trim() });
    }
  }
  return out;
}

/** The code a fence shows on the site: filled from the app for `file=` fences, without the cut prefix. */
export function renderedCode(fence, appDir = APP_DIR) {
  if (PULL_LANGS.has(fence.lang) && fence.meta.file)
    return visibleCode(readAppCode(fence.meta.file, fence.meta.region, appDir));
  return TS_LANGS.has(fence.lang) ? visibleCode(fence.code) : fence.code;
}

/** Shell lines of a bash fence, with `\` continuations joined and comments and blank lines left out. */
export function shellLines(code) {
  return code
    .replace(/[ \t]*\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** Skill names linked (`./name.mdx`) from a piece of text, in order, each once. */
export const linkedSkills = (text) => [...new Set([...text.matchAll(/\]\(\.\/([\w-]+)\.mdx\)/g)].map((m) => m[1]))];

/**
 * A package argument of `npm install`: { name, version } for `name@1.2.3`, { name, spec } for `github:…` and
 * other specs, so the runner can say exactly what it could not install.
 */
export function parsePackageArg(arg) {
  const m = /^((?:@[^/@]+\/)?[^@]+)@(\d+\.\d+\.\d+)$/.exec(arg);
  if (m) return { arg, name: m[1], version: m[2] };
  return { arg, name: null, spec: arg };
}

/** An `npm install` line: { dev, packages } or null when the line is not one. */
export function parseInstall(line) {
  const m = /^npm (?:install|i|add)\s+(.*)$/.exec(line);
  if (!m) return null;
  const args = m[1].split(/\s+/);
  return {
    dev: args.some((a) => a === '--save-dev' || a === '-D'),
    packages: args.filter((a) => !a.startsWith('-')).map(parsePackageArg),
  };
}

/** Where a file fence writes, or null for a fence that is not a file (output, a deliberate mistake). */
export function filePath(fence) {
  if (fence.meta.mistake || fence.meta['cli-error']) return null;
  const path = fence.meta.title ?? fence.meta.file;
  if (!path) return null;
  // "package.json (scripts)": a part of package.json.
  return path.replace(/\s*\(.*\)$/, '');
}

/**
 * How a file fence is applied to a file that may already exist: JSON is merged into what is there (the pages say
 * "merge these fields", "add this field"); a non-JSON file that exists and that the prose says to add a line to is
 * appended to; anything else is written whole.
 */
export function writeMode(fence, exists) {
  const path = filePath(fence);
  if (exists && path.endsWith('.json')) return 'merge';
  if (exists && /\badd (this|these) lines?\b/i.test(fence.before)) return 'append';
  return 'write';
}

/** Deep merge of JSON values: objects merged key by key, anything else replaced. */
export function mergeJSON(base, extra) {
  if (
    base &&
    extra &&
    typeof base === 'object' &&
    typeof extra === 'object' &&
    !Array.isArray(base) &&
    !Array.isArray(extra)
  ) {
    const out = { ...base };
    for (const [k, v] of Object.entries(extra)) out[k] = k in base ? mergeJSON(base[k], v) : v;
    return out;
  }
  return extra;
}

/**
 * The kind of a shell line of the page, which decides how the runner carries it out:
 * - 'install': an `npm install` of pinned packages, taken from the shared install (see skills-run.mjs);
 * - 'background': a server or worker the page leaves running ("leave it running", "in a second terminal");
 * - 'interactive': a tool a person drives (wscat, the MCP Inspector); the checks drive the same protocol instead;
 * - 'cloud': a step that needs a cloud account (deploy, login, secrets on the platform); not run here;
 * - 'docker': a container the page starts; the runner starts the same server locally instead;
 * - 'run': anything else, run as written by bash.
 */
export function commandKind(line) {
  if (parseInstall(line)) return 'install';
  if (/^docker (run|exec)\b/.test(line)) return 'docker';
  if (/^npx (wscat|@modelcontextprotocol\/inspector)@/.test(line)) return 'interactive';
  if (/^npx (serverless|sls) (deploy|logs|invoke --function)|^npx wrangler (deploy|login|secret)\b/.test(line))
    return 'cloud';
  if (
    /^npm start$|^npx tsx src\/(runtimes\/|scheduler\.ts)|^yarn workspace \S+ run (dev|start)$|^npx wrangler dev\b/.test(
      line,
    )
  )
    return 'background';
  return 'run';
}

/**
 * A skill page as steps: { name, title, prerequisites, setup, install, files, commands, verify }, each step
 * { section, kind, ... } in page order. `prerequisites` are the skills linked from the Prerequisites section, except
 * from an item that starts with "Optional".
 */
export function parseSkill(name, text, appDir = APP_DIR) {
  const file = join(SKILLS_DIR, `${name}.mdx`);
  const fences = text === undefined ? fencesOfFile(file) : readFences(text, { file });
  const { data, body, bodyLine } = splitFrontMatter(text ?? readFileSync(file, 'utf8'));
  const secs = sections(body, { fences, firstLine: bodyLine });
  const sec = (title) => secs.find((s) => s.title === title);
  const blocksOf = (s) => (s ? blocks(s.text, s.fences) : []);
  const prerequisites = [];
  for (const b of blocksOf(sec('Prerequisites')).filter((b) => b.kind === 'bullet'))
    if (!/^Optional\b/.test(b.text))
      for (const s of linkedSkills(b.text)) if (s !== name && !prerequisites.includes(s)) prerequisites.push(s);
  const steps = [];
  // A prerequisite the reader makes with a command the item names (project-setup's "made by `npm init -y`").
  for (const b of blocksOf(sec('Prerequisites')).filter((b) => b.kind === 'bullet'))
    for (const m of b.text.matchAll(/made by `(npm init -y)`/g))
      steps.push({ section: 'Prerequisites', kind: 'run', line: m[1] });
  for (const title of ['Install', 'Files to create', 'Commands to run', 'Verify it worked']) {
    const s = sec(title);
    if (!s) continue;
    for (const b of blocksOf(s)) {
      if (b.kind === 'bullet') {
        if (title === 'Verify it worked') steps.push({ section: title, kind: 'check', text: b.text });
        continue;
      }
      if (b.lang === 'bash') {
        for (const line of shellLines(b.code)) steps.push({ section: title, kind: commandKind(line), line });
        continue;
      }
      const path = filePath(b);
      if (path && title === 'Files to create')
        steps.push({ section: title, kind: 'file', path, fence: b, code: renderedCode(b, appDir) });
    }
  }
  return { name, title: data.title, prerequisites, steps };
}

/**
 * The order a skill is run in: its prerequisites' closure, in topological order (ties broken by the sidebar's
 * order, `order`), then the skill. Throws on a prerequisite that is not a skill, or on a cycle.
 */
export function runOrder(name, prerequisitesOf, order) {
  const out = [];
  const visiting = new Set();
  const visit = (n, path) => {
    if (out.includes(n)) return;
    if (visiting.has(n)) throw new Error(`prerequisite cycle: ${[...path, n].join(' -> ')}`);
    if (!order.includes(n)) throw new Error(`${path.at(-1)} lists ${n} as a prerequisite, which is not a skill`);
    visiting.add(n);
    const pre = [...prerequisitesOf(n)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    for (const p of pre) visit(p, [...path, n]);
    visiting.delete(n);
    out.push(n);
  };
  visit(name, []);
  return out;
}
