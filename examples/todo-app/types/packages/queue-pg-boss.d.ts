// Typed stand-in for @pikku/queue-pg-boss 0.12.10 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/queue-pg-boss/package.json (exports: "." only)
//   packages/services/queue-pg-boss/src/index.ts
//   packages/services/queue-pg-boss/src/pg-boss-service-factory.ts
//   packages/services/queue-pg-boss/src/pg-boss-queue-service.ts
//   packages/services/queue-pg-boss/src/pg-boss-queue-worker.ts
//   packages/services/queue-pg-boss/src/pg-boss-scheduler-service.ts
// pg-boss types come from the installed `pg-boss` 10.x (a devDependency of the site). The
// source imports `{ PgBoss, type ConstructorOptions }` from pg-boss ^12.27; 10.x exports the
// PgBoss class as `export =`, with ConstructorOptions in its namespace. Only the PgBoss
// instance type and ConstructorOptions appear in this package's public API.

declare module '@pikku/queue-pg-boss' {
  import type PgBoss from 'pg-boss'
  import type {
    QueueJob,
    QueueService,
    QueueWorkers,
    QueueConfigMapping,
    ConfigValidationResult,
    JobOptions,
  } from '@pikku/core/queue'
  import type { Logger, ScheduledTaskInfo, ScheduledTaskSummary } from '@pikku/core/services'
  import { SchedulerService } from '@pikku/core/services'
  import type { CoreUserSession } from '@pikku/core/types'

  export type { QueueJob, QueueService } from '@pikku/core/queue'
  export type { PikkuWorkerConfig, PikkuJobConfig, JobOptions } from '@pikku/core/queue'

  type ConstructorOptions = PgBoss.ConstructorOptions

  /**
   * Owns one PgBoss instance (built from a connection string or options, or passed in)
   * and hands out the queue, worker and scheduler services that share it.
   */
  export class PgBossServiceFactory {
    private pgBoss
    private queueService?
    private queueWorkers?
    private schedulerService?
    private initialized
    constructor(optionsOrInstance: ConstructorOptions | string | PgBoss)
    /** Starts pg-boss. */
    init(): Promise<void>
    getQueueService(): PgBossQueueService
    getQueueWorkers(): PgBossQueueWorkers
    getSchedulerService(): PgBossSchedulerService
    /** Stops pg-boss. */
    close(): Promise<void>
    /** Alias for close(), called by stopSingletonServices. */
    stop(): Promise<void>
  }

  /** QueueService that publishes jobs to pg-boss; supports job results. */
  export class PgBossQueueService implements QueueService {
    readonly name = 'pg-boss'
    readonly supportsResults = true
    protected pgBoss: PgBoss
    constructor(pgBoss: PgBoss)
    add<In>(queueName: string, data: In, options?: JobOptions): Promise<string>
    getJob<T, R>(queueName: string, jobId: string): Promise<QueueJob<T, R> | null>
  }

  /** QueueWorkers that registers a pg-boss worker for each wired queue. */
  export class PgBossQueueWorkers implements QueueWorkers {
    readonly name = 'pg-boss'
    readonly supportsResults = true
    /** How Pikku worker configs map onto pg-boss work options. */
    readonly configMappings: QueueConfigMapping
    private pgBoss
    private activeWorkers
    constructor(pgBoss: PgBoss)
    registerQueues(logger?: Logger): Promise<Record<string, ConfigValidationResult[]>>
  }

  /** SchedulerService on pg-boss: delayed RPCs via send(), cron tasks via schedule(). */
  export class PgBossSchedulerService extends SchedulerService {
    private pgBoss
    private scheduledCronNames
    constructor(pgBoss: PgBoss)
    init(): Promise<void>
    scheduleRPC(delay: number | string, rpcName: string, data?: any, session?: CoreUserSession): Promise<string>
    unschedule(taskId: string): Promise<boolean>
    getTask(taskId: string): Promise<ScheduledTaskInfo | null>
    getAllTasks(): Promise<ScheduledTaskSummary[]>
    close(): Promise<void>
    start(): Promise<void>
    stop(): Promise<void>
  }

  export {}
}
