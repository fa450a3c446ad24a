/**
 * Unsafe swizzle (eject) of `@theme/Mermaid`, the component MDX hands a diagram to when nothing drew it.
 *
 * Every ```mermaid fence is drawn at build time (src/plugins/remark-diagrams.mjs), so no page should ever reach this
 * component. `@docusaurus/theme-mermaid`'s own version loads Mermaid in the browser; with it in the theme, every build
 * bundled and minified Mermaid and its layout libraries (about 3 MB of JavaScript) for chunks no page loads. This one
 * fails the page instead: a diagram that reaches it (a `<Mermaid>` element written in MDX, say) stops the build, and
 * `npm run build` names the page's file.
 */
import type { Props } from '@theme/Mermaid';

export default function Mermaid({ value }: Props): never {
  const first = value.trim().split('\n')[0];
  throw new Error(
    `A Mermaid diagram reached the page without being drawn ("${first}"): write it as a \`\`\`mermaid fence, which ` +
      'src/plugins/remark-diagrams.mjs draws at build time.',
  );
}
