// '@pikku/core/classification' (new in 0.12.85), on the 0.12.84 root entry point.
export { createSecretValue } from '../../../node_modules/@pikku/core/dist/index.js'
export type { SecretValue } from '../../../node_modules/@pikku/core/dist/index.js'
