// The routes the tests visit: the spec route map and the content (see pageRoutes), plus every dated
// blog post found in the build (the route map describes posts by pattern, not by name).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contentDiagrams, listContentFiles, loadTagSet, readRoutes, routeOfFile } from '../../scripts/lib/content.mjs';
import { REPO } from './fixture-site.mjs';
import { loadModule } from './load.mjs';
import { resolveFile } from './static-server.mjs';

export const BUILD = join(REPO, 'build');

/** The HTML file a route is served from, or null (resolved as the test server resolves it). */
export function htmlFileFor(route, build = BUILD) {
  const file = resolveFile(build, route);
  return file?.endsWith('.html') ? file : null;
}

export function blogPostRoutes(build = BUILD) {
  const out = [];
  const root = join(build, 'blog');
  for (const y of existsSync(root) ? readdirSync(root).filter((d) => /^20\d\d$/.test(d)) : [])
    for (const m of readdirSync(join(root, y)))
      for (const d of readdirSync(join(root, y, m)))
        for (const slug of readdirSync(join(root, y, m, d)))
          if (statSync(join(root, y, m, d, slug)).isDirectory()) out.push(`/blog/${y}/${m}/${d}/${slug}`);
  return out.sort();
}

/** Every public route of the build, from its sitemap (redirect aliases are not in it). */
export function sitemapRoutes(build = BUILD) {
  const xml = readFileSync(join(build, 'sitemap.xml'), 'utf8');
  const routes = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname.replace(/(.)\/$/, '$1'));
  return [...new Set(routes)];
}

/**
 * The routes the build must have: the spec's route map (its fixed routes, listed by hand in tests/data/spec-routes.txt)
 * and what the content and data make: a page per docs and why file, a page per declared docs and blog tag, and an
 * alias per redirect of src/data/redirects.ts. Blog posts come from the build (blogPostRoutes) and the blog files.
 */
const spec = readRoutes();
const tagRoutes = (file, base) => [...loadTagSet(join(REPO, file))].map((t) => `${base}/${t}`);
const contentRoutes = [
  ...listContentFiles().map(routeOfFile).filter(Boolean),
  ...tagRoutes('docs/tags.yml', '/docs/tags'),
  ...tagRoutes('blog/tags.yml', '/blog/tags'),
];
/** Canonical HTML pages (feeds excluded; /docs/ folded into /docs). */
export const pageRoutes = [
  ...new Set(
    [...spec.canonical, ...contentRoutes]
      .filter((r) => !/\.(xml|txt|json)$/.test(r))
      .map((r) => (r === '/docs/' ? '/docs' : r)),
  ),
];
export const feedRoutes = spec.canonical.filter((r) => /\.xml$/.test(r));
/** The spec's aliases and every redirect the site's data declares (the skills' pikku- names included). */
export const aliasRoutes = [
  ...new Map(
    [...spec.aliases, ...loadModule('src/data/redirects.ts').redirects].map((a) => [`${a.from} -> ${a.to}`, a]),
  ).values(),
];

/** Section indexes and listings, which orient rather than explain: exempt from the word minimum. */
/** Routes of section indexes: the index.mdx of a folder that has pages of its own besides it. */
const sectionIndexRoutes = new Set(
  listContentFiles()
    .filter(
      (f) =>
        /(^|\/)index\.mdx?$/.test(f) &&
        readdirSync(dirname(f)).some((n) => /\.mdx?$/.test(n) && !n.startsWith('index.')),
    )
    .map(routeOfFile),
);
export const isIndexRoute = (route) =>
  sectionIndexRoutes.has(route) ||
  route.startsWith('/docs/tags') ||
  route === '/docs/navigation' ||
  !/^\/(docs|why)\//.test(route);

export const readHtml = (route) => readFileSync(htmlFileFor(route), 'utf8');

/** Route -> how many ```mermaid diagrams its source has (every page with a diagram). */
export async function diagramCounts() {
  const counts = new Map();
  for (const { route } of await contentDiagrams()) counts.set(route, (counts.get(route) ?? 0) + 1);
  return counts;
}

/** The document title a route's HTML gives it, as the browser reads it (entities decoded). */
export const titleInHtml = (route) =>
  (/<title[^>]*>([^<]*)<\/title>/.exec(readHtml(route))?.[1] ?? '')
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The scripts a built page loads before interaction, in order: `<script src>` tags, and the list the app loader of
 * src/ssrTemplate.ts requests once the page has painted.
 */
export function firstLoadScripts(html) {
  const tags = [...html.matchAll(/<script[^>]*\ssrc="?([^"\s>]+)/g)].map((m) => m[1]);
  const loader = /<script data-app-loader>[^<]*?(\[[^\]]*\])\)<\/script>/.exec(html);
  return [...tags, ...(loader ? JSON.parse(loader[1]) : [])];
}
