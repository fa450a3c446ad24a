/**
 * The social image (Open Graph and Twitter) of each section of the site. The sections and their texts are in
 * social-images.json, which scripts/social-images.mjs also reads to draw the images into static/img/social/.
 *
 * Markdown pages get their section's image as the `image` front matter (docusaurus.config.ts, parseFrontMatter),
 * so the choice is made at build time and adds nothing to the JavaScript every page loads. A page that names its
 * own `image` keeps it. Pages without front matter (the home page, listings) use the fallback, themeConfig.image.
 */
import data from './social-images.json';
import { sectionImage } from './social-image';

export { sectionImage };

export type SocialSection = (typeof data.sections)[number];

export const socialSections: SocialSection[] = data.sections;

/** Site path of the image of a section of social-images.json. */
export const socialImagePath = (section: SocialSection): string => sectionImage(section.section);

/** The section a route belongs to: the one with the longest matching prefix ('/' matches every route). */
export function socialSectionOf(pathname: string): SocialSection {
  const matches = (prefix: string) =>
    prefix === '/' || pathname === prefix || pathname.startsWith(`${prefix.replace(/\/$/, '')}/`);
  let best: { section: SocialSection; length: number } | undefined;
  for (const section of socialSections)
    for (const prefix of section.prefixes)
      if (matches(prefix) && (!best || prefix.length > best.length)) best = { section, length: prefix.length };
  if (!best) throw new Error(`no section of src/data/social-images.json matches ${pathname}; one needs the prefix '/'`);
  return best.section;
}

/** The route a content file is served under, as far as its section goes: docs/x/y.mdx -> /docs/x/y, blog -> /blog. */
export function routeOfSource(filePath: string): string {
  const m = /^.*\/(docs|why|blog|src\/pages)\/(.*?)(?:\/?index)?\.mdx?$/.exec(filePath.replace(/\\/g, '/'));
  if (!m) return '/';
  const [, root, rest] = m;
  if (root === 'blog') return '/blog';
  const base = root === 'src/pages' ? '' : `/${root}`;
  return `${base}/${rest}`.replace(/\/$/, '') || '/';
}
