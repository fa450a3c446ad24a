/**
 * Stand-in for .pikku/addon/secrets/pikku-secrets.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/secrets/serialize-secrets-types.ts (cli 0.12.113), for the one secret
 * src/secrets.ts declares. The side-effect import of the metadata sidecar (pikku-secrets-meta.gen.json) is
 * left out: this stand-in has no sidecar.
 */
import { TypedSecretService as CoreTypedSecretService } from '@pikku/core/services'
import type { CredentialMeta, SecretService } from '@pikku/core/services'
import type { z } from 'zod'

/** Each declared secret id and the type its schema gives it (src/secrets.ts: `z.string().url()`). */
export type CredentialsMap = {
  CHAT_WEBHOOK_URL: z.infer<z.ZodString>
}

const CREDENTIALS_META: Record<string, CredentialMeta> = {
  CHAT_WEBHOOK_URL: { name: 'chat-webhook', displayName: 'Team chat webhook URL' },
}

export class TypedSecretService extends CoreTypedSecretService<CredentialsMap> {
  constructor(secrets: SecretService) {
    super(secrets, CREDENTIALS_META)
  }
}
