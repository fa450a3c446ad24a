// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts). The scopes
// leaf re-exports only the definers (pikku-command-leaf-indexes.ts `leafEntries`); the ScopeId union is imported by
// path, as `#pikku/scopes/pikku-scopes.gen.js`.
export * from './pikku-scope-types.gen.js'
