// '@pikku/core/services' at 0.12.85+: the 0.12.84 entry point, plus the values that 0.12.84 exported only from
// its root and HEAD exports here (packages/core/src/services/index.ts): the SchedulerService class, which
// scheduler implementations extend, and SecretAccessDeniedError / withoutSecrets.
export * from '../../../node_modules/@pikku/core/dist/services/index.js'
export { SchedulerService, SecretAccessDeniedError, withoutSecrets } from '../../../node_modules/@pikku/core/dist/index.js'
// TypedSecretService as of 0.12.85, whose typed getSecret resolves `undefined` for an optional secret (see that file).
export { TypedSecretService } from './typed-secret-service.js'
export type { CredentialMeta } from './typed-secret-service.js'
