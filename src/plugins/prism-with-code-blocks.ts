/**
 * prism-with-code-blocks: Prism runs where code blocks are drawn, which in the browser is almost never.
 *
 * - Docusaurus's classic theme registers the config's extra Prism languages in a client module, and client modules are
 *   part of the main bundle, so every page loaded all of Prism (about 30 KB gzip) before it could hydrate. This plugin
 *   swaps that client module for an empty one; src/components/CodeTokens/prism.ts registers the same languages with
 *   the theme's own `@theme/prism-include-languages`, in the module that brings Prism.
 * - In the browser's build, src/components/CodeTokens/index.ts (Prism at once, for the server) becomes ./browser.ts,
 *   which loads Prism only for a block the browser draws itself: a page's own blocks keep the lines of its HTML
 *   (src/theme/CodeBlock/Content).
 * - Token colors are classes for both color modes (src/data/tokenStyles.ts); this plugin writes their stylesheet from
 *   the config's two Prism themes and adds it to every page's CSS.
 */
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import type { PrismTheme } from 'prism-react-renderer';
import { tokenStylesCss } from '../data/tokenStyles';

/** The classic theme's client module (not `@theme/prism-include-languages`, which lives under lib/theme/). */
export const PRISM_CLIENT_MODULE = /[\\/]@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages(\.js)?$/;
/** The tokenizer module the server's build keeps and the browser's build replaces with its sibling browser.ts. */
export const TOKENS_MODULE = /[\\/]src[\\/]components[\\/]CodeTokens[\\/]index\.ts$/;
/** The stylesheet's file name, in this plugin's folder of generated files. */
export const TOKEN_STYLES_FILE = 'token-styles.css';

export default function prismWithCodeBlocks(context: LoadContext): Plugin {
  const emptyModule = join(context.siteDir, 'src', 'plugins', 'empty-client-module.ts');
  const browserTokens = join(context.siteDir, 'src', 'components', 'CodeTokens', 'browser.ts');
  const stylesheet = join(context.generatedFilesDir, 'prism-with-code-blocks', 'default', TOKEN_STYLES_FILE);
  const { prism } = context.siteConfig.themeConfig as { prism?: { theme?: PrismTheme; darkTheme?: PrismTheme } };
  if (!prism?.theme)
    throw new Error('[prism-with-code-blocks] themeConfig.prism.theme is not set: token colors need both themes.');
  const themes = { light: prism.theme, dark: prism.darkTheme ?? prism.theme };
  return {
    name: 'prism-with-code-blocks',
    getClientModules() {
      return [stylesheet];
    },
    async contentLoaded({ actions }) {
      await actions.createData(TOKEN_STYLES_FILE, tokenStylesCss(themes));
    },
    configureWebpack(_config, isServer, { currentBundler }) {
      const { NormalModuleReplacementPlugin } = currentBundler.instance;
      return {
        plugins: [
          new NormalModuleReplacementPlugin(PRISM_CLIENT_MODULE, emptyModule),
          ...(isServer ? [] : [new NormalModuleReplacementPlugin(TOKENS_MODULE, browserTokens)]),
        ],
      };
    },
  };
}
