#!/usr/bin/env node
// Checks the TypeScript samples of the docs, skills, why pages, blog and MDX pages against the
// published packages: every named import from @pikku/core (or a subpath) must be exported by
// that entry point's type declarations, and every import from the generated modules ('#pikku',
// '#pikku/FILE', or a path into .pikku/) must be a name the CLI generates
// (tests/data/pikku-generated-names.json). Posts about old releases opt out with
// `pikku_legacy_api: true` in their front matter.
// Usage: node scripts/code-samples.mjs   (exit 1 on a problem)
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { ROOT, listContentFiles, splitFrontMatter } from './content-check.mjs';

const CODE_LANGS = new Set(['ts', 'tsx', 'typescript', 'js', 'jsx', 'mjs']);
export const GENERATED = JSON.parse(readFileSync(join(ROOT, 'tests', 'data', 'pikku-generated-names.json'), 'utf8'));

/** Every code block of a TS-like language: { file, line, code }. */
export function extractBlocks(file) {
  const source = readFileSync(file, 'utf8');
  const { data, body, bodyLine } = splitFrontMatter(source);
  if (data.pikku_legacy_api === true) return [];
  const blocks = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+|~~~+)\s*(\w+)/.exec(lines[i]);
    if (!open) continue;
    const [, , fence, lang] = open;
    const start = i;
    const code = [];
    for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++) code.push(lines[i]);
    if (CODE_LANGS.has(lang)) blocks.push({ file, line: bodyLine + start, code: code.join('\n') });
  }
  return blocks;
}

/** Named imports of a block: [{ module, names: [{ name, line }] }]. */
export function importsOf(code) {
  const out = [];
  const re = /(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of code.matchAll(re)) {
    const line = code.slice(0, m.index).split('\n').length;
    const names = m[1]
      .split(',')
      .map((n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]
          .trim(),
      )
      .filter(Boolean)
      .map((name) => ({ name, line }));
    out.push({ module: m[2], names });
  }
  for (const m of code.matchAll(/import\s+([\w$]+)\s+from\s*['"](@pikku\/core[^'"]*)['"]/g))
    out.push({ module: m[2], names: [{ name: 'default', line: code.slice(0, m.index).split('\n').length }] });
  return out;
}

const corePkgDir = join(ROOT, 'node_modules', '@pikku', 'core');
const corePkg = JSON.parse(readFileSync(join(corePkgDir, 'package.json'), 'utf8'));
const exportCache = new Map();

/** The .d.ts file behind an @pikku/core entry point, or null if the package has no such entry. */
export function declarationFor(module) {
  const sub = module === '@pikku/core' ? '.' : `.${module.slice('@pikku/core'.length)}`;
  let entry = corePkg.exports[sub];
  if (!entry) {
    const wildcard = Object.keys(corePkg.exports).find((k) => k.endsWith('/*') && sub.startsWith(k.slice(0, -1)));
    if (wildcard)
      entry = JSON.parse(JSON.stringify(corePkg.exports[wildcard]).replaceAll('*', sub.slice(wildcard.length - 1)));
  }
  if (!entry) return null;
  const pick = (e) => (typeof e === 'string' ? e : (e.types ?? pick(e.import ?? e.default ?? Object.values(e)[0])));
  const target = pick(entry);
  const dts = join(corePkgDir, target.replace(/\.(m?js)$/, '.d.ts'));
  return existsSync(dts) ? dts : null;
}

/** Read the exports of these entry points with one TypeScript program over their declarations. */
export function loadExports(modules) {
  const todo = [...new Set(modules)].filter((m) => !exportCache.has(m));
  const roots = todo.map((m) => [m, declarationFor(m)]);
  const files = roots.map(([, dts]) => dts).filter(Boolean);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  for (const [module, dts] of roots) {
    const symbol = dts ? checker.getSymbolAtLocation(program.getSourceFile(dts)) : undefined;
    exportCache.set(
      module,
      dts ? new Set(symbol ? checker.getExportsOfModule(symbol).map((x) => x.getName()) : []) : null,
    );
  }
}

/** Names exported by an @pikku/core entry point (null when there is no such entry point). */
export function exportsOf(module) {
  if (!exportCache.has(module)) loadExports([module]);
  return exportCache.get(module);
}

/** The generated-names key for a module specifier, or undefined if it is not a generated module. */
export function generatedKey(module) {
  if (module === '#pikku') return 'pikku-types.gen';
  const m = /^(?:#pikku\/|.*\.pikku\/)(?:.*\/)?([\w.-]+?)(?:\.(?:js|ts|d\.ts))?$/.exec(module);
  return m ? m[1] : undefined;
}

export function checkBlock({ file, line, code }) {
  const problems = [];
  const at = (n) => `${relative(ROOT, file)}:${line + n}`;
  for (const { module, names } of importsOf(code)) {
    if (module === '@pikku/core' || module.startsWith('@pikku/core/')) {
      const exported = exportsOf(module);
      if (!exported) {
        problems.push(
          `${at(names[0]?.line ?? 1)}: '${module}' is not an entry point of @pikku/core@${corePkg.version}`,
        );
        continue;
      }
      for (const { name, line: l } of names)
        if (!exported.has(name))
          problems.push(`${at(l)}: '${name}' is not exported by '${module}' (@pikku/core@${corePkg.version})`);
      continue;
    }
    const key = generatedKey(module);
    if (key === undefined) continue;
    const allowed = GENERATED[key];
    if (!allowed) {
      problems.push(`${at(names[0]?.line ?? 1)}: '${module}' is not a module the pikku CLI generates`);
      continue;
    }
    for (const { name, line: l } of names)
      if (!allowed.includes(name))
        problems.push(`${at(l)}: '${name}' is not generated into ${key} (tests/data/pikku-generated-names.json)`);
  }
  return problems;
}

export function sampleFiles() {
  return [...listContentFiles(), ...listContentFiles([join(ROOT, 'src', 'pages')])];
}

export function checkAllSamples(files = sampleFiles()) {
  const blocks = files.flatMap(extractBlocks);
  loadExports(
    blocks
      .flatMap((b) => importsOf(b.code).map((i) => i.module))
      .filter((m) => m === '@pikku/core' || m.startsWith('@pikku/core/')),
  );
  return { blocks, problems: blocks.flatMap(checkBlock) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { blocks, problems } = checkAllSamples();
  for (const p of problems) console.log(p);
  console.log(`code-samples: ${blocks.length} blocks, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}
