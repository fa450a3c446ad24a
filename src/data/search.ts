/**
 * The navbar search's keyboard shortcut, in the search plugin's keymap format ("mod" is ⌘ on a Mac, Ctrl elsewhere).
 * The config passes it to the plugin, and the navbar's stand-in (src/theme/SearchBar) answers it, with the plugin's
 * own keymap helpers, until the plugin's bar loads.
 */
export const searchShortcut = 'mod+k';
