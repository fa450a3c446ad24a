// TypedSecretService at 0.12.85+ (packages/core/src/services/typed-secret-service.ts): a key the generated map marks
// optional resolves `undefined` instead of a wrapper (SecretResult), and CredentialMeta carries `optional`.
// Re-exported by services.d.ts in place of the 0.12.84 class.
import type { SecretValue } from '../../../node_modules/@pikku/core/dist/index.js'
import type { SecretService, SecretValues } from '../../../node_modules/@pikku/core/dist/services/index.js'
import type { CredentialStatus } from '../../../node_modules/@pikku/core/dist/services/typed-secret-service.js'

export type SecretResult<T> = undefined extends T
  ? SecretValue<Exclude<T, undefined>> | undefined
  : SecretValue<T>

export type CredentialMeta = {
  name: string
  displayName: string
  optional?: boolean
  oauth2?: { tokenSecretId: string }
}

export declare class TypedSecretService<TMap = Record<string, unknown>> implements SecretService {
  private secrets
  private credentialsMeta
  private cache
  constructor(secrets: SecretService, credentialsMeta: Record<string, CredentialMeta>)
  getSecret<K extends keyof TMap & string>(key: K): Promise<SecretResult<TMap[K]>>
  getSecret<T = string>(key: string): Promise<SecretValue<T>>
  hasSecret(key: string): Promise<boolean>
  setSecret<K extends string>(key: K, value: K extends keyof TMap ? TMap[K] : unknown): Promise<void>
  deleteSecret(key: string): Promise<void>
  getSecrets<T extends Record<string, unknown> = Record<string, unknown>>(
    keys: (keyof T & string)[],
  ): Promise<Partial<SecretValues<T>>>
  getAllStatus(): Promise<CredentialStatus[]>
  getMissing(): Promise<CredentialStatus[]>
}
