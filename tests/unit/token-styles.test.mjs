// Code-token colors as classes (src/data/tokenStyles.ts): every token of the site's code gets, in each color mode,
// exactly the style prism-react-renderer's Highlight would have put inline with that mode's theme, through the
// stylesheet src/plugins/prism-with-code-blocks.ts writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { loadDefault, loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';
import { fencesOfFile } from '../../scripts/lib/fences.mjs';

const require = createRequire(import.meta.url);
const { Highlight, Prism } = require('prism-react-renderer');
const { tokenClasses, tokenDictionary, tokenStylesCss, declarations, MODES } = loadModule('src/data/tokenStyles.ts');
const config = loadDefault('docusaurus.config.ts');
const { theme: light, darkTheme: dark, additionalLanguages } = config.themeConfig.prism;
const themes = { light, dark };

// The config's extra languages, registered the way @theme/prism-include-languages does.
globalThis.Prism = Prism;
for (const language of additionalLanguages) require(`prismjs/components/prism-${language}`);
delete globalThis.Prism;

/** Every token of `code` with the style Highlight gives it in `theme`: [{ types, style }]. */
function highlighted(code, language, theme) {
  const out = [];
  renderToString(
    createElement(Highlight, { code, language, theme, prism: Prism }, ({ tokens, getTokenProps }) => {
      for (const token of tokens.flat()) out.push({ types: token.types, style: getTokenProps({ token }).style ?? {} });
      return null;
    }),
  );
  return out;
}

/** The rules of the stylesheet: class name -> declarations, per mode. */
function rules(css) {
  const byMode = { light: new Map(), dark: new Map() };
  for (const [, mode, name, body] of css.matchAll(/^\[data-theme='(\w+)'\] \.([\w-]+)\{([^}]*)\}$/gm))
    byMode[mode].set(name, body);
  return byMode;
}

// The site's code: the to-do app's TypeScript and every fenced block of the docs in the config's languages.
const files = (function walk(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules') return [];
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
})(join(REPO, 'examples', 'todo-app', 'src')).filter((f) => f.endsWith('.ts'));
const fences = (function walk(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return walk(path);
    if (!entry.endsWith('.mdx')) return [];
    return fencesOfFile(path)
      .filter((f) => f.lang)
      .map((f) => ({ language: f.lang, code: f.code }));
  });
})(join(REPO, 'docs'));
const samples = [
  ...files.map((f) => ({ language: 'ts', code: readFileSync(f, 'utf8') })),
  ...fences.filter((f) => f.language !== 'mermaid'),
];

test("every token of the site's code has, in each mode, the style Highlight gives it with that mode's theme", () => {
  assert.ok(files.length > 5 && fences.length > 100, 'the app and the docs have code');
  const css = rules(tokenStylesCss(themes));
  const languages = new Set();
  let styled = 0;
  for (const { language, code } of samples) {
    languages.add(language);
    const dictionaries = { light: tokenDictionary(light, language), dark: tokenDictionary(dark, language) };
    for (const mode of Object.keys(MODES)) {
      for (const { types, style } of highlighted(code, language, themes[mode])) {
        const { display: _display, ...expected } = style;
        const name = (tokenClasses(dictionaries, types) ?? '').split(' ').find((c) => c.startsWith(`${MODES[mode]}-`));
        const got = name ? css[mode].get(name) : '';
        assert.equal(got, declarations(expected), `${mode} ${types.join('.')} in ${language}`);
        if (got) styled++;
      }
    }
  }
  assert.ok(languages.has('bash') && languages.has('ts'), [...languages].join());
  assert.ok(styled > 10000, `${styled} styled tokens`);
});

test('a plain token has no class; the two modes have their own classes, and each class one rule', () => {
  const dictionaries = { light: tokenDictionary(light, 'ts'), dark: tokenDictionary(dark, 'ts') };
  assert.equal(tokenClasses(dictionaries, ['plain']), undefined);
  const keyword = tokenClasses(dictionaries, ['keyword']).split(' ');
  assert.deepEqual(
    keyword.map((c) => c.split('-')[0]),
    ['tl', 'td'],
  );
  const css = tokenStylesCss(themes);
  for (const name of keyword) assert.equal(css.split(`.${name}{`).length, 2, `${name} has one rule`);
  assert.match(css, /^\[data-theme='dark'\] \.td-[\w]+\{color:rgb\(189, 147, 249\);font-style:italic\}$/m);
});

test('two styles of one mode that would share a class fail the build, naming both', () => {
  // A class is a 32-bit hash of the declarations; these two colours share one.
  const clash = {
    plain: {},
    styles: [
      { types: ['keyword'], style: { color: '#0089db' } },
      { types: ['string'], style: { color: '#047828' } },
    ],
  };
  assert.throws(
    () => tokenStylesCss({ light: clash, dark }),
    /two light styles share the class tl-vzhq5q \(color:#0089db and color:#047828\)/,
  );
});
