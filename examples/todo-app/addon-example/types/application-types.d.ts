import type { CoreConfig, CoreServices, CoreSingletonServices, CoreUserSession } from '@pikku/core/types'
import type { ChatWebhook } from '../src/chat-webhook.js'

export interface Config extends CoreConfig {}

export interface UserSession extends CoreUserSession {}

/** The addon's own services, on top of the logger, variables and secrets the consuming app hands it. */
export interface SingletonServices extends CoreSingletonServices<Config> {
  chat: ChatWebhook
}

export interface Services extends CoreServices<SingletonServices> {}
