/**
 * Stand-in for .pikku/credentials/pikku-credentials.gen.ts, which `pikku all` writes from the project's
 * `defineCredential` calls. Modelled on packages/cli/src/functions/wirings/credentials/serialize-credentials-types.ts
 * (cli 0.12.113), with this app's declaration (src/credentials.ts) filled in. No deliberate differences in the TypeScript.
 * The JSON sidecar beside this file holds the declarations; its `sourceFile` paths are relative to the app here,
 * where the CLI writes the absolute path of the declaring file.
 */
import { TypedCredentialService as CoreTypedCredentialService } from '@pikku/core/services'
import type { CredentialMetaInfo } from '@pikku/core/services'
import type { CredentialService } from '@pikku/core/services'
import type { OAuth2CredentialConfig } from '@pikku/core/secret'
import type { z } from 'zod'
import { CalendarTokenSchema } from '../../src/credentials.js'

export type CredentialsMap = {
  'google-calendar': z.infer<typeof CalendarTokenSchema>
}

const CREDENTIALS_META: Record<string, CredentialMetaInfo> = {
  'google-calendar': { name: 'google-calendar', displayName: "Google Calendar", type: 'wire', oauth2: true }
}

export const CREDENTIAL_OAUTH2_CONFIGS = {
  'google-calendar': {
    "appCredentialSecretId": "GOOGLE_CALENDAR_APP",
    "tokenSecretId": "GOOGLE_CALENDAR_TOKENS",
    "authorizationUrl": "https://accounts.google.com/o/oauth2/v2/auth",
    "tokenUrl": "https://oauth2.googleapis.com/token",
    "scopes": [
      "https://www.googleapis.com/auth/calendar.events"
    ],
    "pkce": true,
    "type": "wire"
  }
} satisfies Record<
  string,
  OAuth2CredentialConfig & {
    appCredentialSecretId: string
    type: 'singleton' | 'wire'
  }
>

export class TypedCredentialService extends CoreTypedCredentialService<CredentialsMap> {
  constructor(credentials: CredentialService) {
    super(credentials, CREDENTIALS_META)
  }
}
