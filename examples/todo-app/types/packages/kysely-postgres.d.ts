// PARTIAL typed stand-in for @pikku/kysely-postgres 0.12.22 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/kysely-postgres/package.json (exports: "." only; dependencies kysely, postgres)
//   packages/services/kysely-postgres/src/index.ts (the names below only)
//   packages/services/kysely-postgres/src/pikku-kysely.ts
//   packages/services/kysely-postgres/src/pg-kysely-workflow-service.ts
//   packages/services/kysely-postgres/src/pg-kysely-workflow-run-service.ts
//   packages/services/kysely-postgres/src/pg-eventhub-service.ts
//   packages/services/kysely/src/kysely-workflow-service.ts and kysely-workflow-run-service.ts (the bases,
//     re-exported through @pikku/kysely, which is not modelled separately)
//   packages/services/kysely/src/kysely-tables.ts (KyselyPikkuDB: the four workflow tables only)
// Types come from the installed kysely 0.28 and postgres 3.4 (the package depends on kysely ^0.29.5; the names used
// here, Kysely and Generated, are the same in both).
// Differences on purpose:
// - PgKyselyWorkflowService extends core's PikkuWorkflowService directly; at HEAD it goes through
//   @pikku/kysely's KyselyWorkflowService, whose public additions (init, close, getRunState, ...) are declared here.
// - KyselyPikkuDB lists only the workflow tables; a query on another pikku table fails to compile instead of being
//   typed loosely.
// Left out (no page here uses them; importing one fails with TS2305): PgKyselyDeploymentService,
// PgKyselyAgentStorageService, PgKyselyAgentRunService, PgKyselyChannelStore, PgKyselyEventHubStore,
// PgKyselySecretService, jsonbText, jsonbValue, jsonbMerge, KyselyCredentialService.

declare module '@pikku/kysely-postgres' {
  import type { LocalEventHubService } from '@pikku/core/channel/local'
  import type { EventHubService } from '@pikku/core/channel'
  import type { Logger } from '@pikku/core/services'
  import type { PostgresConfig } from '@pikku/core/types'
  import type { PikkuWorkflowService } from '@pikku/core/workflow'
  import type {
    StepStatus,
    WorkflowQueueOptions,
    WorkflowRunService,
    WorkflowStatus,
    WorkflowVersionStatus,
  } from '@pikku/core/workflow'
  import type { Generated, Kysely } from 'kysely'
  import type postgres from 'postgres'

  export type { WorkflowRunService } from '@pikku/core/workflow'
  export type { AgentRunService, AgentRunRow } from '@pikku/core/agent'

  /** The workflow tables of the database the pikku services share (from @pikku/kysely's kysely-tables.ts). */
  export interface KyselyPikkuDB {
    workflowRuns: {
      workflowRunId: Generated<string>
      workflow: string
      status: WorkflowStatus
      input: string
      output: string | null
      error: string | null
      state: Generated<string>
      inline: Generated<boolean>
      graphHash: string | null
      deterministic: Generated<boolean>
      plannedSteps: string | null
      wire: string | null
      createdAt: Generated<Date>
      updatedAt: Generated<Date>
    }
    workflowStep: {
      workflowStepId: Generated<string>
      workflowRunId: string
      stepName: string
      rpcName: string | null
      data: string | null
      status: Generated<StepStatus>
      result: string | null
      error: string | null
      childRunId: string | null
      branchTaken: string | null
      retries: number | null
      retryDelay: string | null
      fromStepName: string | null
      currentAttempt: number | null
      createdAt: Generated<Date>
      updatedAt: Generated<Date>
    }
    workflowStepHistory: {
      historyId: Generated<string>
      workflowStepId: string
      status: StepStatus
      result: string | null
      error: string | null
      attempt: number | null
      createdAt: Generated<Date>
      runningAt: Date | null
      scheduledAt: Date | null
      succeededAt: Date | null
      failedAt: Date | null
    }
    workflowVersions: {
      workflowName: string
      graphHash: string
      graph: string
      source: string
      status: Generated<WorkflowVersionStatus>
      createdAt: Generated<Date>
    }
  }

  /**
   * A Kysely instance on PostgreSQL through postgres.js, with the CamelCasePlugin. Takes a postgres.js client (not
   * closed by close()), its options or a connection string; `defaultSchemaName` scopes every query to that schema.
   */
  export class PikkuKysely<DB> {
    private logger
    private postgres
    private ownsConnection
    kysely: Kysely<DB>
    constructor(
      logger: Logger,
      connectionOrConfig: postgres.Sql<{}> | postgres.Options<{}> | string,
      defaultSchemaName?: string,
      poolConfig?: PostgresConfig,
    )
    /** Runs `SELECT version()` and logs it; throws when the database cannot be reached. */
    init(): Promise<void>
    /** Destroys the Kysely instance, and ends the connection when this object created it. */
    close(): Promise<void>
  }

  /** The run lock was held longer than `maxLockHoldMs` and was released. */
  export class RunLockHoldTimeoutError extends Error {
    readonly runId: string
    readonly heldForMs: number
    constructor(runId: string, heldForMs: number)
  }

  export interface PgWorkflowQueueOptions extends WorkflowQueueOptions {
    /** A separate pool for the per-run advisory lock, held for the whole workflow body. Defaults to `db`. */
    lockDb?: Kysely<KyselyPikkuDB>
    /** `lock_timeout` for the advisory lock, in ms; 0 (the default) waits forever. */
    lockTimeoutMs?: number
    /** Longest a body may hold the run lock before it is taken back (RunLockHoldTimeoutError); 0 is unbounded. */
    maxLockHoldMs?: number
    /** `idle_session_timeout` for the lock session, in ms (PostgreSQL 14+); 0 leaves it alone. */
    lockIdleTimeoutMs?: number
  }

  /**
   * Workflow runs and steps in PostgreSQL, with a PostgreSQL advisory lock per run. Call init() before use: it
   * checks that the workflow tables exist (created by `pikku db migrate`) and throws when they do not.
   * (Declared as an interface and a constructor because the 0.12.84 PikkuWorkflowService it extends here has
   * abstract members of another shape than HEAD's; the instance type is that of a concrete subclass.)
   */
  export interface PgKyselyWorkflowService extends PikkuWorkflowService {
    init(): Promise<void>
    withRunLock<T>(id: string, fn: () => Promise<T>): Promise<T>
    withStepLock<T>(runId: string, stepName: string, fn: () => Promise<T>): Promise<T>
    getRunState(runId: string): Promise<Record<string, unknown>>
    close(): Promise<void>
  }
  export const PgKyselyWorkflowService: new (
    db: Kysely<KyselyPikkuDB>,
    options?: PgWorkflowQueueOptions,
  ) => PgKyselyWorkflowService

  /** Reads workflow runs for the console and the generated status streams. */
  export class PgKyselyWorkflowRunService {
    private db
    constructor(db: Kysely<KyselyPikkuDB>)
  }
  export interface PgKyselyWorkflowRunService extends WorkflowRunService {}

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
