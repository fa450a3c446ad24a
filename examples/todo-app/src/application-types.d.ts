import type { CoreConfig, CoreServices, CoreSingletonServices, CoreUserSession } from '@pikku/core/types'
import type { EventHubService } from '@pikku/core/channel'
import type { WorkflowService } from '@pikku/core/workflow'
import type { CredentialService } from '@pikku/core/services'
import type { TodoTopics } from './todo-events.js'
import type { TodoStore } from './todo-store.js'
import type { Notifier } from './notifier.js'
import type { SlackConnection } from './gateways/slack.adapter.js'

export interface Config extends CoreConfig {
  port: number
}

export interface UserSession extends CoreUserSession {
  userId: string
  role: 'member' | 'admin'
}

export interface SingletonServices extends CoreSingletonServices<Config> {
  todoStore: TodoStore
  /** Pushes to-do changes to subscribed sockets and SSE streams (see src/todo-events.ts). */
  eventHub: EventHubService<TodoTopics>
  /** Sends reminder e-mails and digest posts, built from the app's secrets (see src/notifier.ts). */
  notifier: Notifier
  /** Builds the Slack gateway's adapter from the app's secrets (see src/gateways/slack.adapter.ts). */
  slack: SlackConnection
  /** Stores and drives workflow runs (see src/workflows/). Required here, so functions never see it as optional. */
  workflowService: WorkflowService
  /** Per-user credentials such as linked calendars (see src/credentials.ts). Optional in core; this app builds one. */
  credentialService: CredentialService
}

export interface Services extends CoreServices<SingletonServices> {}
