// Loads the TypeScript config, sidebars and data modules with jiti, the loader Docusaurus uses.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO } from './fixture-site.mjs';

const require = createRequire(import.meta.url);
const jiti = require('jiti')(import.meta.filename ?? join(REPO, 'tests/lib/load.mjs'), {
  cache: false,
  requireCache: false,
});

/** The module's exports (named and default). */
export const loadModule = (relPath) => jiti(join(REPO, relPath));
/** The module's default export. */
export const loadDefault = (relPath) => loadModule(relPath).default;
