// Types for the search plugin's keymap helpers (shipped as JavaScript only), which src/theme/SearchBar's stand-in
// uses so it reads the shortcut exactly as the plugin's bar does.
declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/keymap.js' {
  export type Keymap = { key: string; ctrl: boolean; alt: boolean; shift: boolean; meta: boolean };
  export function parseKeymap(keymap: string): Keymap;
  export function matchesKeymap(event: KeyboardEvent, keymap: Keymap): boolean;
  export function getKeymapHints(keymap: string, isMac: boolean): string[];
}
declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/platform.js' {
  export function isMacPlatform(): boolean;
}

// The search plugin's results page (src/theme/SearchPage wraps it); the plugin ships no type for it.
declare module '@theme/SearchPage' {
  import type { ReactNode } from 'react';

  export default function SearchPage(): ReactNode;
}
