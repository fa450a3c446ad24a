/**
 * The navbar search's keyboard shortcut: the search plugin's "mod+k" (⌘K on a Mac, Ctrl+K elsewhere). The config
 * passes it to the plugin, and the navbar's stand-in (src/theme/SearchBar) answers it until the plugin's bar loads.
 */
export const searchShortcutKey = 'k';
export const searchShortcut = `mod+${searchShortcutKey}`;
