/**
 * A code block's tokens, in the browser (the client build's stand-in for ./index.ts).
 *
 * A page's own code blocks come highlighted in its HTML and keep those lines when the page hydrates
 * (src/theme/CodeBlock/Content), so the browser needs Prism only for a block it draws itself: on a page reached inside
 * the app, or when a block's code changes. Prism then loads as a chunk of its own; until it has, the block shows its
 * code as plain text. It is also loaded, while the browser is idle, after the reader's first pointer or key event on a
 * page with code blocks, so the next page's blocks are usually highlighted at once.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Token } from 'prism-react-renderer';
import type { Tokenize } from './prism';

let tokenize: Tokenize | null = null;
let loading: Promise<void> | null = null;

function loadTokenizer(): Promise<void> {
  loading ??= import(/* webpackChunkName: "prism" */ './prism').then((module) => {
    tokenize = module.tokenize;
  });
  return loading;
}

/** The lines of tokens of `code`, or null when `wanted` is false or while Prism is still loading. */
export function useTokens(code: string, language: string, wanted: boolean): Token[][] | null {
  const [loaded, setLoaded] = useState(tokenize !== null);
  useEffect(() => {
    if (!wanted || loaded) return undefined;
    let current = true;
    void loadTokenizer().then(() => current && setLoaded(true));
    return () => {
      current = false;
    };
  }, [wanted, loaded]);
  return useMemo(
    () => (wanted && loaded && tokenize ? tokenize(code, language) : null),
    [code, language, wanted, loaded],
  );
}

const INTENT_EVENTS = ['pointerover', 'touchstart', 'keydown', 'focusin'] as const;
let listening = false;

/** After the first pointer or key event, loads Prism while the browser is idle. Called by each block once mounted. */
export function preloadTokensOnIntent(): void {
  if (listening || tokenize !== null) return;
  listening = true;
  const onIntent = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, true);
    const load = () => void loadTokenizer();
    if ('requestIdleCallback' in window) requestIdleCallback(load);
    else setTimeout(load, 0);
  };
  for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
}
