/** Where the Markdown copy of a page is served: see md-path.mjs. */
export declare const mdPathOf: (permalink: string) => string;
