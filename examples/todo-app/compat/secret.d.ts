// '@pikku/core/secret' at 0.12.85+: as 0.12.84, plus `optional` on a secret declaration (packages/core/src/wirings/secret/
// secret.types.ts; added in 6d87f4886, #1320). Only CoreSecret and defineSecret differ; the rest is re-exported.
import type { CoreSecret as CoreSecret0_12_84 } from '../../../node_modules/@pikku/core/dist/wirings/secret/index.js'
export type {
  OAuth2CredentialConfig,
  SecretDefinitionMeta,
  SecretDefinitionsMeta,
  SecretDefinitions,
} from '../../../node_modules/@pikku/core/dist/wirings/secret/index.js'
export { validateAndBuildSecretDefinitionsMeta } from '../../../node_modules/@pikku/core/dist/wirings/secret/index.js'

export type CoreSecret<T = unknown> = CoreSecret0_12_84<T> & {
  /** Required by default; an optional secret resolves `undefined` from the typed service instead of throwing. */
  optional?: boolean
}

export declare const defineSecret: <T>(_config: CoreSecret<T>) => void
