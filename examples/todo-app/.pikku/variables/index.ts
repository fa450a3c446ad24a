// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts). The variables
// leaf has two entries, the definer and the typed service (pikku-command-leaf-indexes.ts `leafEntries`).
export * from './pikku-variable-types.gen.js'
export * from './pikku-variables.gen.js'
