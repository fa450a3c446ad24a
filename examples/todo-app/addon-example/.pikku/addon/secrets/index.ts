// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts).
export * from './pikku-secret-types.gen.js'
export * from './pikku-secrets.gen.js'
