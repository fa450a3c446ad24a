/**
 * The loader of src/plugins/lean-main.ts, for the browser build only. It takes out of two files Docusaurus generates
 * what only the server reads:
 *
 * - .docusaurus/registry.js has one entry per route chunk: `[() => import("P"), "P", require.resolveWeak("P")]`. The
 *   second item, the module path, is read by react-loadable only to report the modules a page used while it is
 *   rendered on the server. The loader writes `null` in its place (2.5 KB gzip).
 * - .docusaurus/docusaurus.config.mjs is the whole site config as JSON, read in the browser as `siteConfig`. No
 *   browser code reads its `ssrTemplate`, `plugins`, `presets` or `themes` (and functions are already `null` in
 *   it); the loader leaves them out (about 1.5 KB gzip).
 *
 * It also changes two sorts that run while every page hydrates and used `localeCompare` (COLLATOR_SORTS below). The
 * first `localeCompare` of a page loads the locale's collation data, about 25 ms on a CPU four times slower than a
 * desktop. Neither sort needs it: theme-common's `useShallowMemoObject` sorts an object's keys only to list them in a
 * stable order, and the docs plugin sorts its instances' paths so that '/docs/x' comes before '/docs'. Comparing code
 * units gives both.
 *
 * If a file no longer has the shape described here, the build fails with a message naming
 * src/plugins/lean-main.ts, rather than shipping the data or the work unnoticed.
 */
'use strict';

const OWNER = 'src/plugins/lean-main.ts';
const ENTRY = /, ("[^"\n]+"), require\.resolveWeak\(\1\)/g;
const WEAK = /require\.resolveWeak\(/g;
/** Site config fields no browser code reads. */
const SERVER_ONLY_CONFIG = ['ssrTemplate', 'plugins', 'presets', 'themes'];

/** Returns the registry source without its module paths; throws if an entry does not have the expected shape. */
function stripRegistryPaths(source) {
  const entries = (source.match(WEAK) ?? []).length;
  let stripped = 0;
  const out = source.replace(ENTRY, (_entry, path) => {
    stripped += 1;
    return `, null, require.resolveWeak(${path})`;
  });
  if (entries === 0 || stripped !== entries) {
    throw new Error(
      `${OWNER}: .docusaurus/registry.js has ${entries} entries, of which ${stripped} have the ` +
        '[load, "path", require.resolveWeak("path")] shape this plugin expects. Docusaurus has changed the file; ' +
        'update the plugin or remove it from docusaurus.config.ts.',
    );
  }
  return out;
}

/** Returns the generated site config without the fields only the server reads; throws if it is not `export default {JSON}`. */
function stripServerOnlyConfig(source) {
  const match = /^export default (\{[\s\S]*\});?\s*$/m.exec(source);
  let config;
  try {
    config = match && JSON.parse(match[1]);
  } catch {
    config = undefined;
  }
  if (!config || typeof config !== 'object' || typeof config.title !== 'string') {
    throw new Error(
      `${OWNER}: .docusaurus/docusaurus.config.mjs is no longer \`export default\` followed by the site config as ` +
        'JSON. Docusaurus has changed the file; update the plugin or remove it from docusaurus.config.ts.',
    );
  }
  for (const field of SERVER_ONLY_CONFIG) delete config[field];
  return `export default ${JSON.stringify(config)};\n`;
}

/** Sorts that used the collator, and the same sorts by code units; `file` is the end of the module's path. */
const COLLATOR_SORTS = [
  {
    file: '@docusaurus/theme-common/lib/utils/reactUtils.js',
    from: 'deps.sort((a, b) => a[0].localeCompare(b[0]));',
    to: 'deps.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));',
  },
  {
    file: '@docusaurus/plugin-content-docs/lib/client/docsClientUtils.js',
    from: '.sort((a, b) => b[1].path.localeCompare(a[1].path))',
    to: '.sort((a, b) => (a[1].path < b[1].path ? 1 : a[1].path > b[1].path ? -1 : 0))',
  },
];

/** Returns the module with its collator sort replaced; throws if the sort is not there exactly once. */
function sortWithoutCollator(source, resourcePath) {
  const path = resourcePath.replace(/\\/g, '/');
  const sort = COLLATOR_SORTS.find(({ file }) => path.endsWith(file));
  if (!sort) throw new Error(`${OWNER}: the loader has no sort to change in ${resourcePath}.`);
  if (source.split(sort.from).length !== 2) {
    throw new Error(
      `${OWNER}: ${sort.file} no longer has \`${sort.from}\` once. Docusaurus has changed it; update ` +
        'COLLATOR_SORTS in src/plugins/lean-main-loader.cjs or remove that entry.',
    );
  }
  return source.replace(sort.from, sort.to);
}

module.exports = function leanMainLoader(source) {
  if (/registry\.js$/.test(this.resourcePath)) return stripRegistryPaths(source);
  if (/docusaurus\.config\.mjs$/.test(this.resourcePath)) return stripServerOnlyConfig(source);
  // Any other file is one of COLLATOR_SORTS (or an error naming the file).
  return sortWithoutCollator(source, this.resourcePath);
};
module.exports.stripRegistryPaths = stripRegistryPaths;
module.exports.stripServerOnlyConfig = stripServerOnlyConfig;
module.exports.SERVER_ONLY_CONFIG = SERVER_ONLY_CONFIG;
module.exports.sortWithoutCollator = sortWithoutCollator;
module.exports.COLLATOR_SORTS = COLLATOR_SORTS;
