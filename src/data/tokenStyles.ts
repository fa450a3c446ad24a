/**
 * Code-token colors as CSS classes, for both color modes at once.
 *
 * prism-react-renderer colors each token with an inline style from one theme, so a page drawn with the light theme has
 * to be drawn again to turn dark. Here each token gets one class per color mode instead: the class names the style the
 * token has in that mode's theme (worked out exactly as prism-react-renderer does), and a stylesheet made from the two
 * themes at build time (tokenStylesCss, written by src/plugins/prism-with-code-blocks.ts) gives each class its style
 * under `[data-theme]`. A block drawn on the server is then right in either mode without any JavaScript.
 *
 * This module imports no Prism: the browser computes the classes of a block it draws itself from the themes in the
 * site config.
 */
import type { PrismTheme } from 'prism-react-renderer';

type Style = Record<string, string | number | undefined>;
/** A theme's style of each token type, for one language (prism-react-renderer's themeToDict). */
export type TokenDictionary = Record<string, Style>;

/** The two color modes and the prefix of their classes. */
export const MODES = { light: 'tl', dark: 'td' } as const;
export type Mode = keyof typeof MODES;

/** Each token type's style in `theme` for `language`: every entry that lists the type, merged in order. */
export function tokenDictionary(theme: PrismTheme, language: string): TokenDictionary {
  const dictionary: TokenDictionary = {};
  for (const { types, style, languages } of theme.styles) {
    if (languages && !languages.includes(language as never)) continue;
    for (const type of types) dictionary[type] = { ...dictionary[type], ...(style as Style) };
  }
  return dictionary;
}

/** The style of a token with these types (outermost first): each type's style merged in order, later types winning. */
export function resolvedStyle(dictionary: TokenDictionary, types: readonly string[]): Style {
  if (types.length === 1 && types[0] === 'plain') return {};
  return Object.assign({}, ...types.map((type) => dictionary[type]));
}

const kebab = (property: string) => property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A style as CSS declarations, properties sorted: `color:#393A34;font-style:italic`. Empty for no style. */
export function declarations(style: Style): string {
  return Object.keys(style)
    .filter((property) => style[property] !== undefined && style[property] !== '')
    .sort()
    .map((property) => `${kebab(property)}:${style[property]}`)
    .join(';');
}

/** FNV-1a, 32 bits, in base 36: a short name that is the same on the server, in the browser and in the CSS. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The class of a style in a color mode, or undefined for a token with no style of its own (it keeps the plain color). */
export function styleClass(mode: Mode, style: Style): string | undefined {
  const css = declarations(style);
  return css ? `${MODES[mode]}-${hash(css)}` : undefined;
}

/** The classes of a token with these types: one per color mode whose theme styles it. */
export function tokenClasses(
  dictionaries: Record<Mode, TokenDictionary>,
  types: readonly string[],
): string | undefined {
  const classes = (Object.keys(MODES) as Mode[])
    .map((mode) => styleClass(mode, resolvedStyle(dictionaries[mode], types)))
    .filter(Boolean);
  return classes.length > 0 ? classes.join(' ') : undefined;
}

/**
 * Every style a token can have in a theme: for each property, any value some entry gives it, or none. A token's style
 * takes each property from one entry, so this holds them all (and some no token has, which cost a line of CSS each).
 */
export function possibleStyles(theme: PrismTheme): Style[] {
  const values = new Map<string, Set<string | number>>();
  for (const { style } of theme.styles)
    for (const [property, value] of Object.entries(style as Style))
      if (value !== undefined) values.set(property, (values.get(property) ?? new Set()).add(value));
  let styles: Style[] = [{}];
  for (const [property, options] of values)
    styles = styles.flatMap((style) => [style, ...[...options].map((value) => ({ ...style, [property]: value }))]);
  return styles.filter((style) => declarations(style) !== '');
}

/** The stylesheet: a rule for every possible style of each mode's theme, under that mode's `[data-theme]`. */
export function tokenStylesCss(themes: Record<Mode, PrismTheme>): string {
  const rules: string[] = [];
  for (const mode of Object.keys(MODES) as Mode[]) {
    const seen = new Map<string, string>();
    for (const style of possibleStyles(themes[mode])) {
      const name = styleClass(mode, style)!;
      const css = declarations(style);
      if (seen.has(name) && seen.get(name) !== css)
        throw new Error(`tokenStyles: two ${mode} styles share the class ${name} (${seen.get(name)} and ${css})`);
      seen.set(name, css);
    }
    for (const [name, css] of seen) rules.push(`[data-theme='${mode}'] .${name}{${css}}`);
  }
  return `${rules.join('\n')}\n`;
}
