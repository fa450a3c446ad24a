// src/services.ts as the project-setup skill leaves it: the config, logger, variables, secrets and schema services
// every project has, plus the to-do store and the typed event hub. Later skills replace it
// (src/services.auth.skill.ts, src/services.kysely.skill.ts). Keep it in step with src/services.ts.
// #region file
import { pikkuServices, pikkuWireServices } from '#pikku/setup'
import { ConsoleLogger, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { LocalEventHubService } from '@pikku/core/channel/local'
import { CFWorkerSchemaService } from '@pikku/schema-cfworker'
import { InMemoryTodoStore } from './todo-store.js'
import type { TodoTopics } from './todo-events.js'

export const createSingletonServices = pikkuServices(async (config) => {
  const logger = new ConsoleLogger()
  const variables = new LocalVariablesService()
  const secrets = new LocalSecretService(variables)
  return {
    config,
    logger,
    variables,
    secrets,
    schema: new CFWorkerSchemaService(logger),
    todoStore: new InMemoryTodoStore(),
    eventHub: new LocalEventHubService<TodoTopics>(),
  }
})

export const createWireServices = pikkuWireServices(async () => ({}))
// #endregion file
