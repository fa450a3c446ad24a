/** The llms.txt plugin and its helpers: see llms-txt.mjs. */
import type { LoadContext, Plugin } from '@docusaurus/types';

export type LlmsTxtSection = { title: string; prefix: string };
export type LlmsTxtLink = { title: string; url: string; description?: string };
export type LlmsTxtOptions = {
  sections?: LlmsTxtSection[];
  summary?: string;
  details?: string;
  optional?: LlmsTxtLink[];
};
export declare const mdPathOf: (permalink: string) => string;
export declare function mdxToMarkdown(
  source: string,
  options?: {
    file?: string;
    title?: string;
    description?: string;
    resolveLink?: (url: string) => string;
    docCards?: () => { title: string; href: string; description?: string }[];
    appDir?: string;
  },
): string;
export declare function llmsTxt(options: {
  name: string;
  summary: string;
  details?: string;
  groups: { heading: string; pages: LlmsTxtLink[] }[];
  optional?: LlmsTxtLink[];
}): string;
export declare const SETTINGS_FILE: string;
export declare function readSettings(file: string): LlmsTxtOptions;
/** The plugin takes no options: it reads SETTINGS_FILE. */
declare function llmsTxtPlugin(context: LoadContext): Plugin;
export default llmsTxtPlugin;
