/**
 * Site path of a section's social image (static/img/social/<section>.png). Apart from social.ts so that theme
 * components can name an image without bundling the sections' texts.
 */
export const sectionImage = (section: string): string => `/img/social/${section}.png`;
