import type { Logger, SecretService, VariablesService } from '@pikku/core/services'
import { TypedSecretService } from '#pikku/secrets'
import { TypedVariablesService } from '#pikku/variables'

export interface ReminderEmail {
  to: string
  subject: string
  text: string
}

/** Sends the app's outgoing messages. Functions get this client; they never see the keys behind it. */
export interface Notifier {
  /** E-mails a reminder through the mail provider. */
  sendEmail(email: ReminderEmail): Promise<void>
  /** Posts a summary to the team's webhook; resolves false when the team has not set one. */
  postDigest(summary: string): Promise<boolean>
}

export const createNotifier = (secrets: SecretService, variables: VariablesService, logger: Logger): Notifier => {
  // The generated wrappers type each lookup from the declarations in src/secrets.ts and src/variables.ts.
  const typedSecrets = new TypedSecretService(secrets)
  const typedVariables = new TypedVariablesService(variables)

  return {
    // #region sendEmail
    async sendEmail({ to, subject, text }) {
      // Read on first use rather than at startup, so the app still runs locally without a mail key.
      // A missing required secret throws here; once found, the typed service keeps it for the process.
      const apiKey = await typedSecrets.getSecret('REMINDER_EMAIL_API_KEY')
      const from = (await typedVariables.get('REMINDER_FROM_ADDRESS')) ?? 'reminders@todo.example.com'

      const response = await fetch('https://api.mail.example.com/v1/messages', {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey.reveal()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from, to, subject, text }),
      })
      if (!response.ok) {
        logger.warn(`Reminder e-mail to ${to} was refused with status ${response.status}`)
      }
    },
    // #endregion sendEmail

    // #region postDigest
    async postDigest(summary) {
      // DIGEST_WEBHOOK_URL is declared optional, so a missing value resolves undefined instead of throwing.
      const webhook = await typedSecrets.getSecret('DIGEST_WEBHOOK_URL')
      if (!webhook) return false
      await fetch(webhook.reveal(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: summary }),
      })
      return true
    },
    // #endregion postDigest
  }
}
