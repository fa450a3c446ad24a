/**
 * postcss-once: the CSS pipeline's PostCSS plugins are set up once per build, not once per CSS file.
 *
 * Docusaurus names its PostCSS plugins by module path (`postcss-preset-env`), so postcss-loader loads each one again
 * for every CSS file, and PostCSS then calls its creator, which for postcss-preset-env works out every feature for
 * the browserslist targets. The loader also searches each file's folders for a PostCSS config file. On this site that
 * was about 2 s of a cold build's main thread. This plugin hands the loader plugin instances, made once, and turns
 * the config search off: the site has no PostCSS config file, and the build fails if one is added, since it would be
 * ignored.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { LoadContext, Plugin, PostCssOptions } from '@docusaurus/types';

/** The file names postcss-loader looks for in the site's folder (besides package.json's "postcss" key). */
export const POSTCSS_CONFIG_FILES = [
  'postcss.config.js',
  'postcss.config.mjs',
  'postcss.config.cjs',
  'postcss.config.ts',
  'postcss.config.mts',
  'postcss.config.cts',
  '.postcssrc',
  '.postcssrc.json',
  '.postcssrc.yaml',
  '.postcssrc.yml',
  '.postcssrc.js',
  '.postcssrc.mjs',
  '.postcssrc.cjs',
  '.postcssrc.ts',
];

type Creator = ((options?: unknown) => unknown) & { postcss?: true };

/** The PostCSS config the site's folder has, if any: a file of POSTCSS_CONFIG_FILES or package.json's "postcss". */
export function postcssConfigIn(siteDir: string): string | undefined {
  const file = POSTCSS_CONFIG_FILES.find((name) => existsSync(join(siteDir, name)));
  if (file) return file;
  const manifest = join(siteDir, 'package.json');
  const pkg = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { postcss?: unknown }) : {};
  return pkg.postcss === undefined ? undefined : 'package.json ("postcss")';
}

export default function postcssOnce(context: LoadContext): Plugin {
  const config = postcssConfigIn(context.siteDir);
  if (config)
    throw new Error(
      `[postcss-once] ${config}: the build does not read PostCSS config files (src/plugins/postcss-once.ts turns the ` +
        "search off); add PostCSS plugins with a Docusaurus plugin's configurePostCss instead.",
    );
  const require = createRequire(join(context.siteDir, 'package.json'));
  const made = new Map<string, unknown>();
  /** The plugin an entry names, made once per name and options; anything else is handed on as it is. */
  const once = (entry: unknown): unknown => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return entry;
    const [name, options = {}] = entry as [string, unknown];
    const key = `${name}\0${JSON.stringify(options)}`;
    if (!made.has(key)) {
      const loaded = require(name) as Creator | { default: Creator };
      const creator = 'default' in loaded ? loaded.default : loaded;
      if (typeof creator !== 'function' || creator.postcss !== true)
        throw new Error(`[postcss-once] ${name} is not a PostCSS plugin creator; the CSS pipeline has changed.`);
      made.set(key, creator(options));
    }
    return made.get(key);
  };
  return {
    name: 'postcss-once',
    configurePostCss(options: PostCssOptions): PostCssOptions {
      return { ...options, config: false, plugins: options.plugins.map(once) };
    },
  };
}
