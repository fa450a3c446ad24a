// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts).
// pikku-command-leaf-indexes.ts gives the `scenarios` leaf one entry, `scenarioTypesFile`.
export * from './pikku-scenario-types.gen.js'
