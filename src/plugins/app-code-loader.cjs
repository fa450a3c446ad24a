/**
 * The loader of src/plugins/app-snippets.ts, for MDX files. A ```ts fence with `file="..."` pulls its code from the
 * to-do app (src/plugins/remark-app-code.mjs), so the app file is part of the page; but the MDX loader only knows the
 * MDX file. This loader declares each app file a fence pulls as a dependency of the page and leaves the source as it
 * is. Without it, the bundler's persistent cache, and `docusaurus start`, kept a page as it was after its app file
 * changed.
 */
const { join, resolve } = require('node:path');

/** The to-do app, where `file="..."` paths start (remark-app-code's APP_DIR). */
const APP_DIR = resolve(__dirname, '..', '..', 'examples', 'todo-app');
/** The opening line of a TypeScript fence, with its meta; remark-app-code reads `file=` from ts, tsx and typescript. */
const TS_FENCE = /^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:ts|tsx|typescript)(?![\w-])(.*)$/gm;
/** The `file=` item of a fence's meta, quoted or not (as remark-app-code's parseMeta reads it). */
const FILE = /(?<![\w-])file=(?:"([^"]*)"|'([^']*)'|(\S+))/;

/** The app files (relative to the app) that the TypeScript fences of an MDX source pull. */
function appFilesOf(source) {
  const files = new Set();
  for (const [, meta] of source.matchAll(TS_FENCE)) {
    const m = FILE.exec(meta);
    if (m) files.add(m[1] ?? m[2] ?? m[3]);
  }
  return [...files];
}

function appCodeLoader(source) {
  for (const file of appFilesOf(source)) this.addDependency(join(APP_DIR, file));
  return source;
}

module.exports = appCodeLoader;
module.exports.appFilesOf = appFilesOf;
module.exports.APP_DIR = APP_DIR;
