import { z } from 'zod'
import { defineSecret } from '#pikku/addon/secrets'

// The secret's schema is a named, exported variable: the CLI reads `schema` as a reference to it (an inline
// `z.string()` there is PKU111) and imports it into the generated schema tree.
export const chatWebhookUrlSchema = z.string().url()

// The one secret this addon reads. Declaring it is what lets the addon read it at all: an installed addon's
// secrets service refuses every name it did not declare (unless the app grants more).
defineSecret({
  name: 'chat-webhook',
  displayName: 'Team chat webhook URL',
  description: 'The incoming-webhook URL messages are posted to',
  secretId: 'CHAT_WEBHOOK_URL',
  schema: chatWebhookUrlSchema,
})
