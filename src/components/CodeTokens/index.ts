/**
 * A code block's tokens, on the server: Prism is part of the server's bundle and tokenizes at once.
 *
 * The browser's build replaces this module with ./browser.ts (src/plugins/prism-with-code-blocks.ts), which loads
 * Prism only when a block has to be drawn in the browser. Both export the same functions.
 */
import { useMemo } from 'react';
import type { Token } from 'prism-react-renderer';
import { tokenize } from './prism';

/** The lines of tokens of `code`, or null when `wanted` is false (a block that keeps the lines of its HTML). */
export function useTokens(code: string, language: string, wanted: boolean): Token[][] | null {
  return useMemo(() => (wanted ? tokenize(code, language) : null), [code, language, wanted]);
}

/** Loads Prism ahead of need in the browser; nothing to do on the server. */
export function preloadTokensOnIntent(): void {}
