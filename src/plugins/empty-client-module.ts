// Stands in for a client module that src/plugins/prism-with-code-blocks.ts takes out of the main bundle.
export {};
