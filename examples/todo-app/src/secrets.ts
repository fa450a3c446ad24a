import { z } from 'zod'
import { defineSecret } from '#pikku/secrets'

// Schemas are named constants: the CLI types each secret from the schema it points at.
export const ReminderEmailKeySchema = z.string().min(1)
export const DigestWebhookSchema = z.url()

// #region reminderEmail
defineSecret({
  name: 'reminderEmail',
  displayName: 'Reminder e-mail API key',
  description: 'Sends the due-date reminder e-mails through the mail provider',
  secretId: 'REMINDER_EMAIL_API_KEY',
  schema: ReminderEmailKeySchema,
  rotationPeriod: '90d',
  allowedHosts: ['api.mail.example.com'],
})
// #endregion reminderEmail

// #region digestWebhook
defineSecret({
  name: 'digestWebhook',
  displayName: 'Daily digest webhook',
  description: 'Where the daily digest is also posted, when a team sets one',
  secretId: 'DIGEST_WEBHOOK_URL',
  schema: DigestWebhookSchema,
  optional: true,
})
// #endregion digestWebhook

// #region jwtSecret
// The key src/jwt-service.ts signs and checks session tokens with. Without this declaration the CLI reports
// PKU951: the code reads JWT_SECRET, but nothing tells a deployment it has to be provisioned.
export const JwtSecretSchema = z.string().min(32)

defineSecret({
  name: 'jwtSecret',
  displayName: 'Session token signing key',
  description: 'Signs and verifies the HS256 session tokens of src/jwt-service.ts',
  secretId: 'JWT_SECRET',
  schema: JwtSecretSchema,
})
// #endregion jwtSecret
