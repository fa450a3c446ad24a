// Safe swizzle (eject) of CodeBlock, Docusaurus's ten-line entry that picks the string or element content. Two changes:
//
// - It registers the extra Prism languages of the config (bash, toml, diff, ini) where code blocks are drawn, instead
//   of in Docusaurus's client module, which put all of Prism into the JavaScript every page loads first. That module is
//   replaced with an empty one by src/plugins/prism-with-code-blocks.ts; Prism now arrives with the first page that has
//   a code block, and the languages are registered before that block renders (on the server and in the browser).
// - It does not remount every code block once the page has hydrated. The original keys its content on `useIsBrowser()`
//   so that token colors drawn with the server's light theme are redrawn in a dark page. Docusaurus 3.10 already
//   hydrates with the server's color mode and switches after, as a normal update that React applies to the existing
//   elements; the remount only tokenized and rebuilt every block a second time, in one long task after hydration.
//   tests/e2e/frame.test.mjs checks that the server's blocks are kept and that a dark page gets dark token colors.
import { isValidElement, Children, type ReactNode } from 'react';
import { Prism } from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type { Props } from '@theme/CodeBlock';

prismIncludeLanguages(Prism);

/** Plain-string children joined into one string, as the original does; anything with elements is left as it is. */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (Children.toArray(children).some((child) => isValidElement(child))) return children;
  return Array.isArray(children) ? children.join('') : children;
}

export default function CodeBlock({ children: rawChildren, ...props }: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  return typeof children === 'string' ? (
    <StringContent {...props}>{children}</StringContent>
  ) : (
    <ElementContent {...props}>{children}</ElementContent>
  );
}
