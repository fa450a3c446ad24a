import type { Config } from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type { Options as DocsOptions } from '@docusaurus/plugin-content-docs';
import type { Options as RedirectOptions } from '@docusaurus/plugin-client-redirects';
import npm2yarn from '@docusaurus/remark-plugin-npm2yarn';
import remarkAppCode from './src/plugins/remark-app-code.mjs';
import remarkDiagrams, { DIAGRAM_THEMES } from './src/plugins/remark-diagrams.mjs';
import appSnippets from './src/plugins/app-snippets';
import llmsTxt from './src/plugins/llms-txt.mjs';
import prismWithCodeBlocks from './src/plugins/prism-with-code-blocks';
import { ssrTemplate } from './src/ssrTemplate';
import analytics, { type AnalyticsOptions } from './src/plugins/analytics';
import {
  inertAnalyticsId,
  announcementId,
  latestRelease,
  latestReleaseHref,
  site,
  siteRepository,
} from './src/data/site';
import { redirects } from './src/data/redirects';
import { searchShortcut } from './src/data/search';
import { darkCodeTheme, lightCodeTheme } from './src/data/codeThemes';
import { routeOfSource, socialImagePath, socialSectionOf } from './src/data/social';

/**
 * TypeScript fences show the to-do app's files (`file=`, `region=`) and hide compiled-only preludes
 * (`// ---cut---`); see src/plugins/remark-app-code.mjs. Install commands in ```bash npm2yarn fences get npm,
 * Yarn, pnpm and Bun tabs, synced site-wide.
 */
const remarkPlugins = [remarkAppCode, [npm2yarn, { sync: true, converters: ['yarn', 'pnpm', 'bun'] }]];

/**
 * ```mermaid fences are drawn at build time as inline SVG, one drawing per colour mode (src/plugins/remark-diagrams.mjs),
 * with the Mermaid theme of each mode (shared with the drawings' cache keys, and so with npm run diagrams). The site
 * has no Mermaid in the browser: no @docusaurus/theme-mermaid and no `markdown.mermaid` (a `<Mermaid>` element written
 * in MDX fails the build, naming its file and line).
 */
const beforeDefaultRemarkPlugins = [[remarkDiagrams, { themes: DIAGRAM_THEMES }]];

/** The public build sets PIKKU_GA_MEASUREMENT_ID; local and CI builds report to an inert id. */
const analyticsId = process.env.PIKKU_GA_MEASUREMENT_ID ?? inertAnalyticsId;

/**
 * "Edit this page" links open the page's source file in the site's repository (a link; nothing is fetched). A
 * function, not a string: the options of the config travel in every page's JavaScript, functions do not.
 */
const editUrl = ({ versionDocsDirPath, docPath }: { versionDocsDirPath: string; docPath: string }) =>
  `${siteRepository}/edit/main/${versionDocsDirPath}/${docPath}`;
const blogEditUrl = ({ blogDirPath, blogPath }: { blogDirPath: string; blogPath: string }) =>
  `${siteRepository}/edit/main/${blogDirPath}/${blogPath}`;

/** Options shared by the two docs instances (docs and why). */
const commonDocsOptions = {
  beforeDefaultRemarkPlugins,
  remarkPlugins,
  showLastUpdateTime: false,
  editUrl,
} satisfies DocsOptions;

const config = {
  title: site.name,
  tagline: site.tagline,
  favicon: 'img/favicon.svg',
  url: site.url,
  baseUrl: site.baseUrl,
  organizationName: 'pikkujs',
  projectName: 'website',
  trailingSlash: undefined,

  future: { v4: true, faster: true },

  // Docusaurus's page template, but the app's scripts are asked for once the page has painted (see the module).
  ssrTemplate,

  onBrokenLinks: 'throw',
  onBrokenAnchors: 'warn',
  onDuplicateRoutes: 'warn',

  i18n: { defaultLocale: 'en', locales: ['en'] },

  markdown: {
    format: 'mdx',
    // future.v4 turns MDX 1 compatibility off; the spec keeps comments, admonitions and heading ids.
    mdx1Compat: { comments: true, admonitions: true, headingIds: true },
    hooks: { onBrokenMarkdownLinks: 'throw', onBrokenMarkdownImages: 'throw' },
    // Each Markdown page shares its section's social image (src/data/social.ts) unless it names its own.
    parseFrontMatter: async (params) => {
      const result = await params.defaultParseFrontMatter(params);
      result.frontMatter.image ??= socialImagePath(socialSectionOf(routeOfSource(params.filePath)));
      return result;
    },
  },

  // The route-change progress bar without its invalid `role="bar"` (see the module).
  // Link prefetches run in idle time, not all at once after hydration (see the module).
  clientModules: ['./src/clientModules/progressBar.ts', './src/clientModules/idlePrefetch.ts'],

  themes: [
    [
      // Full-text search built into the static site at build time: no external service.
      '@easyops-cn/docusaurus-search-local',
      {
        hashed: true,
        language: ['en'],
        indexDocs: true,
        docsDir: ['docs', 'why'],
        docsRouteBasePath: ['docs', 'why'],
        indexBlog: true,
        blogDir: 'blog',
        blogRouteBasePath: 'blog',
        indexPages: false,
        explicitSearchResultPath: true,
        searchBarShortcutHint: true,
        // Also answered by the navbar's stand-in until the bar's code loads (src/theme/SearchBar).
        searchBarShortcutKeymap: searchShortcut,
      },
    ],
  ],

  presets: [
    [
      'classic',
      {
        docs: {
          ...commonDocsOptions,
          path: 'docs',
          routeBasePath: 'docs',
          sidebarPath: './sidebars.ts',
          tags: 'tags.yml',
          onInlineTags: 'throw',
          lastVersion: 'current',
          versions: { current: { label: 'Next' } },
        },
        blog: {
          beforeDefaultRemarkPlugins,
          remarkPlugins,
          path: 'blog',
          routeBasePath: 'blog',
          editUrl: blogEditUrl,
          blogTitle: 'Pikku blog',
          blogDescription: 'Releases, design notes and the history of the Pikku framework.',
          postsPerPage: 10,
          blogSidebarCount: 'ALL',
          blogSidebarTitle: 'All posts',
          showReadingTime: true,
          authorsMapPath: 'authors.yml',
          tags: 'tags.yml',
          onInlineTags: 'warn',
          onInlineAuthors: 'warn',
          onUntruncatedBlogPosts: 'warn',
          feedOptions: {
            type: ['rss', 'atom'],
            title: 'Pikku blog',
            description: 'Releases, design notes and the history of the Pikku framework.',
            copyright: `Copyright © ${site.firstYear}-${new Date().getFullYear()} ${site.copyrightHolders}`,
            limit: false,
          },
        },
        pages: { beforeDefaultRemarkPlugins, remarkPlugins },
        theme: { customCss: './src/css/custom.css' },
        sitemap: {
          changefreq: 'weekly',
          priority: 0.5,
          // The search page asks not to be indexed (with a meta tag the sitemap plugin does not read): left out. A
          // function rather than ignorePatterns: the config's options travel in every page's JavaScript.
          createSitemapItems: async ({ defaultCreateSitemapItems, ...params }) =>
            (await defaultCreateSitemapItems(params)).filter((item) => new URL(item.url).pathname !== '/search'),
        },
      } satisfies Preset.Options,
    ],
  ],

  plugins: [
    appSnippets,
    // Prism loads with the pages that draw code blocks, not with every page (src/plugins/prism-with-code-blocks.ts).
    prismWithCodeBlocks,
    [
      '@docusaurus/plugin-content-docs',
      {
        ...commonDocsOptions,
        id: 'why',
        path: 'why',
        routeBasePath: 'why',
        sidebarPath: false,
      } satisfies DocsOptions,
    ],
    // Page views with IP anonymisation; gtag's script loads once the page is interactive (src/plugins/analytics.ts).
    [analytics, { trackingID: analyticsId, anonymizeIP: true } satisfies AnalyticsOptions],
    ['@docusaurus/plugin-client-redirects', { redirects } satisfies RedirectOptions],
    // /llms.txt, /llms-full.txt and a Markdown copy of every docs, skills and why page at its URL plus .md, written
    // after the build (src/plugins/llms-txt.mjs; its texts are in src/data/llms-txt.json).
    llmsTxt,
  ],

  themeConfig: {
    // The home section's image: the fallback of pages without front matter. Markdown pages get their section's.
    image: 'img/social/home.png',
    metadata: [
      { name: 'keywords', content: 'typescript, backend, framework, serverless, websocket, mcp, rpc, queue' },
      { name: 'twitter:site', content: '@pikkujs' },
    ],
    colorMode: { defaultMode: 'light', disableSwitch: false, respectPrefersColorScheme: true },
    announcementBar: {
      id: announcementId,
      // Rendered by src/theme/AnnouncementBar/Content, which links to latestReleaseHref.
      content: latestRelease.headline,
      isCloseable: true,
    },
    docs: { sidebar: { hideable: false, autoCollapseCategories: false } },
    blog: { sidebar: { groupByYear: true } },
    tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 3 },
    prism: {
      theme: lightCodeTheme,
      darkTheme: darkCodeTheme,
      additionalLanguages: ['bash', 'toml', 'diff', 'ini'],
    },
    navbar: {
      title: site.name,
      logo: { alt: 'Pikku logo', src: 'img/logo.svg', width: 32, height: 32 },
      items: [
        { to: '/why', label: 'Why?', position: 'left', activeBaseRegex: '^/why' },
        { type: 'docSidebar', sidebarId: 'docs', label: 'Docs', position: 'left' },
        { to: '/blog', label: 'Blog', position: 'left' },
        { type: 'custom-iconLink', icon: 'github', href: site.repository, label: 'Pikku on GitHub', position: 'right' },
        { type: 'custom-iconLink', icon: 'x', href: site.social, label: 'Pikku on X', position: 'right' },
        {
          type: 'custom-iconLink',
          icon: 'discord',
          href: site.chat,
          label: 'Pikku Discord community',
          position: 'right',
        },
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Learn',
          items: [
            { label: 'Introduction', to: '/docs' },
            { label: 'Manual setup', to: '/manual-setup' },
            { label: 'Core features', to: '/docs/core-features' },
            { label: 'Finding your way', to: '/docs/navigation' },
          ],
        },
        {
          title: 'Build',
          items: [
            { label: 'HTTP', to: '/docs/http' },
            { label: 'Channels', to: '/docs/channels' },
            { label: 'Queues', to: '/docs/queue' },
            { label: 'Workflows', to: '/docs/workflows' },
            { label: 'AI agents', to: '/docs/ai-agents' },
            { label: 'Runtimes', to: '/docs/runtimes' },
          ],
        },
        {
          title: 'Reference',
          items: [
            { label: 'CLI', to: '/docs/cli' },
            { label: 'CLI error codes', to: '/docs/pikku-cli/errors' },
            { label: 'Skills for AI assistants', to: '/docs/skills' },
            { label: 'Tags', to: '/docs/tags' },
            { label: 'Why Pikku?', to: '/why' },
          ],
        },
        {
          title: 'Community',
          items: [
            { label: 'GitHub', href: site.repository },
            { label: 'X', href: site.social },
            { label: 'Discord', href: site.chat },
            { label: 'Blog', to: '/blog' },
          ],
        },
      ],
      copyright:
        `Pikku's runtime packages are released under the ${site.license} license; the CLI, inspector and console under BUSL-1.1. ` +
        `Copyright © ${site.firstYear}-${new Date().getFullYear()} Yasser Fadl and ${site.copyrightHolders}.`,
    },
  } satisfies Preset.ThemeConfig,
} satisfies Config;

export default config;
