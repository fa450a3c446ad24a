/**
 * prism-with-code-blocks: keeps Prism out of the JavaScript every page loads first.
 *
 * Docusaurus's classic theme registers the config's extra Prism languages in a client module, and client modules are
 * part of the main bundle, so every page loaded all of Prism (about 30 KB gzip) before it could hydrate, code block or
 * not. This plugin swaps that client module for an empty one; src/theme/CodeBlock registers the same languages, with
 * the theme's own `@theme/prism-include-languages`, in the chunk that draws code blocks.
 */
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';

/** The classic theme's client module (not `@theme/prism-include-languages`, which lives under lib/theme/). */
export const PRISM_CLIENT_MODULE = /[\\/]@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages(\.js)?$/;

export default function prismWithCodeBlocks(context: LoadContext): Plugin {
  const emptyModule = join(context.siteDir, 'src', 'plugins', 'empty-client-module.ts');
  return {
    name: 'prism-with-code-blocks',
    configureWebpack(_config, _isServer, { currentBundler }) {
      return {
        plugins: [new currentBundler.instance.NormalModuleReplacementPlugin(PRISM_CLIENT_MODULE, emptyModule)],
      };
    },
  };
}
