// PARTIAL typed stand-in for @pikku/kysely-postgres 0.12.22 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/kysely-postgres/package.json (exports: "." only)
//   packages/services/kysely-postgres/src/index.ts (the names below only)
//   packages/services/kysely-postgres/src/pg-eventhub-service.ts
// Left out on purpose (see the stand-in report): every Kysely-based export of the index
// (PgKyselyWorkflowService, PgWorkflowQueueOptions, RunLockHoldTimeoutError,
// PgKyselyDeploymentService, PgKyselyAgentStorageService, PgKyselyAgentRunService,
// PgKyselyWorkflowRunService, PgKyselyChannelStore, PgKyselyEventHubStore,
// PgKyselySecretService, PikkuKysely, jsonbText, jsonbValue, jsonbMerge,
// KyselyCredentialService, KyselyPikkuDB). They are typed over `kysely`, which is not
// installed here; importing one of them fails loudly (TS2305) instead of becoming `any`.

declare module '@pikku/kysely-postgres' {
  import type { LocalEventHubService } from '@pikku/core/channel/local'
  import type { EventHubService } from '@pikku/core/channel'

  export type { WorkflowRunService } from '@pikku/core/workflow'
  export type { AgentRunService, AgentRunRow } from '@pikku/core/agent'

  type LocalHub = LocalEventHubService<Record<string, unknown>>
  type ChannelHandler = Parameters<LocalHub['onChannelOpened']>[0]

  /**
   * EventHubService for several server instances: delivery to this instance's sockets
   * goes through an inner hub (a LocalEventHubService unless `inner` is given), and
   * publishes are also sent to the other instances with PostgreSQL NOTIFY.
   * Call init() before use. NOTIFY payloads are limited to 8 kB.
   */
  export class PgEventHubService<Topics extends Record<string, unknown> = {}> implements EventHubService<Topics> {
    private readonly connectionString
    private readonly local
    private readonly delivery
    private sql
    constructor(connectionString: string, inner?: EventHubService<Topics>)
    init(): Promise<void>
    close(): Promise<void>
    subscribe<T extends keyof Topics>(topic: T, channelId: string): Promise<void> | void
    unsubscribe<T extends keyof Topics>(topic: T, channelId: string): Promise<void> | void
    publish<T extends keyof Topics>(
      topic: T,
      channelId: string | null,
      data: Topics[T],
      isBinary?: boolean,
    ): Promise<void>
    onChannelOpened(channelHandler: ChannelHandler): void
    onChannelClosed(channelId: string): void
  }

  export {}
}
