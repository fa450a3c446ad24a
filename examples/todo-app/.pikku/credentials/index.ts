// Stand-in for the CLI's leaf index (packages/cli/src/functions/wirings/functions/serialize-leaf-index.ts). The CLI writes
// this leaf only when the project declares at least one credential (pikku-command-credentials.ts); `defineCredential`
// itself is in the auth leaf (`#pikku/auth`).
export * from './pikku-credentials.gen.js'
