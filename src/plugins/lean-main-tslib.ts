// Stands in for tslib where @docusaurus/utils-common requires it in the browser build (src/plugins/lean-main.ts).
// utils-common is CommonJS and calls one tslib helper, but a CommonJS require keeps every export of tslib's ES
// module, so all of tslib (3.8 KB gzip) was part of the main bundle. The plugin checks at build time that every helper
// utils-common calls is exported here.

/** tslib's `__importDefault`: a CommonJS module seen as an ES module with a default export. */
export function __importDefault<T>(mod: T): T | { default: T } {
  return mod && (mod as { __esModule?: boolean }).__esModule ? mod : { default: mod };
}
