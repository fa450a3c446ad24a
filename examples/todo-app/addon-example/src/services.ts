import { pikkuAddonServices } from '#pikku/addon/setup'
import { ChatWebhook } from './chat-webhook.js'

// Runs once per installed instance (per namespace), with the logger, variables and secrets of the app that
// installed it. Only the services built here are new; the base ones are passed through.
export const createSingletonServices = pikkuAddonServices(async (_config, { secrets }) => {
  const url = await secrets.getSecret('CHAT_WEBHOOK_URL')
  return { chat: new ChatWebhook(url.reveal()) }
})
