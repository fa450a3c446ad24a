// src/services.ts as the auth-middleware skill leaves it: the app's services plus the `jwt` service that
// authBearer, authCookie and authAPIKey decode credentials with. Keep it in step with src/services.ts.
// #region file
import { pikkuServices, pikkuWireServices } from '#pikku/setup'
import { ConsoleLogger, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { LocalEventHubService } from '@pikku/core/channel/local'
import { CFWorkerSchemaService } from '@pikku/schema-cfworker'
import { InMemoryTodoStore } from './todo-store.js'
import type { TodoTopics } from './todo-events.js'
import { createJWTService } from './jwt-service.js'

export const createSingletonServices = pikkuServices(async (config) => {
  const logger = new ConsoleLogger()
  const variables = new LocalVariablesService()
  const secrets = new LocalSecretService(variables)
  return {
    config,
    logger,
    variables,
    secrets,
    jwt: await createJWTService(secrets, logger),
    schema: new CFWorkerSchemaService(logger),
    todoStore: new InMemoryTodoStore(),
    eventHub: new LocalEventHubService<TodoTopics>(),
  }
})

export const createWireServices = pikkuWireServices(async () => ({}))
// #endregion file
