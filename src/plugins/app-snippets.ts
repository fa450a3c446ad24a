/**
 * app-snippets: the to-do app's code in the build.
 *
 * - It reads the app's files (or regions of them) that the home page shows, at build time, into generated data that
 *   only the home page imports (@generated/app-snippets/default/snippets.json). The list comes from
 *   src/data/showcase.ts; the reading is remark-app-code's, so the home page and the docs pull code alike.
 * - Its loader (app-code-loader.mjs) makes the app files an MDX page pulls with `file="..."` dependencies of that
 *   page, so a change to one rebuilds the page, with the bundler's persistent cache and in `docusaurus start`.
 */
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { readAppCode } from './remark-app-code.mjs';
import { showcaseSnippets, snippetKey } from '../data/showcase';

type Snippets = Record<string, string>;

/** The files the loader reads: every Markdown and MDX file, whichever content plugin compiles it. */
export const MDX_FILES = /\.mdx?$/;

export default function appSnippets(context: LoadContext): Plugin {
  const loader = join(context.siteDir, 'src', 'plugins', 'app-code-loader.mjs');
  return {
    name: 'app-snippets',
    configureWebpack() {
      // `resource`, not `test`: Docusaurus takes every rule whose `test` matches .mdx for a content plugin's MDX rule,
      // and builds its fallback MDX rule's `exclude` from their `include` lists.
      return { module: { rules: [{ resource: MDX_FILES, enforce: 'pre', use: [{ loader }] }] } };
    },
    async loadContent(): Promise<Snippets> {
      return Object.fromEntries(showcaseSnippets.map((s) => [snippetKey(s), readAppCode(s.file, s.region)]));
    },
    async contentLoaded({ content, actions }) {
      await actions.createData('snippets.json', JSON.stringify(content));
    },
  };
}
