import type { CoreConfig, CoreServices, CoreSingletonServices, CoreUserSession } from '@pikku/core/types'
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
}

export interface Services extends CoreServices<SingletonServices> {}
