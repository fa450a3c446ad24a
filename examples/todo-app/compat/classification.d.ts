// '@pikku/core/classification' (new in 0.12.85), on the 0.12.84 root entry point.
export { createSecretValue, isSecretValue, REDACTED, SecretCoercionError } from '../../../node_modules/@pikku/core/dist/index.js'
export type { Safe, SecretValue } from '../../../node_modules/@pikku/core/dist/index.js'
export type { Private, Pii, Secret } from '../../../node_modules/@pikku/core/dist/index.js'
