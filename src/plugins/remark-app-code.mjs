// remark-app-code: keeps the code samples of the site and the to-do app in examples/todo-app from drifting apart.
//
// In a ```ts / ```tsx fence (and, for `file=` alone, a ```json / ```jsonc one):
// - `file="src/x.ts"` (relative to examples/todo-app) fills the empty block with that file, or with the lines
//   between `// #region NAME` and `// #endregion NAME` when `region="NAME"` is given. The title defaults to the
//   file's path. Region markers inside the shown code are dropped.
// - Lines up to and including a line `// ---cut---` are compiled by scripts/code-samples.mjs but not shown.
// - `mistake="TS2345"` marks a sample that must fail to compile with that error; its title says so.
// - `cli-error="PKU410"` marks a sample that compiles but that `pikku all` rejects with that code; its title says so.
// A missing file or region throws, so the build fails naming the MDX file.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'todo-app');
export const CUT = /^[ \t]*\/\/ ---cut---[ \t]*$/m;
const REGION_MARK = /^[ \t]*\/\/ #(?:end)?region\b.*$/;
/** The fence languages of TypeScript samples: compiled, or pulled from the app with `file=`. */
export const TS_LANGS = new Set(['ts', 'tsx', 'typescript']);
/** The fence languages whose `file=` pulls app code: TypeScript, and JSON for the app's config files. */
export const PULL_LANGS = new Set([...TS_LANGS, 'json', 'jsonc']);

/** Reads `key="value"` and `key=value` pairs of a fence's meta string. */
export function parseMeta(meta = '') {
  const out = {};
  for (const m of (meta ?? '').matchAll(/([\w-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))/g)) out[m[1]] = m[2] ?? m[3] ?? m[4];
  return out;
}

const dedent = (lines) => {
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut));
};

/** The code a `file=`/`region=` fence shows. Throws with a clear message when the file or region is missing. */
export function readAppCode(file, region, appDir = APP_DIR) {
  const path = join(appDir, file);
  if (!existsSync(path)) throw new Error(`file="${file}" is not a file of the example app (${appDir})`);
  let lines = readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
  if (region) {
    const start = lines.findIndex((l) => new RegExp(`^\\s*// #region ${region}\\s*$`).test(l));
    const end = lines.findIndex((l, i) => i > start && new RegExp(`^\\s*// #endregion ${region}\\s*$`).test(l));
    if (start < 0 || end < 0) throw new Error(`region="${region}" is not marked in ${file} (// #region ${region})`);
    lines = dedent(lines.slice(start + 1, end));
  }
  return lines.filter((l) => !REGION_MARK.test(l)).join('\n');
}

/** The part of a sample a reader sees: everything after a `// ---cut---` line, if there is one. */
export function visibleCode(code) {
  const m = CUT.exec(code);
  return m ? code.slice(m.index + m[0].length).replace(/^\r?\n/, '') : code;
}

const withoutKeys = (meta, keys) =>
  (meta ?? '').replace(new RegExp(`\\s*(?<![\\w-])(?:${keys.join('|')})=(?:"[^"]*"|'[^']*'|\\S+)`, 'g'), '').trim();

function visitCode(node, fn) {
  if (node.type === 'code') fn(node);
  for (const child of node.children ?? []) visitCode(child, fn);
}

export default function remarkAppCode({ appDir = APP_DIR } = {}) {
  return (tree, vfile) => {
    visitCode(tree, (node) => {
      if (!PULL_LANGS.has(node.lang)) return;
      const meta = parseMeta(node.meta);
      if (!TS_LANGS.has(node.lang) && !meta.file) return;
      if (meta.file) {
        try {
          node.value = readAppCode(meta.file, meta.region, appDir);
        } catch (error) {
          throw new Error(`${vfile?.path ?? 'MDX'}: ${error.message}`);
        }
      }
      node.value = visibleCode(node.value);
      let rest = withoutKeys(node.meta, ['file', 'region', 'mistake', 'cli-error', 'title']);
      let title = meta.title ?? meta.file;
      if (meta.mistake) title = `${title ?? 'Mistake'} (a deliberate mistake: fails with ${meta.mistake})`;
      if (meta['cli-error'])
        title = `${title ?? 'Mistake'} (a deliberate mistake: pikku all reports ${meta['cli-error']})`;
      node.meta = [title ? `title="${title}"` : '', rest].filter(Boolean).join(' ') || null;
    });
  };
}
