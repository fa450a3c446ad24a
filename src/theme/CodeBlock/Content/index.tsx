/**
 * Unsafe swizzle (eject) of CodeBlock/Content: the `<pre>` of a code block and its lines of tokens.
 *
 * Two changes to the classic theme's version, so that a page's code blocks need no Prism in the browser:
 *
 * - Token colors are classes, one per color mode (src/data/tokenStyles.ts), instead of inline styles from the current
 *   mode's theme; the plain colors come from the container's CSS variables. The HTML is then right in both modes.
 * - A block drawn while the page hydrates keeps the lines the server drew: its `<code>` is hydrated as an element with
 *   inner HTML (which React leaves as it is), so the browser neither loads Prism nor tokenizes the code again. A block
 *   drawn later in the browser (a page reached inside the app, or a block whose code changes) is tokenized with
 *   Prism, loaded on demand (src/components/CodeTokens).
 *
 * Lines are still drawn by `@theme/CodeBlock/Line`, with the props getters prism-react-renderer's Highlight gives it.
 */
import { useEffect, useMemo, useState, type ReactNode, type RefObject } from 'react';
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

export default function CodeBlockContent({ className }: Props): ReactNode {
  const { metadata, wordWrap } = useCodeBlockContext();
  const { code, lineNumbersStart, lineClassNames } = metadata;
  const language = metadata.language.toLowerCase();
  const isBrowser = useIsBrowser();
  // Only a block of the page being hydrated has server lines to keep; `useIsBrowser` is false until hydration ends.
  const [serverCode] = useState(() =>
    typeof window !== 'undefined' && Boolean(process.env.HYDRATE_CLIENT_ENTRY) && !isBrowser ? code : null,
  );
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
      // Typed for React 19's refs by Docusaurus; the site runs React 18.
      ref={wordWrap.codeBlockRef as RefObject<HTMLPreElement>}
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
