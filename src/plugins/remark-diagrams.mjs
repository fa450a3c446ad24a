// Remark plugin: ```mermaid fences become inline SVG at build time, one drawing per color mode, so the browser
// runs no Mermaid JavaScript and a diagram paints with the page.
//
// Each diagram is drawn at its natural size (Mermaid's 16 px text, never scaled down to the column); a diagram wider
// than the column scrolls sideways inside a focusable figure. The two drawings use the Mermaid themes of
// DIAGRAM_THEMES (light: neutral, dark: dark) and the color mode shows one of them (src/css/custom.css).
//
// Drawings are cached in src/diagrams/<key>-<mode>.svg, committed with the page: the key is a hash of the diagram's
// text, the theme and the Mermaid version, so an edited diagram misses the cache and is drawn again. Only a miss
// needs a browser: Chromium at CHROMIUM_PATH or /usr/bin/chromium, driven by mermaid-isomorphic. A build that has a
// miss and no browser stops with the file and the line of the diagram. `npm run diagrams` redraws every diagram and
// removes drawings no page uses.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the drawings are kept. */
export const DIAGRAMS_DIR = join(ROOT, 'src', 'diagrams');
/** The color modes, each drawn with the Mermaid theme configured for it. */
export const MODES = ['light', 'dark'];
/** The Mermaid theme of each color mode (the spec's neutral and dark); docusaurus.config.ts configures these. */
export const DIAGRAM_THEMES = { light: 'neutral', dark: 'dark' };
const MERMAID_VERSION = require('mermaid/package.json').version;

/** The cache key of a diagram: its text (trimmed), the theme of each mode and the Mermaid version. */
export function diagramKey(source, themes = DIAGRAM_THEMES) {
  return createHash('sha256')
    .update(JSON.stringify([source.trim(), themes.light, themes.dark, MERMAID_VERSION]))
    .digest('hex')
    .slice(0, 16);
}

export const drawingPath = (key, mode, dir = DIAGRAMS_DIR) => join(dir, `${key}-${mode}.svg`);

/**
 * Fix the drawing at its natural size: Mermaid writes width="100%" and a max-width, which shrinks a wide diagram
 * (and its text) to the column. The viewBox stays, so the SVG keeps its aspect ratio.
 */
export function naturalSize(svg, width, height) {
  return svg.replace(/<svg\b[^>]*>/, (tag) =>
    tag
      .replace(/\swidth="[^"]*"/, '')
      .replace(/\sheight="[^"]*"/, '')
      .replace(/\sstyle="[^"]*"/, '')
      .replace(/^<svg/, `<svg width="${Math.ceil(width)}" height="${Math.ceil(height)}"`),
  );
}

/**
 * Draw diagrams with Mermaid in headless Chromium, one id prefix per diagram and mode so the inline styles of two
 * drawings on a page never collide. Resolves to { key, mode, svg }[]; rejects naming the diagram that failed.
 */
export async function drawDiagrams(diagrams, themes = DIAGRAM_THEMES) {
  if (!diagrams.length) return [];
  const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Drawing a new or changed diagram needs Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): ` +
        diagrams.map((d) => d.where).join(', '),
    );
  const { createMermaidRenderer } = await import('mermaid-isomorphic');
  const render = createMermaidRenderer({
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    },
  });
  // Rendered concurrently: the renderer keeps one browser open while any render is in flight.
  const jobs = MODES.flatMap((mode) =>
    diagrams.map(async (diagram) => {
      const [result] = await render([diagram.source], {
        prefix: `diagram-${diagram.key}-${mode}`,
        mermaidConfig: { theme: themes[mode] },
      });
      if (result.status === 'rejected')
        throw new Error(`${diagram.where}: the diagram does not render: ${result.reason?.message ?? result.reason}`);
      const { svg, width, height } = result.value;
      return { key: diagram.key, mode, svg: naturalSize(svg, width, height) };
    }),
  );
  const drawings = await Promise.all(jobs);
  return drawings;
}

/** The mdast node that stands for a drawn diagram: a figure holding both drawings. */
function figureNode(key, dir) {
  const drawing = (mode) => ({
    type: 'mdxJsxFlowElement',
    name: 'div',
    attributes: [
      { type: 'mdxJsxAttribute', name: 'className', value: `diagram__drawing diagram__drawing--${mode}` },
      innerHtml(readFileSync(drawingPath(key, mode, dir), 'utf8')),
    ],
    children: [],
  });
  return {
    type: 'mdxJsxFlowElement',
    name: 'figure',
    attributes: [
      { type: 'mdxJsxAttribute', name: 'className', value: 'diagram' },
      // Focusable so a diagram wider than the column can be scrolled from the keyboard.
      { type: 'mdxJsxAttribute', name: 'tabIndex', value: jsxNumber(0) },
      { type: 'mdxJsxAttribute', name: 'aria-label', value: 'Diagram (scrolls sideways when wider than the page)' },
    ],
    children: MODES.map(drawing),
  };
}

/** `dangerouslySetInnerHTML={{ __html: svg }}` as an MDX attribute with its estree. */
function innerHtml(svg) {
  const object = {
    type: 'ObjectExpression',
    properties: [
      {
        type: 'Property',
        kind: 'init',
        method: false,
        shorthand: false,
        computed: false,
        key: { type: 'Identifier', name: '__html' },
        value: { type: 'Literal', value: svg, raw: JSON.stringify(svg) },
      },
    ],
  };
  return {
    type: 'mdxJsxAttribute',
    name: 'dangerouslySetInnerHTML',
    value: {
      type: 'mdxJsxAttributeValueExpression',
      value: `{__html: ${JSON.stringify(svg)}}`,
      data: { estree: program(object) },
    },
  };
}

const jsxNumber = (n) => ({
  type: 'mdxJsxAttributeValueExpression',
  value: String(n),
  data: { estree: program({ type: 'Literal', value: n, raw: String(n) }) },
});

const program = (expression) => ({
  type: 'Program',
  sourceType: 'module',
  body: [{ type: 'ExpressionStatement', expression }],
});

/**
 * The first `<Mermaid>` element of a tree, if any. The site has no Mermaid theme, and the classic theme's
 * `@theme/Mermaid` draws nothing, so such an element would leave an empty place on the page.
 */
function mermaidElement(tree) {
  if ((tree.type === 'mdxJsxFlowElement' || tree.type === 'mdxJsxTextElement') && tree.name === 'Mermaid') return tree;
  for (const child of tree.children ?? []) {
    const found = mermaidElement(child);
    if (found) return found;
  }
  return undefined;
}

/** Every mermaid fence of a tree, with its parent and index. */
function mermaidFences(tree) {
  const found = [];
  const walk = (node) => {
    node.children?.forEach((child, index) => {
      if (child.type === 'code' && child.lang === 'mermaid') found.push({ node: child, parent: node, index });
      else walk(child);
    });
  };
  walk(tree);
  return found;
}

/**
 * The plugin. Options: `themes` ({ light, dark } Mermaid theme names, DIAGRAM_THEMES by default) and `dir`
 * (the drawing cache, src/diagrams by default).
 */
export default function remarkDiagrams({ themes = DIAGRAM_THEMES, dir = DIAGRAMS_DIR } = {}) {
  return async (tree, file) => {
    const where = (node) => `${relative(ROOT, file.path ?? 'unknown file')}:${node.position?.start.line ?? '?'}`;
    const element = mermaidElement(tree);
    if (element)
      throw new Error(
        `${where(element)}: a <Mermaid> element is not drawn (the site has no Mermaid in the browser); write the ` +
          'diagram as a ```mermaid fence, which is drawn at build time.',
      );
    const fences = mermaidFences(tree);
    if (!fences.length) return;
    const entries = fences.map(({ node }) => ({
      key: diagramKey(node.value, themes),
      source: node.value,
      where: where(node),
    }));
    const missing = entries.filter(({ key }) => MODES.some((mode) => !existsSync(drawingPath(key, mode, dir))));
    if (missing.length) {
      mkdirSync(dir, { recursive: true });
      for (const { key, mode, svg } of await drawDiagrams(missing, themes))
        writeFileSync(drawingPath(key, mode, dir), svg);
    }
    fences.forEach(({ parent, index }, i) => {
      parent.children[index] = figureNode(entries[i].key, dir);
    });
  };
}
