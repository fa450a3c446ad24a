/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
// Safe swizzle (eject) of CodeBlock, Docusaurus's ten-line entry that picks the string or element content. One change:
// it does not remount every code block once the page has hydrated. The original keys its content on `useIsBrowser()`
// so that token colors drawn with the server's light theme are redrawn in a dark page; here token colors are classes
// for both color modes (src/theme/CodeBlock/Content), and a page's blocks keep the lines the server drew.
// tests/e2e/frame.test.mjs checks that the server's blocks are kept and that a dark page gets dark token colors.
//
// Prism's extra languages (bash, toml, diff, ini) are registered by src/components/CodeTokens/prism.ts, the module
// that brings Prism, rather than by Docusaurus's client module, which put all of Prism into every page's first
// JavaScript (src/plugins/prism-with-code-blocks.ts replaces it with an empty one).
import { isValidElement, Children, type ReactNode } from 'react';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type { Props } from '@theme/CodeBlock';

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
