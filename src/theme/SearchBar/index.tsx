// The navbar search, loaded on first use. The search plugin's bar (its code, its worker client and the shortcut
// handling) was part of the JavaScript every page loads first. Until a reader reaches for it, the navbar shows a
// stand-in with the same markup and styles. Pointing at it, focusing it or pressing the shortcut loads the real bar,
// which takes over in one task: it gets the focus and whatever was typed, and loads the index as it always did.
// Unsafe swizzle (wrap): the search plugin's SearchBar is not in the classic theme's swizzle list, so it may change
// in any release; tests/e2e/frame.test.mjs searches through it, and its type comes from '@theme/SearchBar'.
import { useEffect, useLayoutEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import clsx from 'clsx';
import type { WrapperProps } from '@docusaurus/types';
import type SearchBarType from '@theme/SearchBar';
import useIsBrowser from '@docusaurus/useIsBrowser';
import styles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css';
import ringStyles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/LoadingRing/LoadingRing.module.css';
import {
  getKeymapHints,
  matchesKeymap,
  parseKeymap,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/keymap.js';
import { isMacPlatform } from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/platform.js';
import { searchShortcut } from '@site/src/data/search';

type Props = WrapperProps<typeof SearchBarType>;
type StandInState = { input: HTMLInputElement | null; focused: boolean; loading: boolean };

/** What the search plugin's bar shows before it is used: the same elements and classes. */
function StandIn({ state, onWant }: { state: StandInState; onWant: () => void }): ReactNode {
  const isBrowser = useIsBrowser();
  return (
    <div className={clsx('navbar__search', styles.searchBarContainer)} dir="ltr" data-stand-in="">
      <svg aria-hidden="true" className={styles.searchIcon} focusable="false" viewBox="0 0 16 16">
        <path
          fill="currentColor"
          d="M6.02945 10.20327a4.17382 4.17382 0 1 1 4.17382-4.17382 4.15609 4.15609 0 0 1-4.17382 4.17382Zm9.69195 4.2199-4.8225-4.82338A5.88021 5.88021 0 0 0 12.058 6.02856 6.00467 6.00467 0 1 0 9.59979 10.8989l4.82338 4.82338a.89729.89729 0 0 0 1.29912 0 .89749.89749 0 0 0-.00087-1.29909Z"
        />
      </svg>
      <input
        ref={(input) => {
          if (input) state.input = input;
        }}
        placeholder="Search"
        aria-label="Search"
        className={`navbar__search-input ${styles.searchInput}`}
        onMouseEnter={onWant}
        onTouchStart={onWant}
        onFocus={() => {
          state.focused = true;
          onWant();
        }}
        onBlur={(event) => {
          // Removing the focused stand-in must not count as leaving it.
          if (event.currentTarget.isConnected) state.focused = false;
        }}
      />
      <div className={clsx(ringStyles.loadingRing, styles.searchBarLoadingRing)}>
        <div />
        <div />
        <div />
        <div />
      </div>
      {isBrowser && (
        <div className={styles.searchHintContainer}>
          {getKeymapHints(searchShortcut, isMacPlatform()).map((hint) => (
            <kbd key={hint} className={styles.searchHint}>
              {hint}
            </kbd>
          ))}
        </div>
      )}
    </div>
  );
}

/** Rendered with the real bar: hands it the focus and the text the stand-in had, before anything else can run. */
function TakeOver({ state }: { state: StandInState }): null {
  useLayoutEffect(() => {
    const from = state.input;
    const to = document.querySelector<HTMLInputElement>('.navbar__search-input');
    if (!from || !to || to === from) return;
    if (from.value) {
      // The value as typing sets it, so the bar's own onChange sees it.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(to, from.value);
      to.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (state.focused) to.focus();
  }, [state]);
  return null;
}

export default function SearchBarWrapper(props: Props): ReactNode {
  // The plugin's bar once its code has arrived. No Suspense: on the server a boundary would be sent as a pending
  // fallback plus a copy of the stand-in at the end of the page, swapped in by an inline script.
  const [SearchBar, setSearchBar] = useState<ComponentType<Props> | null>(null);
  const state = useRef<StandInState>({ input: null, focused: false, loading: false }).current;
  const want = () => {
    if (state.loading) return;
    state.loading = true;
    void import('@theme-original/SearchBar').then((module) => setSearchBar(() => module.default));
  };

  useEffect(() => {
    if (SearchBar) return undefined;
    const shortcut = parseKeymap(searchShortcut);
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matchesKeymap(event, shortcut)) return;
      event.preventDefault();
      state.input?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [SearchBar, state]);

  // The stand-in stays, focused and typed into, until the bar replaces it in one commit.
  if (!SearchBar) return <StandIn state={state} onWant={want} />;
  return (
    <>
      <SearchBar {...props} />
      <TakeOver state={state} />
    </>
  );
}
