import { pikkuServices, pikkuWireServices } from '#pikku/setup'
import { ConsoleLogger, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { AjvSchemaService } from '@pikku/schema-ajv'
import { InMemoryTodoStore } from './todo-store.js'

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
  }
})

export const createWireServices = pikkuWireServices(async () => ({}))
