// Typed stand-in for @pikku/queue-bullmq 0.12.7 (the registry here has a different build, 0.12.8, and
// no @pikku/core that matches the current layout).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/queue-bullmq/package.json (exports: "." only)
//   packages/services/queue-bullmq/src/index.ts
//   packages/services/queue-bullmq/src/bull-service-factory.ts
//   packages/services/queue-bullmq/src/bull-queue-service.ts
//   packages/services/queue-bullmq/src/bull-queue-worker.ts
//   packages/services/queue-bullmq/src/bull-scheduler-service.ts
// `bullmq` is not installed here, so ConnectionOptions is a minimal structural stand-in for
// bullmq's own type (the Redis options a caller hands in).

declare module '@pikku/queue-bullmq' {
  import type {
    QueueJob,
    QueueService,
    QueueWorkers,
    QueueConfigMapping,
    ConfigValidationResult,
    JobOptions,
  } from '@pikku/core/queue'
  import type { ScheduledTaskInfo, ScheduledTaskSummary } from '@pikku/core/services'
  import { SchedulerService } from '@pikku/core/services'
  import type { CoreUserSession } from '@pikku/core/types'

  export type { QueueJob, QueueService } from '@pikku/core/queue'
  export type { PikkuWorkerConfig, PikkuJobConfig, JobOptions } from '@pikku/core/queue'

  // --- local structural stand-in for bullmq's ConnectionOptions (ioredis options) ---
  interface ConnectionOptions {
    host?: string
    port?: number
    username?: string
    password?: string
    db?: number
    tls?: object
    maxRetriesPerRequest?: number | null
  }

  /** Holds the Redis connection options shared by the queue, worker and scheduler services. */
  export class BullServiceFactory {
    private redisConnectionOptions
    private queueService?
    private queueWorkers?
    private schedulerService?
    constructor(redisConnectionOptions?: ConnectionOptions)
    /** No-op: BullMQ opens its connections lazily. */
    init(): Promise<void>
    getQueueService(): BullQueueService
    getQueueWorkers(): BullQueueWorkers
    getSchedulerService(): BullSchedulerService
    close(): Promise<void>
    /** Alias for close(), called by stopSingletonServices. */
    stop(): Promise<void>
  }

  /** QueueService that adds jobs to BullMQ queues; supports job results. */
  export class BullQueueService implements QueueService {
    readonly name = 'bull'
    readonly supportsResults = true
    protected queues: Map<string, unknown>
    protected queueEvents: Map<string, unknown>
    private redisConnectionOptions
    constructor(redisConnectionOptions?: ConnectionOptions)
    protected createQueue(queueName: string, config?: object): Promise<unknown>
    add<In>(queueName: string, data: In, options?: JobOptions): Promise<string>
    getJob<T, R>(queueName: string, jobId: string): Promise<QueueJob<T, R> | null>
  }

  /** QueueWorkers that starts one BullMQ Worker per wired queue. */
  export class BullQueueWorkers implements QueueWorkers {
    readonly name = 'bull'
    readonly supportsResults = true
    /** How Pikku worker configs map onto BullMQ worker options. */
    readonly configMappings: QueueConfigMapping
    private redisConnectionOptions
    private workers
    private queueEvents
    constructor(redisConnectionOptions: ConnectionOptions)
    registerQueues(): Promise<Record<string, ConfigValidationResult[]>>
    close(): Promise<void>
  }

  /** SchedulerService on BullMQ: delayed RPCs and recurring tasks. */
  export class BullSchedulerService extends SchedulerService {
    private redisConnectionOptions
    private queue
    private recurringQueue
    private recurringWorker?
    private jobSchedulerIds
    constructor(redisConnectionOptions: ConnectionOptions)
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
