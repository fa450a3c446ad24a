import { themes, type PrismTheme } from 'prism-react-renderer';

/** Replace token colors by exact match, keeping everything else about the theme. */
function recolor(theme: PrismTheme, colors: Record<string, string>): PrismTheme {
  return {
    ...theme,
    styles: theme.styles.map((entry) => {
      const replacement = entry.style.color ? colors[entry.style.color.toLowerCase().replace(/\s/g, '')] : undefined;
      return replacement ? { ...entry, style: { ...entry.style, color: replacement } } : entry;
    }),
  };
}

/**
 * The code-block themes: GitHub (light) and Dracula (dark), with the token colors that fall
 * below WCAG AA contrast (4.5:1) on their own backgrounds darkened or lightened just enough.
 * The accessibility tests check every route with these.
 */
export const lightCodeTheme = recolor(themes.github, {
  '#999988': '#6d6d61', // comments
  '#e3116c': '#d61066', // strings
  '#36acaa': '#257776', // numbers, booleans, properties
  '#00a4db': '#00759d', // keywords
  '#d73a49': '#ca3745', // functions, tags
});

export const darkCodeTheme = recolor(themes.dracula, {
  'rgb(98,114,164)': '#8c97bc', // comments
});
