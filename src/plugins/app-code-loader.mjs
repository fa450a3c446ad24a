/**
 * The loader of src/plugins/app-snippets.ts, for Markdown and MDX files. A TypeScript or JSON fence with `file="..."` pulls its
 * code from the to-do app (src/plugins/remark-app-code.mjs), so the app file is part of the page; but the MDX loader
 * only knows the MDX file. This loader declares each app file a fence pulls as a dependency of the page and leaves the
 * source as it is. Without it, the bundler's persistent cache, and `docusaurus start`, kept a page as it was after
 * its app file changed.
 */
import { join } from 'node:path';
import { APP_DIR, PULL_LANGS, parseMeta } from './remark-app-code.mjs';

/** The opening line of a fence: its language and the rest of its meta. */
const FENCE = /^[ \t]*(?:`{3,}|~{3,})[ \t]*([\w-]+)(.*)$/gm;

/** The app files (relative to the app) that the fences of a Markdown or MDX source pull. */
export function appFilesOf(source) {
  const files = new Set();
  for (const [, lang, meta] of source.matchAll(FENCE)) {
    const { file } = PULL_LANGS.has(lang) ? parseMeta(meta) : {};
    if (file) files.add(file);
  }
  return [...files];
}

export default function appCodeLoader(source) {
  for (const file of appFilesOf(source)) this.addDependency(join(APP_DIR, file));
  return source;
}
