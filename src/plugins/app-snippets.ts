/**
 * app-snippets: reads the to-do app's files (or regions of them) that the home page shows, at build time, into
 * generated data that only the home page imports (@generated/app-snippets/default/snippets.json). The list comes
 * from src/data/showcase.ts; the reading is remark-app-code's, so the home page and the docs pull code alike.
 */
import type { LoadContext, Plugin } from '@docusaurus/types';
import { readAppCode } from './remark-app-code.mjs';
import { showcaseSnippets, snippetKey } from '../data/showcase';

type Snippets = Record<string, string>;

export default function appSnippets(_context: LoadContext): Plugin {
  return {
    name: 'app-snippets',
    async loadContent(): Promise<Snippets> {
      return Object.fromEntries(showcaseSnippets.map((s) => [snippetKey(s), readAppCode(s.file, s.region)]));
    },
    async contentLoaded({ content, actions }) {
      await actions.createData('snippets.json', JSON.stringify(content));
    },
  };
}
