// What the site takes from Docusaurus beyond its documented API, as listed in CONTRIBUTING.md ("Upgrading
// Docusaurus"). After an upgrade, each test here fails naming the internal that moved, before a build or a reader
// finds out. The swizzles themselves (each original still in the theme, each unsafe one saying so) are checked by
// tests/unit/swizzles.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../scripts/lib/content.mjs';
import { loadModule } from '../lib/load.mjs';

const require = createRequire(join(ROOT, 'package.json'));
/** A package's folder (most @docusaurus packages export no package.json). */
const packageDir = (name) => join(ROOT, 'node_modules', ...name.split('/'));
const THEME_CLASSIC = packageDir('@docusaurus/theme-classic');
const THEME_DIRS = {
  '@docusaurus/theme-classic': join(THEME_CLASSIC, 'lib', 'theme'),
  '@easyops-cn/docusaurus-search-local': join(
    packageDir('@easyops-cn/docusaurus-search-local'),
    'dist',
    'client',
    'client',
    'theme',
  ),
};
const SITE_THEME = join(ROOT, 'src', 'theme');

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(tsx?|mjs)$/.test(name) ? [path] : [];
  });
const SOURCES = [...walk(join(ROOT, 'src')), join(ROOT, 'docusaurus.config.ts')].map((file) => ({
  file: relative(ROOT, file),
  code: readFileSync(file, 'utf8'),
}));

/** Every static or dynamic import of the site's code: { file, spec, names (named imports, without `as` renames) }. */
const IMPORTS = SOURCES.flatMap(({ file, code }) => [
  ...[...code.matchAll(/^import\s+(?:type\s+)?([\s\S]*?)\s+from\s+'([^']+)';/gm)].map((m) => ({
    file,
    spec: m[2],
    names: [...(/\{([\s\S]*)\}/.exec(m[1])?.[1] ?? '').split(',')]
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      )
      .filter(Boolean),
  })),
  ...[...code.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => ({ file, spec: m[1], names: [] })),
]);

/** The file of a theme component in a theme's lib/theme folder, or undefined. */
const componentIn = (dir, name) =>
  ['.js', '/index.js'].map((ext) => join(dir, name + ext)).find((path) => existsSync(path));

test('every @theme/… and @theme-original/… component the site imports is still in an installed theme', () => {
  const theirs = Object.values(THEME_DIRS);
  const components = IMPORTS.filter(({ spec }) => /^@theme(-original)?\//.test(spec));
  assert.ok(components.length > 20, 'the scan finds the imports of the swizzles and components');
  const missing = components
    .filter(({ spec }) => {
      const name = spec.replace(/^@theme(-original)?\//, '');
      // @theme/X may be the site's own swizzle; @theme-original/X is always the theme's.
      const dirs = spec.startsWith('@theme-original/') ? theirs : [...theirs, SITE_THEME];
      return !dirs.some((dir) =>
        dir === SITE_THEME
          ? ['.tsx', '.ts', '/index.tsx', '/index.ts'].some((ext) => existsSync(join(dir, name + ext)))
          : componentIn(dir, name),
      );
    })
    .map(({ spec, file }) => `${spec} (imported by ${file}) is in no installed theme's lib/theme/`);
  assert.deepEqual(missing, []);
});

/** The compiler's view of the site (tsconfig.json's files), to read what each module exports as the site resolves it. */
const tsconfig = ts.parseJsonConfigFileContent(
  ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config,
  ts.sys,
  ROOT,
);
const program = ts.createProgram([...tsconfig.fileNames, join(ROOT, 'docusaurus.config.ts')], {
  ...tsconfig.options,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** The module symbol of an import in a file, as the compiler resolves it there (ambient declarations included). */
function moduleSymbol(file, spec) {
  const source = program.getSourceFile(join(ROOT, file));
  const declaration = source?.statements.find(
    (s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === spec,
  );
  return declaration ? checker.getSymbolAtLocation(declaration.moduleSpecifier) : undefined;
}
/** The names an import of a file can take, or null if the compiler cannot resolve it. */
function exportsOf(file, spec) {
  const symbol = moduleSymbol(file, spec);
  return symbol ? new Set(checker.getExportsOfModule(symbol).map((s) => s.name)) : null;
}

/** Entry points of @docusaurus packages the site imports names from: the theme-internal ones and the rest. */
const PACKAGE_IMPORTS = IMPORTS.filter(({ spec }) =>
  /^@docusaurus\/(theme-common|plugin-content-docs|plugin-content-blog|theme-classic|core|utils-common)(\/|$)/.test(
    spec,
  ),
);

test('the theme-internal entry points the site imports (@docusaurus/theme-common/internal) still export each name', () => {
  const internal = PACKAGE_IMPORTS.filter(({ spec }) => spec.endsWith('/internal'));
  assert.ok(internal.length > 0, 'the site imports from @docusaurus/theme-common/internal (else update CONTRIBUTING)');
  const gone = [];
  for (const { spec, file, names } of internal) {
    const exported = exportsOf(file, spec);
    if (!exported) gone.push(`${spec} (imported by ${file}) no longer resolves`);
    else for (const name of names) if (!exported.has(name)) gone.push(`${spec} no longer exports ${name} (${file})`);
  }
  assert.deepEqual(gone, []);
});

test('every name the site imports from a @docusaurus package entry point is still exported', () => {
  assert.ok(
    PACKAGE_IMPORTS.some(({ spec }) => spec === '@docusaurus/theme-common'),
    'the scan finds the imports',
  );
  const gone = [];
  for (const { spec, file, names } of PACKAGE_IMPORTS.filter(({ names }) => names.length > 0)) {
    const exported = exportsOf(file, spec);
    if (!exported) gone.push(`${spec} (imported by ${file}) no longer resolves`);
    else for (const name of names) if (!exported.has(name)) gone.push(`${spec} no longer exports ${name} (${file})`);
  }
  assert.deepEqual(gone, []);
});

test("src/ssrTemplate.ts is still Docusaurus's default page template, but for how the scripts start", () => {
  // src/ssrTemplate.ts holds its own copy of the template (nothing imports @docusaurus/core/lib/...). After an upgrade
  // this says when the installed default has changed, so the copy can take the change: the default, less its
  // <script defer> loop, must be the copy less its app loader (whitespace aside).
  const path = join(packageDir('@docusaurus/core'), 'lib', 'ssg', 'ssgTemplate.html.js');
  assert.ok(
    existsSync(path),
    '@docusaurus/core/lib/ssg/ssgTemplate.html.js is gone: compare src/ssrTemplate.ts by hand',
  );
  const theirs = /`([\s\S]*)`/.exec(readFileSync(path, 'utf8'))[1];
  const scriptLoop = /<% it\.scripts\.forEach\(\(script\) => \{ %>\s*<script [\s\S]*?defer><\/script>\s*<% \}\); %>/;
  assert.match(theirs, scriptLoop, "the default template's <script defer> loop changed");
  const ours = loadModule('src/ssrTemplate.ts').ssrTemplate;
  const squash = (text) => text.replace(/\s+/g, ' ').trim();
  assert.equal(
    squash(ours.replace(/<script data-app-loader>[\s\S]*?<\/script>/, '')),
    squash(theirs.replace(scriptLoop, '')),
    'src/ssrTemplate.ts differs from the installed default template beyond its app loader',
  );
});

test("the gtag plugin's page-view client module that src/plugins/analytics.ts reuses is still there", () => {
  const path = require.resolve('@docusaurus/plugin-google-gtag/lib/gtag');
  assert.match(readFileSync(path, 'utf8'), /onRouteDidUpdate/, '@docusaurus/plugin-google-gtag/lib/gtag');
});

test("the classic theme's Prism client module that src/plugins/prism-with-code-blocks.ts replaces is still there", () => {
  // The plugin swaps theme-classic/lib/prism-include-languages.js for an empty module; if the theme renames or drops
  // it, Prism would come back into every page's first JavaScript (or the swap would match nothing).
  assert.ok(
    existsSync(join(THEME_CLASSIC, 'lib', 'prism-include-languages.js')),
    '@docusaurus/theme-classic/lib/prism-include-languages.js',
  );
  assert.match(
    readFileSync(join(THEME_CLASSIC, 'lib', 'index.js'), 'utf8'),
    /'\.\/prism-include-languages'/,
    "theme-classic's getClientModules no longer lists ./prism-include-languages",
  );
});

test("src/clientModules/progressBar.ts configures the same nprogress the classic theme's progress bar uses", () => {
  const themeModule = join(THEME_CLASSIC, 'lib', 'nprogress.js');
  assert.ok(existsSync(themeModule), '@docusaurus/theme-classic/lib/nprogress.js');
  assert.match(
    readFileSync(themeModule, 'utf8'),
    /from 'nprogress'/,
    'theme-classic/lib/nprogress.js imports nprogress',
  );
  assert.equal(
    createRequire(themeModule).resolve('nprogress'),
    require.resolve('nprogress'),
    'the theme and the site resolve one nprogress (package.json pins the version the theme uses)',
  );
});

test("src/clientModules/idlePrefetch.ts wraps window.docusaurus.prefetch, which Docusaurus's Link still calls", () => {
  const core = join(packageDir('@docusaurus/core'), 'lib', 'client');
  assert.match(
    readFileSync(join(core, 'clientEntry.js'), 'utf8'),
    /window\.docusaurus = /,
    '@docusaurus/core/lib/client/clientEntry.js sets window.docusaurus',
  );
  assert.match(
    readFileSync(join(core, 'exports', 'Link.js'), 'utf8'),
    /window\.docusaurus\.prefetch\(/,
    '@docusaurus/core/lib/client/exports/Link.js prefetches through window.docusaurus.prefetch',
  );
});

test('the docs plugin content llms-txt reads (loadedVersions, docs, sidebars) keeps its shape', () => {
  // src/plugins/llms-txt.mjs reads the docs plugins' loaded content from postBuild's `plugins` (a documented prop,
  // but the content's shape is the plugin's own): the fields it reads, by the plugin's declared types.
  const docs = moduleSymbol('docusaurus.config.ts', '@docusaurus/plugin-content-docs');
  assert.ok(docs, '@docusaurus/plugin-content-docs resolves');
  const exported = new Map(checker.getExportsOfModule(docs).map((s) => [s.name, s]));
  const fields = {
    LoadedContent: ['loadedVersions'],
    LoadedVersion: ['docs', 'sidebars'],
    DocMetadata: ['id', 'title', 'description', 'permalink', 'source', 'unlisted', 'draft'],
  };
  const gone = [];
  for (const [typeName, names] of Object.entries(fields)) {
    const symbol = exported.get(typeName);
    if (!symbol) {
      gone.push(`@docusaurus/plugin-content-docs no longer exports the type ${typeName}`);
      continue;
    }
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    for (const name of names)
      if (!type.getProperty(name)) gone.push(`@docusaurus/plugin-content-docs: ${typeName} has no ${name}`);
  }
  assert.deepEqual(gone, []);
  const props = readFileSync(join(packageDir('@docusaurus/types'), 'src', 'context.d.ts'), 'utf8');
  assert.match(props, /plugins: LoadedPlugin\[\]/, "@docusaurus/types: postBuild's props no longer carry plugins");
});

test('scripts/build.mjs runs the docusaurus binary at the path the package has', () => {
  assert.ok(
    existsSync(join(packageDir('@docusaurus/core'), 'bin', 'docusaurus.mjs')),
    '@docusaurus/core/bin/docusaurus.mjs',
  );
});
