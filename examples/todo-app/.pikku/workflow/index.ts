// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts).
// pikku-command-leaf-indexes.ts gives the `workflow` leaf one entry, `workflowTypesFile`.
export * from './pikku-workflow-types.gen.js'
