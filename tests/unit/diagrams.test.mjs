// Diagrams drawn at build time (src/plugins/remark-diagrams.mjs): every ```mermaid fence of the content has its
// committed drawings, at natural size, and nothing else is kept; the plugin swaps a fence for both drawings; a new
// diagram with no browser to draw it stops the build naming the file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import remarkDiagrams, {
  DIAGRAMS_DIR,
  MODES,
  diagramKey,
  drawingPath,
  naturalSize,
} from '../../src/plugins/remark-diagrams.mjs';
import { contentDiagrams } from '../../scripts/lib/content.mjs';

const diagrams = await contentDiagrams();

test('the content has diagrams, and each has a light and a dark drawing', () => {
  assert.ok(diagrams.length > 0);
  const missing = diagrams.flatMap((d) =>
    MODES.filter((m) => !readdirSync(DIAGRAMS_DIR).includes(`${d.key}-${m}.svg`)).map(
      (m) => `${d.file}:${d.line} (${m}): run npm run diagrams`,
    ),
  );
  assert.deepEqual(missing, []);
});

test('no drawing is kept that no diagram uses', () => {
  const keys = new Set(diagrams.map((d) => d.key));
  assert.deepEqual(
    readdirSync(DIAGRAMS_DIR).filter((n) => !keys.has(n.replace(/-(light|dark)\.svg$/, ''))),
    [],
    'npm run diagrams removes them',
  );
});

test('each drawing is at its natural size, with ids of its own', () => {
  for (const { key } of diagrams)
    for (const mode of MODES) {
      const svg = readFileSync(drawingPath(key, mode), 'utf8');
      const open = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
      assert.match(open, /\swidth="\d+"/, `${key}-${mode} has a fixed width`);
      assert.doesNotMatch(open, /max-width|width="100%"/, `${key}-${mode} is not shrunk to the column`);
      assert.match(open, new RegExp(`id="diagram-${key}-${mode}-`), `${key}-${mode} id`);
    }
});

test('naturalSize replaces the column-filling width', () => {
  const out = naturalSize('<svg width="100%" style="max-width: 812.5px;" viewBox="0 0 812.5 40"><g/></svg>', 812.5, 40);
  assert.equal(out, '<svg width="813" height="40" viewBox="0 0 812.5 40"><g/></svg>');
});

test('the key changes with the text and the themes', () => {
  assert.equal(diagramKey('flowchart TD\n a-->b\n'), diagramKey('flowchart TD\n a-->b'));
  assert.notEqual(diagramKey('flowchart TD\n a-->b'), diagramKey('flowchart TD\n a-->c'));
  assert.notEqual(
    diagramKey('flowchart TD\n a-->b'),
    diagramKey('flowchart TD\n a-->b', { light: 'default', dark: 'dark' }),
  );
});

const fence = (value) => ({
  type: 'root',
  children: [{ type: 'code', lang: 'mermaid', value, position: { start: { line: 7 } } }],
});

test('the plugin swaps a fence for a focusable figure holding both drawings', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'diagrams-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const source = 'flowchart TD\n  a --> b';
  const key = diagramKey(source);
  for (const mode of MODES) writeFileSync(drawingPath(key, mode, dir), `<svg id="${mode}"></svg>`);
  const tree = fence(source);
  await remarkDiagrams({ dir })(tree, { path: 'docs/x.mdx' });
  const [figure] = tree.children;
  assert.equal(figure.name, 'figure');
  assert.ok(figure.attributes.some((a) => a.name === 'tabIndex'));
  assert.deepEqual(
    figure.children.map(
      (c) =>
        c.attributes.find((a) => a.name === 'dangerouslySetInnerHTML').value.data.estree.body[0].expression
          .properties[0].value.value,
    ),
    ['<svg id="light"></svg>', '<svg id="dark"></svg>'],
  );
});

test('a <Mermaid> element, which nothing would draw, fails naming the file and line', async () => {
  const tree = {
    type: 'root',
    children: [{ type: 'mdxJsxFlowElement', name: 'Mermaid', attributes: [], position: { start: { line: 9 } } }],
  };
  await assert.rejects(
    remarkDiagrams()(tree, { path: 'blog/x.mdx' }),
    /blog\/x\.mdx:9: a <Mermaid> element is not drawn/,
  );
});

test('a new diagram with no browser to draw it fails naming the file and line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'diagrams-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const before = process.env.CHROMIUM_PATH;
  process.env.CHROMIUM_PATH = join(dir, 'no-chromium');
  try {
    await assert.rejects(
      remarkDiagrams({ dir })(fence('flowchart TD\n  new --> diagram'), { path: 'docs/new.mdx' }),
      /docs\/new\.mdx:7/,
    );
  } finally {
    if (before === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = before;
  }
});
