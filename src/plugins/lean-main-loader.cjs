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
 * If either file no longer has the shape described here, the build fails with a message naming
 * src/plugins/lean-main.ts, rather than shipping the data unnoticed.
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

module.exports = function leanMainLoader(source) {
  if (/registry\.js$/.test(this.resourcePath)) return stripRegistryPaths(source);
  if (/docusaurus\.config\.mjs$/.test(this.resourcePath)) return stripServerOnlyConfig(source);
  throw new Error(`${OWNER}: the loader was given ${this.resourcePath}, which it does not know.`);
};
module.exports.stripRegistryPaths = stripRegistryPaths;
module.exports.stripServerOnlyConfig = stripServerOnlyConfig;
module.exports.SERVER_ONLY_CONFIG = SERVER_ONLY_CONFIG;
