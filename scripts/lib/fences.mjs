// The one reader of the content's code fences, for every script and test: the fences are taken from the Markdown
// AST (remark-parse + remark-mdx + remark-frontmatter, the syntax the build compiles), so a fence inside a JSX
// element, a list item or a block quote, an indented fence, a tilde fence and a longer backtick run holding ``` lines
// are each read once and whole, and a line of code is never taken for a fence.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkFrontmatter from 'remark-frontmatter';
import { parseMeta } from '../../src/plugins/remark-app-code.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const parser = unified().use(remarkParse).use(remarkFrontmatter).use(remarkMdx);

/**
 * The attributes of a fence's meta: `key="value"`, `key='value'` and `key=value` pairs (parseMeta's reading) and
 * bare flags (`npm2yarn`, `showLineNumbers`) as `true`. A `{1,3}` line range is neither.
 */
export function parseAttrs(meta = '') {
  const pairs = /([\w-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))/g;
  const flags = {};
  for (const word of (meta ?? '').replace(pairs, ' ').split(/\s+/)) if (/^[\w-]+$/.test(word)) flags[word] = true;
  return { ...flags, ...parseMeta(meta) };
}

/** A file as messages name it: relative to the repository when inside it. */
const nameOf = (file) => {
  const rel = relative(ROOT, resolve(file));
  return rel.startsWith('..') ? resolve(file) : rel.split(sep).join('/');
};

const OPENING = /^(`{3,}|~{3,})[ \t]*(.*?)[ \t]*$/;

/**
 * Every fenced code block of an MDX or Markdown source, in page order: { lang, meta, attrs, code, line, endLine,
 * file }. `lang` is the info string's first word ('' without one), `meta` the rest of the info string as written,
 * `attrs` the meta's pairs and flags (parseAttrs), `code` the body as the page shows it (the opening fence's
 * indentation taken off each line, as CommonMark does), `line` the 1-based line of the opening fence in `source`
 * (front matter included) and `endLine` that of the closing fence (the last line of the fence's container when it
 * never closes). Indented code (not MDX syntax) is not a fence. A source that does not parse as MDX throws, naming
 * `file` and the line.
 */
export function readFences(source, { file } = {}) {
  return fencesOfTree(parse(source, file), source, { file });
}

/** The MDX tree of `source`; a source that does not parse throws, naming `file` and the line. */
function parse(source, file) {
  try {
    return parser.parse(source);
  } catch (error) {
    // A few messages (an unclosed JSX tag) carry their place only in their text: "... (3:1-3:6)".
    const place = /\((\d+):(\d+)(?:-\d+:\d+)?\)$/.exec(error.reason ?? '');
    const where = [file ? nameOf(file) : '<source>', error.line ?? place?.[1], error.column ?? place?.[2]];
    throw new Error(`${where.filter((p) => p != null).join(':')}: not valid MDX: ${error.reason ?? error.message}`, {
      cause: error,
    });
  }
}

/**
 * The fences of a tree a remark parser made of `source` (a remark plugin's tree, say), read as readFences reads
 * them; the lines are the tree's.
 */
export function fencesOfTree(tree, source, { file } = {}) {
  const found = [];
  const walk = (node) => {
    if (node.type === 'code' && node.position) {
      const start = node.position.start.offset;
      const end = source.indexOf('\n', start);
      const opening = OPENING.exec(source.slice(start, end < 0 ? source.length : end).replace(/\r$/, ''));
      if (opening) {
        const info = opening[2];
        const lang = /^\S*/.exec(info)[0];
        const meta = info.slice(lang.length).trim();
        found.push(
          Object.freeze({
            lang,
            meta,
            attrs: Object.freeze(parseAttrs(meta)),
            code: node.value,
            line: node.position.start.line,
            endLine: node.position.end.line,
            file,
          }),
        );
      }
    }
    node.children?.forEach(walk);
  };
  walk(tree);
  return Object.freeze(found);
}

/** Whether a line is inside the body (or on the closing line) of one of `fences`: code, not prose or a heading. */
export const inFenceBody = (fences, line) => fences.some((f) => line > f.line && line <= f.endLine);

const cache = new Map();

/** A file's source, tree and fences, read and parsed once per process. */
function readFile(file) {
  const path = resolve(file);
  if (!cache.has(path)) {
    const source = readFileSync(path, 'utf8');
    const tree = parse(source, path);
    cache.set(path, { tree, fences: fencesOfTree(tree, source, { file: path }) });
  }
  return cache.get(path);
}

/** readFences of a file, read and parsed once per process (the result is frozen: copy before changing). */
export const fencesOfFile = (file) => readFile(file).fences;

/** The inline code spans of a file's prose, in page order: { code, line }, from the same parse as its fences. */
export function inlineCodeOfFile(file) {
  const found = [];
  const walk = (node) => {
    if (node.type === 'inlineCode') found.push({ code: node.value, line: node.position.start.line });
    node.children?.forEach(walk);
  };
  walk(readFile(file).tree);
  return found;
}
