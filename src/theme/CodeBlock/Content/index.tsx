/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
/**
 * Unsafe swizzle (eject) of CodeBlock/Content: the `<pre>` of a code block and its lines of tokens.
 *
 * Two changes to the classic theme's version, so that a page's code blocks need no Prism in the browser:
 *
 * - Token colors are classes, one per color mode (src/data/tokenStyles.ts), instead of inline styles from the current
 *   mode's theme; the plain colors come from the container's CSS variables. The HTML is then right in both modes.
 * - A block drawn while the page hydrates keeps the lines the server drew: its `<code>` is hydrated as an element with
 *   inner HTML (which React leaves as it is), so the browser neither loads Prism nor tokenizes the code again. A block
 *   knows it is being hydrated when it finds, before hydration ends, the `<pre>` the server drew with its own React
 *   `useId()` (which hydration gives the same value as the server did). A block drawn in the browser (a page reached
 *   inside the app, a block whose code changes, or the dev server's first render, which has no server HTML) finds
 *   none and is tokenized with Prism, loaded on demand (src/components/CodeTokens).
 *
 * Lines are still drawn by `@theme/CodeBlock/Line`, with the props getters prism-react-renderer's Highlight gives it.
 */
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import clsx from 'clsx';
import useIsBrowser from '@docusaurus/useIsBrowser';
import { useThemeConfig } from '@docusaurus/theme-common';
import { useCodeBlockContext } from '@docusaurus/theme-common/internal';
import Line from '@theme/CodeBlock/Line';
import type { Props } from '@theme/CodeBlock/Content';
import type { LineInputProps, LineOutputProps, Token, TokenInputProps, TokenOutputProps } from 'prism-react-renderer';
import { preloadTokensOnIntent, useTokens } from '@site/src/components/CodeTokens';
import { tokenClasses, tokenDictionary } from '@site/src/data/tokenStyles';
import styles from './styles.module.css';

/** The inner HTML a kept block hydrates with: React compares nothing and keeps the server's lines. */
const SERVER_LINES = { __html: '' };

/** Lines of plain text, for a block drawn in the browser before Prism has loaded. */
const plainLines = (code: string): Token[][] =>
  code
    .split(/\r\n|\r|\n/)
    .map((content) => (content ? [{ types: ['plain'], content }] : [{ types: ['plain'], content: '\n', empty: true }]));

const getLineProps = ({ className, line: _line, ...rest }: LineInputProps): LineOutputProps => ({
  ...rest,
  className: clsx('token-line', className),
});

/** prism-react-renderer's getTokenProps, with the color-mode classes in place of the inline style. */
function useGetTokenProps(language: string) {
  const { prism } = useThemeConfig();
  return useMemo(() => {
    const dictionaries = {
      light: tokenDictionary(prism.theme, language),
      dark: tokenDictionary(prism.darkTheme ?? prism.theme, language),
    };
    return ({ token, className, style, ...rest }: TokenInputProps): TokenOutputProps => ({
      ...rest,
      className: clsx('token', ...token.types, tokenClasses(dictionaries, token.types), className),
      children: token.content,
      style: token.empty ? { display: 'inline-block', ...style } : style,
    });
  }, [prism.theme, prism.darkTheme, language]);
}

/** Whether the page's HTML, as the server sent it, has the `<pre>` of the block with this `useId()`. */
const drawnByServer = (id: string): boolean =>
  typeof document !== 'undefined' && document.querySelector(`pre[data-block="${CSS.escape(id)}"]`) !== null;

export default function CodeBlockContent({ className }: Props): ReactNode {
  const { metadata, wordWrap } = useCodeBlockContext();
  const { code, lineNumbersStart, lineClassNames } = metadata;
  const language = metadata.language.toLowerCase();
  const id = useId();
  const isBrowser = useIsBrowser();
  // Only a block of the page being hydrated has server lines to keep (see the header); `useIsBrowser` is false until
  // hydration ends, and the server's <pre> of this block carries the same id.
  const [serverCode] = useState(() => (!isBrowser && drawnByServer(id) ? code : null));
  const keepServerLines = serverCode === code;
  const lines = useTokens(code, language, !keepServerLines);
  const getTokenProps = useGetTokenProps(language);
  useEffect(preloadTokensOnIntent, []);

  const codeProps = {
    className: clsx(styles.codeBlockLines, lineNumbersStart !== undefined && styles.codeBlockLinesWithNumbering),
    style: lineNumbersStart === undefined ? undefined : { counterReset: `line-count ${lineNumbersStart - 1}` },
  };
  return (
    <pre
      ref={wordWrap.codeBlockRef}
      data-block={id}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={clsx(className, `prism-code language-${language}`, styles.codeBlock, 'thin-scrollbar')}
    >
      {keepServerLines ? (
        <code {...codeProps} dangerouslySetInnerHTML={SERVER_LINES} suppressHydrationWarning />
      ) : (
        <code {...codeProps}>
          {(lines ?? plainLines(code)).map((line, i) => (
            <Line
              key={i}
              line={line}
              getLineProps={getLineProps}
              getTokenProps={getTokenProps}
              classNames={lineClassNames[i]}
              showLineNumbers={lineNumbersStart !== undefined}
            />
          ))}
        </code>
      )}
    </pre>
  );
}
