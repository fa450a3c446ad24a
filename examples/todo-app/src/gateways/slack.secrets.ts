import { z } from 'zod'
import { defineSecret } from '#pikku/secrets'

// #region slackSecrets
// The two values the Slack gateway reads (src/gateways/slack.adapter.ts), from the Slack app's settings page.
export const SlackSigningSecretSchema = z.string().min(1)
export const SlackBotTokenSchema = z.string().min(1)

defineSecret({
  name: 'slackSigningSecret',
  displayName: 'Slack signing secret',
  description: 'Proves that a request to /webhooks/slack was sent by Slack',
  secretId: 'SLACK_SIGNING_SECRET',
  schema: SlackSigningSecretSchema,
})

defineSecret({
  name: 'slackBotToken',
  displayName: 'Slack bot token',
  description: 'Lets the to-do bot post its replies in the workspace',
  secretId: 'SLACK_BOT_TOKEN',
  schema: SlackBotTokenSchema,
})
// #endregion slackSecrets
