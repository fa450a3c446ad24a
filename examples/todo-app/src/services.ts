import { pikkuServices, pikkuWireServices } from '#pikku/setup'
import { ConsoleLogger, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { LocalEventHubService } from '@pikku/core/channel/local'
import { AjvSchemaService } from '@pikku/schema-ajv'
import { InMemoryTodoStore } from './todo-store.js'
import type { TodoTopics } from './todo-events.js'

export const createSingletonServices = pikkuServices(async (config) => {
  const logger = new ConsoleLogger()
  const variables = new LocalVariablesService()
  return {
    config,
    logger,
    variables,
    secrets: new LocalSecretService(variables),
    schema: new AjvSchemaService(logger),
    todoStore: new InMemoryTodoStore(),
    eventHub: new LocalEventHubService<TodoTopics>(),
  }
})

export const createWireServices = pikkuWireServices(async () => ({}))
