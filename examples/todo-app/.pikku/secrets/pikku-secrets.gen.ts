/**
 * Stand-in for .pikku/secrets/pikku-secrets.gen.ts, which `pikku all` writes from the project's `defineSecret` calls.
 * Modelled on packages/cli/src/functions/wirings/secrets/serialize-secrets-types.ts (cli 0.12.113), with this app's
 * declarations (src/secrets.ts, src/credentials.ts, and the actor secret the CLI declares for a project with personas
 * in .pikku/scopes/pikku-personas-secrets.gen.ts) filled in. No deliberate differences in the TypeScript: an `optional` secret becomes an optional
 * property of the map, which is what makes the typed `getSecret` resolve `undefined` for it. The app's OAuth2 app
 * secret is an ordinary `defineSecret` (src/credentials.ts); the serializer gives only a secret declared with `oauth2`
 * meta the OAuth2AppCredential / OAuth2Token entries, and `defineSecret` takes no `oauth2` field.
 * The JSON sidecar beside this file holds the declarations; its `sourceFile` paths are relative to the app here,
 * where the CLI writes the absolute path of the declaring file.
 */
import { TypedSecretService as CoreTypedSecretService } from '@pikku/core/services'
import type { CredentialMeta } from '@pikku/core/services'
import type { SecretService } from '@pikku/core/services'
/**
 * Side-effect import of the metadata sidecar, so that tsc emits the .json
 * alongside this file (as generated).
 */
import './pikku-secrets-meta.gen.json' with { type: 'json' }
import type { z } from 'zod'
import { ReminderEmailKeySchema, DigestWebhookSchema } from '../../src/secrets.js'
import { CalendarOAuthAppSchema } from '../../src/credentials.js'
import { ScenarioActorSecretSchema } from '../scopes/pikku-personas-secrets.gen.js'

export type CredentialsMap = {
  'REMINDER_EMAIL_API_KEY': z.infer<typeof ReminderEmailKeySchema>
  'DIGEST_WEBHOOK_URL'?: z.infer<typeof DigestWebhookSchema>
  'GOOGLE_CALENDAR_APP': z.infer<typeof CalendarOAuthAppSchema>
  'SCENARIO_ACTOR_SECRET'?: z.infer<typeof ScenarioActorSecretSchema>
}

const CREDENTIALS_META: Record<string, CredentialMeta> = {
  'REMINDER_EMAIL_API_KEY': { name: 'reminderEmail', displayName: "Reminder e-mail API key" },
  'DIGEST_WEBHOOK_URL': { name: 'digestWebhook', displayName: "Daily digest webhook", optional: true },
  'GOOGLE_CALENDAR_APP': { name: 'googleCalendarApp', displayName: "Google Calendar OAuth app" },
  'SCENARIO_ACTOR_SECRET': { name: 'scenarioActorSecret', displayName: "Scenario Actor Secret", optional: true }
}

export class TypedSecretService extends CoreTypedSecretService<CredentialsMap> {
  constructor(secrets: SecretService) {
    super(secrets, CREDENTIALS_META)
  }
}
