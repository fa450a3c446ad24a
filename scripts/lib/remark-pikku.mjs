// The lint rules only this site needs, as one remark plugin (used by .remarkrc.mjs):
// - pikku:declared-tags   a page's tags are declared (docs/tags.yml for docs, blog/tags.yml for posts);
// - pikku:section-links   a file link stays inside its content plugin (docs, why, blog): Docusaurus resolves file
//                         links only there, so a link across must use the route;
// - pikku:length          a docs or why page has at least 250 words of prose (a CLI error page 120; indexes exempt);
// - pikku:post            a post's slug repeats its file's date, and it has a truncate marker;
// - pikku:placeholder     no TBD, FIXME, "lorem ipsum" or "coming soon" (textlint's no-todo rule covers TODO; the
//                         running example is a to-do app, so a lower-case `todo` is a real word here).
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import {
  ERROR_PAGE,
  MIN_WORDS,
  MIN_WORDS_ERROR_PAGE,
  ROOT,
  loadTagSet,
  routeOfFile,
  splitFrontMatter,
  wordCount,
} from './content.mjs';
import { fencesOfTree, inFenceBody, readFences } from './fences.mjs';

const tagSets = new Map();
const declaredTags = (section) => {
  const file = join(ROOT, section === 'blog' ? 'blog' : 'docs', 'tags.yml');
  if (!tagSets.has(file)) tagSets.set(file, loadTagSet(file));
  return tagSets.get(file);
};

/**
 * Checks one file's source; returns [{ line, rule, message }]. Used by the plugin and by the tests. `fences` are the
 * source's fences (scripts/lib/fences.mjs: the plugin reads them from its tree, a test from the source).
 */
export function checkSource(path, source, fences = readFences(source, { file: path })) {
  const rel = relative(ROOT, path).split(sep).join('/');
  const section = rel.split('/')[0];
  const found = [];
  const say = (line, rule, message) => found.push({ line, rule, message });
  const { data, body, bodyLine } = splitFrontMatter(source);
  if (section === 'why' && data.tags) say(1, 'pikku:declared-tags', 'why pages take no tags');
  const declared = declaredTags(section);
  for (const tag of data.tags ?? [])
    if (!declared.has(tag))
      say(1, 'pikku:declared-tags', `tag "${tag}" is not declared in ${section === 'blog' ? 'blog' : 'docs'}/tags.yml`);
  if (section === 'blog') {
    const date = /^(\d{4})-(\d\d)-(\d\d)-(.+)\.mdx?$/.exec(basename(path));
    if (date && data.slug !== `${date[1]}/${date[2]}/${date[3]}/${date[4]}`)
      say(1, 'pikku:post', `slug must be ${date[1]}/${date[2]}/${date[3]}/${date[4]}, the file's date and name`);
    if (!/\{\/\*\s*truncate\s*\*\/\}/.test(body))
      say(1, 'pikku:post', 'a post needs a {/* truncate */} marker after its opening');
  } else if (!/(^|\/)index\.mdx?$/.test(rel) && (section === 'docs' || section === 'why')) {
    const least = ERROR_PAGE.test(rel) ? MIN_WORDS_ERROR_PAGE : MIN_WORDS;
    const inBody = fences.map((f) => ({ line: f.line - bodyLine + 1, endLine: f.endLine - bodyLine + 1 }));
    const words = wordCount(body, inBody);
    if (words < least) say(1, 'pikku:length', `only ${words} words of body text (at least ${least})`);
  }
  body.split('\n').forEach((text, i) => {
    const line = bodyLine + i;
    // A fence's body is code: only its opening line is checked.
    if (inFenceBody(fences, line)) return;
    if (/\b(TBD|FIXME)\b|\blorem ipsum\b|\bcoming soon\b/i.test(text) && !/\b(tbd|fixme)\b/.test(text))
      say(line, 'pikku:placeholder', `placeholder text: ${text.trim().slice(0, 60)}`);
    for (const m of text.matchAll(/\]\(([^)\s#]+\.mdx?)(#[^)\s]*)?\)/g)) {
      if (/^(https?:|\/)/.test(m[1])) continue;
      const target = resolve(dirname(path), m[1]);
      const targetSection = relative(ROOT, target).split(sep)[0];
      if (targetSection !== section)
        say(
          line,
          'pikku:section-links',
          `link to a file in ${targetSection}/ from ${section}/: use its route (${routeOfFile(target) ?? m[1]})`,
        );
    }
  });
  return found;
}

export default function remarkPikku() {
  return (tree, file) => {
    if (!file.path) return;
    const source = String(file.value ?? readFileSync(file.path, 'utf8'));
    const path = resolve(file.cwd ?? ROOT, file.path);
    for (const { line, rule, message } of checkSource(path, source, fencesOfTree(tree, source, { file: path }))) {
      const m = file.message(message, {
        place: { line, column: 1 },
        ruleId: rule.slice('pikku:'.length),
        source: 'pikku',
      });
      m.fatal = true;
    }
  };
}
