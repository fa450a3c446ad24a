import { pikkuServices, pikkuWireServices } from '#pikku/setup'
import { ConsoleLogger, InMemoryWorkflowService, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { LocalCredentialService } from '@pikku/core/services'
import { LocalEventHubService } from '@pikku/core/channel/local'
import { CFWorkerSchemaService } from '@pikku/schema-cfworker'
import { InMemoryTodoStore } from './todo-store.js'
import { createNotifier } from './notifier.js'
import { createSlackConnection } from './gateways/slack.adapter.js'
import type { TodoTopics } from './todo-events.js'

export const createSingletonServices = pikkuServices(async (config, existingServices) => {
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
    // #region notifier
    // Built from secrets and variables here, so functions receive the client and never the keys.
    notifier: createNotifier(secrets, variables, logger),
    // #endregion notifier
    // #region slack
    // The Slack gateway's adapter, built from secrets on first use (see src/gateways/slack.adapter.ts).
    slack: createSlackConnection(secrets),
    // #endregion slack
    // #region credentialService
    // Per-user credentials such as linked calendars; in memory here, a database or better-auth in production.
    credentialService: new LocalCredentialService(),
    // #endregion credentialService
    // #region workflowService
    // One process, state in memory: right for development and tests. A deployment passes a persistent one in.
    workflowService: existingServices.workflowService ?? new InMemoryWorkflowService(),
    // #endregion workflowService
  }
})

export const createWireServices = pikkuWireServices(async () => ({}))
