// src/services.ts as the kysely skill leaves it: the auth-middleware skill's version (src/services.auth.skill.ts) with
// the to-dos kept in PostgreSQL. Keep it in step with src/services.auth.skill.ts.
// #region file
import { pikkuServices, pikkuWireServices } from '#pikku/setup'
import { ConsoleLogger, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { LocalEventHubService } from '@pikku/core/channel/local'
import { CFWorkerSchemaService } from '@pikku/schema-cfworker'
import type { TodoTopics } from './todo-events.js'
import { createJWTService } from './jwt-service.js'
import { KyselyTodoStore, createKyselyDB } from './kysely-todo-store.js'

export const createSingletonServices = pikkuServices(async (config) => {
  const logger = new ConsoleLogger()
  const variables = new LocalVariablesService()
  const secrets = new LocalSecretService(variables)
  const databaseUrl = variables.get('DATABASE_URL') ?? 'postgres://postgres:postgres@localhost:5432/todos'
  return {
    config,
    logger,
    variables,
    secrets,
    jwt: await createJWTService(secrets, logger),
    schema: new CFWorkerSchemaService(logger),
    todoStore: new KyselyTodoStore(createKyselyDB(databaseUrl)),
    eventHub: new LocalEventHubService<TodoTopics>(),
  }
})

export const createWireServices = pikkuWireServices(async () => ({}))
// #endregion file
