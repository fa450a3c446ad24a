// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts). The auth
// leaf's entries are `authGuardsFile` and, in a project that declares better-auth, `authTypesFile`
// (packages/cli/src/functions/wirings/functions/pikku-command-leaf-indexes.ts `leafEntries`).
export * from './pikku-auth-types.gen.js'
export * from './auth.types.js'
