#!/usr/bin/env node
// Compiles the site's TypeScript samples against the to-do app in examples/todo-app, on the framework's real
// packages (vendor/pikku) and the code its CLI generated (`npm run app:generate` writes examples/todo-app/.pikku).
// - A fence with `file=` shows one of the app's files: the file (and region) must exist and the body must be empty.
//   A fence whose title names an app file but has a body of its own is an error: it would drift from the app.
// - Every other ts/tsx fence is compiled whole, as a module in the app: a block titled "src/a/b.ts" is placed at
//   that path in an overlay of the app, so its relative imports reach the page's other blocks first, then the app's
//   files. All blocks of all pages are compiled in one TypeScript program with the app's tsconfig.json.
// - `mistake="TS2345"` blocks must fail with that code. `cli-error="PKU410"` blocks compile (the CLI, not tsc,
//   rejects them) and must name codes of src/data/cli-errors.json; scripts/cli-samples.mjs runs the real CLI on
//   them and on every other sample. Imports of the removed layout fail.
// Posts about old releases opt out with `pikku_legacy_api: true`. Docs, skills, why, blog, MDX pages and the home
// page's showcase (src/data/showcase.ts) are checked.
// Usage: node scripts/code-samples.mjs [FILE ...]   (exit 1 on a problem)
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { ROOT, listContentFiles, splitFrontMatter } from './lib/content.mjs';
import { fencesOfFile } from './lib/fences.mjs';
import { APP_DIR, TS_LANGS, readAppCode } from '../src/plugins/remark-app-code.mjs';

const CLI_CODES = new Set(
  JSON.parse(readFileSync(join(ROOT, 'src', 'data', 'cli-errors.json'), 'utf8')).codes.map((c) => c.code),
);
const JS_LANGS = new Set(['js', 'jsx', 'mjs']);
const OVERLAY = join(APP_DIR, '.samples');
/** Import specifiers of the layout removed in @pikku/core 0.12.85, with what replaced them. */
export const REMOVED_IMPORTS = [
  [
    /^#pikku$/,
    "the '#pikku' hub was removed in core 0.12.85: import from a leaf such as '#pikku/function' or '#pikku/http'",
  ],
  [
    /^#pikku\/pikku-types\.gen(\.js)?$/,
    "'.pikku/pikku-types.gen' is no longer generated (core 0.12.85): import from a '#pikku/<leaf>'",
  ],
  [
    /^@pikku\/core$/,
    "the '@pikku/core' root barrel was removed in core 0.12.85: import from the subpath that owns the name",
  ],
  [/^@pikku\/core\/ecosystem(\/.*)?$/, "'@pikku/core/ecosystem' was removed in core 0.12.85"],
];

/** The codes of a `cli-error` mark (several may be listed, space- or comma-separated), sorted. */
export const codesOf = (mark) =>
  mark
    ? String(mark)
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort()
    : [];

/** Every code fence of a TS-like language in a content file: { file, line, lang, meta, code }. */
export function extractBlocks(file) {
  const { data } = splitFrontMatter(readFileSync(file, 'utf8'));
  if (data.pikku_legacy_api === true) return [];
  return fencesOfFile(file)
    .filter((f) => TS_LANGS.has(f.lang) || JS_LANGS.has(f.lang))
    .map((f) => ({ file, line: f.line, lang: f.lang, meta: { ...f.attrs }, code: f.code }));
}

/**
 * The home page's showcase (src/data/showcase.ts): each `{ file, region }` entry is shown from the app by the
 * app-snippets plugin, so it is checked as a pulled block: { file, line, lang, meta, code: '' }.
 */
export function showcaseBlocks(file = join(ROOT, 'src', 'data', 'showcase.ts')) {
  if (!existsSync(file)) return [];
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const blocks = [];
  const visit = (node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const prop = (name) =>
        node.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === name)?.initializer;
      const target = prop('file');
      const region = prop('region');
      if (target && ts.isStringLiteral(target)) {
        const meta = { file: target.text, ...(region && ts.isStringLiteral(region) ? { region: region.text } : {}) };
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
        blocks.push({ file, line, lang: 'ts', meta, code: '' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return blocks;
}

export function sampleFiles() {
  return [...listContentFiles(), ...listContentFiles([join(ROOT, 'src', 'pages')])];
}

const isAppFile = (path) => {
  const full = join(APP_DIR, path);
  return !path.startsWith('..') && !path.startsWith('/') && existsSync(full) && !full.startsWith(OVERLAY);
};
const slugOf = (file) =>
  relative(ROOT, file)
    .split(sep)
    .join('/')
    .replace(/\.(mdx?|ts)$/, '')
    .replace(/[^\w-]+/g, '_');
const importSpecifiers = (code) =>
  [...code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?(?:from\s*)?['"]([^'"]+)['"]/g)].map((m) => ({
    spec: m[1],
    line: code.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0),
  }));

/**
 * Checks the blocks; returns { blocks, counts, problems: ["file:line: message"] }. With `compile: false` only the
 * checks that need no compiler run (marks, pulled regions, imports), for a quick count.
 */
export function checkSamples(blocks, { compile: compiles = true } = {}) {
  const problems = [];
  const at = (b, n = 1) => `${relative(ROOT, b.file)}:${b.line + n}`;
  const counts = { pulled: 0, compiled: 0, mistakes: 0, cliErrors: 0 };
  const virtual = new Map(); // absolute path -> { block, code }
  const seenTitles = new Map();
  for (const b of blocks) {
    for (const { spec, line } of importSpecifiers(b.code))
      for (const [re, why] of REMOVED_IMPORTS) if (re.test(spec)) problems.push(`${at(b, line)}: ${why}`);
    if (!TS_LANGS.has(b.lang)) continue;
    if (b.meta.file) {
      counts.pulled++;
      if (b.code.trim()) problems.push(`${at(b, 0)}: a file="${b.meta.file}" block must have an empty body`);
      try {
        readAppCode(b.meta.file, b.meta.region);
      } catch (error) {
        problems.push(`${at(b, 0)}: ${error.message}`);
      }
      continue;
    }
    const title = /\.(tsx?|mts)$/.test(b.meta.title ?? '') ? b.meta.title.replace(/^\.\//, '') : undefined;
    if (title && isAppFile(title)) {
      problems.push(
        `${at(b, 0)}: this block shows the app's ${title}: pull it with file="${title}" (and region=) instead of copying it`,
      );
      continue;
    }
    if (b.meta.mistake) counts.mistakes++;
    else if (b.meta['cli-error']) {
      counts.cliErrors++;
      for (const code of codesOf(b.meta['cli-error']))
        if (!CLI_CODES.has(code))
          problems.push(
            `${at(b, 0)}: cli-error="${b.meta['cli-error']}": ${code} is not a code of src/data/cli-errors.json`,
          );
    } else counts.compiled++;
    const ext = b.lang === 'tsx' || title?.endsWith('.tsx') ? '.tsx' : '.ts';
    let rel =
      title && !title.startsWith('..') && !title.startsWith('/')
        ? title.replace(/\.(tsx?|mts)$/, ext)
        : `src/__sample_L${b.line}${ext}`;
    const key = `${slugOf(b.file)}/${rel}`;
    if (seenTitles.has(key)) rel = rel.replace(/(\.tsx?)$/, `.__L${b.line}$1`);
    seenTitles.set(key, true);
    virtual.set(join(OVERLAY, slugOf(b.file), rel), b);
  }
  if (compiles) problems.push(...compile(virtual));
  return { blocks, counts, problems };
}

/** One program over the app and every virtual block; diagnostics mapped back to their pages. */
function compile(virtual) {
  const configPath = join(APP_DIR, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const options = config.options;
  const host = ts.createCompilerHost(options);
  const codeOf = (path) => virtual.get(path)?.code;
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => codeOf(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, onError, create) => {
    const code = codeOf(f);
    return code !== undefined
      ? ts.createSourceFile(f, code, lang, true)
      : getSourceFile.call(host, f, lang, onError, create);
  };
  const overlayRoot = (f) => {
    if (!f.startsWith(OVERLAY + sep)) return null;
    const [page] = relative(OVERLAY, f).split(sep);
    return join(OVERLAY, page);
  };
  const virtualTarget = (base) =>
    [
      base.replace(/\.js$/, '.ts'),
      base.replace(/\.js$/, '.tsx'),
      `${base}.ts`,
      `${base}.tsx`,
      join(base, 'index.ts'),
    ].find((p) => virtual.has(p));
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts) =>
    literals.map((literal) => {
      const name = literal.text;
      const root = overlayRoot(containingFile);
      if (root && name.startsWith('.')) {
        const hit = virtualTarget(resolve(dirname(containingFile), name));
        if (hit)
          return {
            resolvedModule: {
              resolvedFileName: hit,
              extension: hit.endsWith('x') ? '.tsx' : '.ts',
              isExternalLibraryImport: false,
            },
          };
      }
      const from = root ? join(APP_DIR, relative(root, containingFile)) : containingFile;
      return ts.resolveModuleName(name, from, opts, host);
    });
  const program = ts.createProgram({ rootNames: [...config.fileNames, ...virtual.keys()], options, host });
  const problems = [];
  const byFile = new Map();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const f = d.file?.fileName;
    if (!byFile.has(f)) byFile.set(f, []);
    byFile.get(f).push(d);
  }
  for (const [f, b] of virtual) {
    const diags = byFile.get(f) ?? [];
    byFile.delete(f);
    const where = (d) => `${relative(ROOT, b.file)}:${b.line + 1 + d.file.getLineAndCharacterOfPosition(d.start).line}`;
    const text = (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`;
    if (b.meta.mistake) {
      const want = Number(String(b.meta.mistake).replace(/^TS/i, ''));
      if (!diags.some((d) => d.code === want))
        problems.push(
          `${relative(ROOT, b.file)}:${b.line}: marked mistake="${b.meta.mistake}" but ${diags.length ? `fails with ${diags.map((d) => `TS${d.code}`).join(', ')}` : 'compiles'}`,
        );
      continue;
    }
    for (const d of diags) problems.push(`${where(d)}: ${text(d)}`);
  }
  for (const [f, diags] of byFile)
    for (const d of diags) {
      const pos = d.file ? `:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      problems.push(
        `${f ? relative(ROOT, f) : 'tsconfig'}${pos}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`,
      );
    }
  return problems;
}

/** The app's generated tree, without which nothing here can compile: written by `npm run app:generate`. */
export function generatedTreeProblem() {
  return existsSync(join(APP_DIR, '.pikku', 'function', 'index.ts')) &&
    existsSync(join(APP_DIR, 'addon-example', 'dist', '.pikku'))
    ? undefined
    : 'examples/todo-app/.pikku (or the addon build) is missing: run `npm run app:generate`, which runs the real CLI (pikku all) on the app';
}

export function checkAllSamples(files) {
  const missing = generatedTreeProblem();
  if (missing)
    return { blocks: [], counts: { pulled: 0, compiled: 0, mistakes: 0, cliErrors: 0 }, problems: [missing] };
  const all = !files;
  const blocks = [
    ...(files ?? sampleFiles()).flatMap(extractBlocks),
    ...(all || files.some((f) => f.endsWith('showcase.ts')) ? showcaseBlocks() : []),
  ];
  return checkSamples(
    blocks.filter((b) => !b.file.endsWith('showcase.ts') || all || files.some((f) => f.endsWith('showcase.ts'))),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2).map((f) => resolve(f));
  const { blocks, counts, problems } = checkAllSamples(
    args.length
      ? args.filter((f) => !f.endsWith('showcase.ts')).concat(args.filter((f) => f.endsWith('showcase.ts')))
      : undefined,
  );
  for (const p of problems) console.log(p);
  console.log(
    `code-samples: ${blocks.length} blocks (${counts.pulled} pulled from the app, ${counts.compiled} compiled, ${counts.mistakes} deliberate type errors, ${counts.cliErrors} deliberate CLI errors), ${problems.length} problems`,
  );
  process.exit(problems.length ? 1 : 0);
}
