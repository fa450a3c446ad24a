// llms-txt: what an AI assistant reads instead of the HTML. After the build it writes
// - a Markdown copy of every docs, skills and why page at its URL plus `.md` (/docs/http/router.md; an index
//   page at /docs.md), made from the page's MDX source;
// - /llms.txt (the llmstxt.org format): the site, then every such page with its title, .md URL and description,
//   grouped by section and in sidebar order;
// - /llms-full.txt: every page's Markdown, one after the other.
//
// The MDX becomes plain Markdown: code fences are filled and cut by remark-app-code (so they match the HTML page
// exactly) and keep only their title; npm2yarn fences keep their npm commands (the first tab); admonitions become
// blockquotes; mermaid fences stay fenced; <DocCardList />, <CardGrid>/<Card> and <Tabs> become lists or their first
// tab; imports and comments go; links point at the absolute URL of the target's .md copy (or page). Any other JSX,
// an expression or an unknown container directive throws an error that names the file and line, so raw JSX never
// reaches a copy.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkFrontmatter from 'remark-frontmatter';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import remarkAppCode, { APP_DIR, parseMeta } from './remark-app-code.mjs';
import { mdPathOf } from '../data/md-path.mjs';

export { mdPathOf };

/** The Admonition types of Docusaurus's theme, with the word a reader sees. */
const ADMONITIONS = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  important: 'Important',
  success: 'Success',
  secondary: 'Note',
  warning: 'Warning',
  caution: 'Caution',
  danger: 'Danger',
};

const text = (value) => ({ type: 'text', value });
const link = (url, children) => ({ type: 'link', url, children });
const paragraph = (children) => ({ type: 'paragraph', children });
const strong = (value) => ({ type: 'strong', children: [text(value)] });

/** A list of `[title](href): description` items, as a DocCardList or a CardGrid reads. */
function cardList(cards) {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: cards.map(({ title, href, description }) => ({
      type: 'listItem',
      spread: false,
      children: [paragraph([link(href, [text(title)]), ...(description ? [text(`: ${description}`)] : [])])],
    })),
  };
}

const attr = (node, name) => node.attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name === name)?.value;
const textOf = (node) =>
  node.type === 'text' || node.type === 'inlineCode' ? node.value : (node.children ?? []).map(textOf).join('');

/**
 * Converts one page's MDX to Markdown. Options:
 * - file: the source path (error messages name it; relative file links resolve from it);
 * - title, description: the page's, from its metadata; the title becomes the h1 unless the MDX has one;
 * - resolveLink(url): the URL a link or image points at in the copy (default: unchanged);
 * - docCards(): the cards a <DocCardList /> shows on this page, [{ title, href, description }];
 * - appDir: the to-do app remark-app-code reads from.
 */
export function mdxToMarkdown(
  source,
  { file = 'MDX', title, description, resolveLink = (u) => u, docCards, appDir = APP_DIR } = {},
) {
  const fail = (node, message) => {
    const where = node?.position?.start ? `${file}:${node.position.start.line}` : file;
    throw new Error(`${where}: ${message} (the Markdown copy for llms.txt cannot show it)`);
  };
  const parser = unified().use(remarkParse).use(remarkMdx).use(remarkFrontmatter).use(remarkDirective).use(remarkGfm);
  let tree;
  try {
    tree = parser.runSync(parser.parse(source));
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
  remarkAppCode({ appDir })(tree, { path: file });

  const original = (node) => source.slice(node.position.start.offset, node.position.end.offset);

  /** The nodes that replace `node` (an array), or null to keep it and visit its children. */
  const replace = (node) => {
    switch (node.type) {
      case 'yaml':
      case 'toml':
      case 'mdxjsEsm':
        return [];
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        if (/^\s*\/\*[\s\S]*\*\/\s*$/.test(node.value)) return [];
        return fail(node, `the expression {${node.value.trim()}} is not a comment`);
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        return jsx(node);
      case 'containerDirective': {
        const kind = ADMONITIONS[node.name];
        if (!kind) return fail(node, `:::${node.name} is not an admonition`);
        const [first, ...rest] = node.children;
        const labelled = first?.data?.directiveLabel;
        const heading = labelled ? `${kind}: ${textOf(first)}` : kind;
        const body = (labelled ? rest : node.children).flatMap(visit);
        return [{ type: 'blockquote', children: [paragraph([strong(heading)]), ...body] }];
      }
      case 'leafDirective':
      case 'textDirective':
        // Not a directive to Docusaurus either (a colon in prose): the text as written.
        return [node.type === 'textDirective' ? text(original(node)) : paragraph([text(original(node))])];
      case 'code': {
        const meta = parseMeta(node.meta);
        node.meta = meta.title ? `title="${meta.title}"` : null;
        return null;
      }
      case 'link':
      case 'image':
      case 'definition':
        node.url = resolveLink(node.url, node);
        return null;
      default:
        return null;
    }
  };

  const jsx = (node) => {
    switch (node.name) {
      case 'DocCardList':
        if (!docCards) return fail(node, '<DocCardList /> outside a sidebar category');
        return [cardList(docCards())];
      case 'CardGrid':
        return [
          cardList(
            node.children
              .filter((c) => c.type === 'mdxJsxFlowElement' && c.name === 'Card')
              .map((card) => ({
                title: attr(card, 'title'),
                href: resolveLink(attr(card, 'href'), card),
                description: textOf(card).replace(/\s+/g, ' ').trim(),
              })),
          ),
        ];
      case 'Card':
        return [
          cardList([
            {
              title: attr(node, 'title'),
              href: resolveLink(attr(node, 'href'), node),
              description: textOf(node).trim(),
            },
          ]),
        ];
      case 'Tabs': {
        // The first tab (or the default one) stands for all: on this site that is the npm variant.
        const tabs = node.children.filter((c) => c.type === 'mdxJsxFlowElement' && c.name === 'TabItem');
        const chosen = tabs.find((t) => t.attributes?.some((a) => a.name === 'default')) ?? tabs[0];
        return chosen ? chosen.children.flatMap(visit) : [];
      }
      default:
        return fail(node, `<${node.name ?? '>'}> has no Markdown form`);
    }
  };

  /** The nodes `node` becomes: replaced (replacements are final), or kept with its children visited. */
  function visit(node) {
    const replaced = replace(node);
    if (replaced !== null) return replaced;
    if (node.children) node.children = node.children.flatMap(visit);
    return [node];
  }
  tree.children = tree.children.flatMap(visit);

  const hasH1 = tree.children.some((n) => n.type === 'heading' && n.depth === 1);
  const head = [];
  if (title && !hasH1) head.push({ type: 'heading', depth: 1, children: [text(title)] });
  if (description) head.push({ type: 'blockquote', children: [paragraph([text(description)])] });
  tree.children = [...head, ...tree.children];

  return unified()
    .use(remarkGfm)
    .use(remarkStringify, { bullet: '-', fence: '`', fences: true, rule: '-', emphasis: '_', listItemIndent: 'one' })
    .stringify(tree);
}

/** The docs of a loaded docs plugin, in sidebar order, each with the top-level sidebar category it sits in. */
export function orderedDocs(content) {
  const out = [];
  for (const version of content?.loadedVersions ?? []) {
    const byId = new Map(version.docs.map((d) => [d.id, d]));
    const seen = new Set();
    const add = (id, group) => {
      const doc = byId.get(id);
      if (!doc || seen.has(id)) return;
      seen.add(id);
      out.push({ doc, group, version });
    };
    const walk = (items, group) => {
      for (const item of items) {
        if (item.type === 'doc' || item.type === 'ref') add(item.id, group);
        else if (item.type === 'category') {
          const inner = group ?? item.label;
          if (item.link?.type === 'doc') add(item.link.id, inner);
          walk(item.items ?? [], inner);
        }
      }
    };
    for (const sidebar of Object.values(version.sidebars ?? {})) walk(sidebar, null);
    for (const doc of version.docs) add(doc.id, null);
  }
  return out.filter(({ doc }) => !doc.unlisted && !doc.draft);
}

/** The cards a <DocCardList /> on `doc` shows: the items of the sidebar category whose page it is. */
export function docCardsOf(doc, version, pageUrl) {
  const byId = new Map(version.docs.map((d) => [d.id, d]));
  const find = (items) => {
    for (const item of items) {
      if (item.type !== 'category') continue;
      if (item.link?.type === 'doc' && item.link.id === doc.id) return item;
      const inner = find(item.items ?? []);
      if (inner) return inner;
    }
    return null;
  };
  const category = Object.values(version.sidebars ?? {})
    .map((s) => find(s))
    .find(Boolean);
  if (!category) return [];
  const firstDoc = (item) =>
    item.type === 'doc' || item.type === 'ref'
      ? byId.get(item.id)
      : item.type === 'category'
        ? ((item.link?.type === 'doc' ? byId.get(item.link.id) : null) ??
          (item.items ?? []).map(firstDoc).find(Boolean))
        : null;
  return category.items
    .map((item) => {
      if (item.type === 'link') return { title: item.label, href: pageUrl(item.href) };
      const target = firstDoc(item);
      if (!target) return null;
      return {
        title: item.label ?? target.title,
        href: pageUrl(target.permalink),
        description: item.type === 'category' && item.link?.type !== 'doc' ? undefined : target.description,
      };
    })
    .filter(Boolean);
}

/** The text of /llms.txt. */
export function llmsTxt({ name, summary, details, groups, optional = [] }) {
  const line = ({ title, url, description }) => `- [${title}](${url})${description ? `: ${description}` : ''}`;
  const parts = [`# ${name}`, `> ${summary}`];
  if (details) parts.push(details);
  for (const { heading, pages } of groups)
    if (pages.length) parts.push(`## ${heading}\n\n${pages.map(line).join('\n')}`);
  if (optional.length) parts.push(`## Optional\n\n${optional.map(line).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** Where the plugin reads what llms.txt says about the site (relative to the site's directory). */
export const SETTINGS_FILE = 'src/data/llms-txt.json';

/**
 * Reads and checks the settings: sections, in the order llms.txt lists them ([{ title, prefix }]; a page belongs to
 * the section with the longest matching route prefix, pages of no section are left out); summary and details (the
 * llms.txt header); optional ([{ title, url, description }], its "Optional" list). Bad settings throw, naming the file.
 */
export function readSettings(file) {
  let settings;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
  const { sections, summary, optional = [] } = settings;
  const bad = !Array.isArray(sections)
    ? 'sections must be a list'
    : sections.find((s) => typeof s?.title !== 'string' || !/^\//.test(s?.prefix ?? ''))
      ? 'every section needs a title and a prefix starting with /'
      : typeof summary !== 'string'
        ? 'summary must be a string'
        : !Array.isArray(optional) || optional.some((o) => typeof o?.title !== 'string' || typeof o?.url !== 'string')
          ? 'optional must be a list of { title, url }'
          : null;
  if (bad) throw new Error(`${file}: ${bad}`);
  return settings;
}

const trimRoute = (route) => (route.length > 1 ? route.replace(/\/+$/, '') : route);
const isExternal = (url) => !url || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url) || url.startsWith('#');

/**
 * The absolute URL a copy links to for a site path: the target's .md copy when it has one, else the page. `links`:
 * { siteUrl, mdRoutes (the routes that have a copy) }.
 */
export function pageUrlOf({ siteUrl, mdRoutes }) {
  const routes = new Set(mdRoutes);
  return (href) => {
    if (isExternal(href)) return href;
    const [path, hash = ''] = href.split('#');
    const route = trimRoute(path);
    return `${siteUrl}${routes.has(route) ? mdPathOf(route) : route}${hash ? `#${hash}` : ''}`;
  };
}

/**
 * The Markdown copy of each page, in order. pages: [{ file, title, description, permalink, docCards }]; links:
 * { siteUrl, mdRoutes, sources ([[source file, permalink]] of every page with a copy) }.
 */
export function markdownCopies({ pages, links }) {
  const pageUrl = pageUrlOf(links);
  const bySource = new Map(links.sources);
  return pages.map(({ file, title, description, permalink, docCards }) => {
    const resolveLink = (url) => {
      if (isExternal(url)) return url;
      const [path, hash] = url.split('#');
      if (/\.mdx?$/.test(path)) {
        const target = bySource.get(resolve(dirname(file), path));
        if (!target) throw new Error(`${file}: the link ${url} is not a page with a Markdown copy`);
        return pageUrl(`${target}${hash ? `#${hash}` : ''}`);
      }
      return pageUrl(new URL(url, `${links.siteUrl}${permalink}`).href.slice(links.siteUrl.length));
    };
    return mdxToMarkdown(readFileSync(file, 'utf8'), {
      file,
      title,
      description,
      resolveLink,
      docCards: () => docCards,
    });
  });
}

/** The plugin: its settings are in SETTINGS_FILE (see readSettings), not in its options, which reach the browser. */
export default function llmsTxtPlugin(context) {
  const { sections, summary, details, optional = [] } = readSettings(join(context.siteDir, SETTINGS_FILE));
  return {
    name: 'llms-txt',
    async postBuild({ outDir, plugins, siteConfig }) {
      const siteUrl = siteConfig.url.replace(/\/$/, '');
      const sectionOf = (permalink) =>
        sections
          .filter((s) => permalink === s.prefix || permalink.startsWith(`${s.prefix.replace(/\/$/, '')}/`))
          .sort((a, b) => b.prefix.length - a.prefix.length)[0];

      const entries = plugins
        .filter((p) => p.name === 'docusaurus-plugin-content-docs')
        .flatMap((p) => orderedDocs(p.content))
        .map((e) => ({ ...e, section: sectionOf(e.doc.permalink) }))
        .filter((e) => e.section);

      const links = {
        siteUrl,
        mdRoutes: entries.map((e) => trimRoute(e.doc.permalink)),
        sources: entries.map((e) => [resolve(context.siteDir, e.doc.source.replace(/^@site\//, '')), e.doc.permalink]),
      };
      const pageUrl = pageUrlOf(links);
      const pages = entries.map(({ doc, version }) => ({
        file: resolve(context.siteDir, doc.source.replace(/^@site\//, '')),
        title: doc.title,
        description: doc.description,
        permalink: doc.permalink,
        docCards: docCardsOf(doc, version, pageUrl),
      }));
      const copies = markdownCopies({ pages, links });
      entries.forEach((entry, i) => {
        entry.markdown = copies[i];
        const out = join(outDir, mdPathOf(entry.doc.permalink));
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, entry.markdown);
      });

      const groups = [];
      for (const section of sections) {
        const inSection = entries.filter((e) => e.section === section);
        for (const e of inSection) {
          const heading = e.group && e.group !== section.title ? `${section.title}: ${e.group}` : section.title;
          let group = groups.find((g) => g.heading === heading);
          if (!group) groups.push((group = { heading, pages: [] }));
          group.pages.push({
            title: e.doc.title,
            url: `${siteUrl}${mdPathOf(e.doc.permalink)}`,
            description: e.doc.description,
          });
        }
      }
      writeFileSync(
        join(outDir, 'llms.txt'),
        llmsTxt({
          name: siteConfig.title,
          summary,
          details,
          groups,
          optional: [{ title: 'Every page in one file', url: `${siteUrl}/llms-full.txt` }, ...optional],
        }),
      );
      const full = sections.flatMap((section) =>
        entries
          .filter((e) => e.section === section)
          .map((e) => `<!-- ${siteUrl}${trimRoute(e.doc.permalink)} -->\n\n${e.markdown}`),
      );
      writeFileSync(join(outDir, 'llms-full.txt'), `${full.join('\n---\n\n')}`);
    },
  };
}
