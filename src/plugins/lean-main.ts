/**
 * lean-main: what the browser's main bundle carried without using it, and one step of hydration it did not need.
 *
 * - The module path of every route chunk in the registry Docusaurus generates, and the site config's `ssrTemplate`,
 *   `plugins`, `presets` and `themes`: only the server reads them. lean-main-loader.cjs leaves them out of the
 *   browser build (about 4 KB gzip).
 * - All of tslib, for the one helper @docusaurus/utils-common calls: a CommonJS require of tslib keeps every export.
 *   In the browser build, that require gets lean-main-tslib.ts instead (3.8 KB gzip).
 * - The collator: two sorts that run while every page hydrates (theme-common's `useShallowMemoObject`, the docs
 *   plugin's `getActivePlugin`) used `localeCompare`, and a page's first `localeCompare` loads the locale's collation
 *   data. The loader sorts by code units instead, in the browser build.
 *
 * All fail the build, naming this file, if Docusaurus changes under them: the loader if the registry, the config or
 * a sort has another shape, and this plugin if utils-common calls a tslib helper that lean-main-tslib.ts
 * does not export.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import * as tslibStandIn from './lean-main-tslib';

/** The files the loader changes: the generated route registry and site config, and the two modules with sorts. */
export const LOADER_FILES =
  /[\\/](\.docusaurus[\\/](registry\.js|docusaurus\.config\.mjs)|@docusaurus[\\/](theme-common[\\/]lib[\\/]utils[\\/]reactUtils|plugin-content-docs[\\/]lib[\\/]client[\\/]docsClientUtils)\.js)$/;
/** Where the requires of tslib that get the stand-in come from. */
export const UTILS_COMMON = /[\\/]@docusaurus[\\/]utils-common[\\/]lib$/;

/** The tslib helpers the files of a CommonJS package's lib/ folder call (`tslib_1.__name`). */
export function tslibHelpersCalled(libDir: string): string[] {
  const called = new Set<string>();
  for (const file of readdirSync(libDir).filter((name) => name.endsWith('.js'))) {
    for (const match of readFileSync(join(libDir, file), 'utf8').matchAll(/\btslib_\d+\.(__\w+)/g))
      called.add(match[1]);
  }
  return [...called].sort();
}

export default function leanMain(context: LoadContext): Plugin {
  const require = createRequire(join(context.siteDir, 'package.json'));
  const utilsCommonLib = dirname(require.resolve('@docusaurus/utils-common'));
  const missing = tslibHelpersCalled(utilsCommonLib).filter(
    (helper) => typeof (tslibStandIn as Record<string, unknown>)[helper] !== 'function',
  );
  if (missing.length > 0) {
    throw new Error(
      `src/plugins/lean-main.ts: @docusaurus/utils-common now calls tslib's ${missing.join(', ')}, which ` +
        'src/plugins/lean-main-tslib.ts does not export. Add it there, or remove the tslib stand-in.',
    );
  }
  const standIn = join(context.siteDir, 'src', 'plugins', 'lean-main-tslib.ts');
  const loader = join(context.siteDir, 'src', 'plugins', 'lean-main-loader.cjs');
  return {
    name: 'lean-main',
    configureWebpack(_config, isServer, { currentBundler }) {
      if (isServer) return {};
      return {
        module: { rules: [{ test: LOADER_FILES, enforce: 'pre', use: [{ loader }] }] },
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(
            /^tslib$/,
            (resource: { context?: string; request: string }) => {
              if (resource.context && UTILS_COMMON.test(resource.context)) resource.request = standIn;
            },
          ),
        ],
      };
    },
  };
}
