// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts).
export * from './pikku-function-types.gen.js'
