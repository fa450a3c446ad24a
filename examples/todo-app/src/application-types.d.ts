import type { CoreConfig, CoreServices, CoreSingletonServices, CoreUserSession } from '@pikku/core/types'
import type { EventHubService } from '@pikku/core/channel'
import type { TodoTopics } from './todo-events.js'
import type { TodoStore } from './todo-store.js'

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
}

export interface Services extends CoreServices<SingletonServices> {}
