// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts). The secrets
// leaf has two entries, the definer and the typed service (pikku-command-leaf-indexes.ts `leafEntries`).
export * from './pikku-secret-types.gen.js'
export * from './pikku-secrets.gen.js'
