// Typed stand-in for @pikku/cloudflare 0.12.22 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/cloudflare/package.json (exports: ".", "./handler", "./env", "./queue",
//     "./d1", "./deployment", "./websocket", "./eventhub", "./workflow-do")
//   packages/runtimes/cloudflare/src/index.ts
//   packages/runtimes/cloudflare/src/run-fetch.ts, run-scheduled.ts, env.ts
//   packages/runtimes/cloudflare/src/handler-factories.ts
//   packages/runtimes/cloudflare/src/cloudflare-hibernation-websocket-server.ts
//   packages/runtimes/cloudflare/src/cloudflare-eventhub-service.ts
//   packages/runtimes/cloudflare/src/cloudflare-queue-service.ts
//   packages/runtimes/cloudflare/src/cloudflare-deployment-service.ts
// NOT modelled (left out on purpose, see the stand-in report): the "./d1" and
// "./workflow-do" subpaths, and the D1 names the root re-exports from
// cloudflare-d1-services.ts (createD1Kysely, CloudflareWorkflowService,
// CloudflareAgentStorageService, CloudflareAgentRunService, CloudflareAgentRunStateService),
// which extend @pikku/kysely classes (no stand-in for @pikku/kysely exists here).
// Workers types come from the installed @cloudflare/workers-types (a devDependency of the
// site), imported as the source imports them. The handler factories return classes that
// extend `WorkerEntrypoint<CloudflareEnv>` from `cloudflare:workers`; that class is taken
// from the package's CloudflareWorkersModule namespace, which declares the same class.

declare module '@pikku/cloudflare/env' {
  export type CloudflareEnv = Record<string, unknown>
  /** The `env` last passed to a handler, or null before the first call. */
  export function getCloudflareEnv(): CloudflareEnv | null
  export function setCloudflareEnv(env: CloudflareEnv): void
  export {}
}

declare module '@pikku/cloudflare/queue' {
  import type { QueueService, QueueJob, JobOptions } from '@pikku/core/queue'

  /**
   * QueueService over Cloudflare Queue producer bindings found in `env`; the binding
   * name is the queue name in SCREAMING_SNAKE_CASE. Fire-and-forget: no results.
   */
  export class CloudflareQueueService implements QueueService {
    private env
    readonly supportsResults = false
    constructor(env: Record<string, unknown>)
    add<T>(queueName: string, data: T, options?: JobOptions): Promise<string>
    getJob<T, R>(_queueName: string, _jobId: string): Promise<QueueJob<T, R> | null>
  }
  export {}
}

declare module '@pikku/cloudflare/deployment' {
  import type { DeploymentService, DeploymentConfig, JWTService, SecretService } from '@pikku/core/services'

  export type CloudflareEnv = Record<string, unknown>

  /** DeploymentService that routes remote() calls through service bindings. */
  export class CloudflareDeploymentService implements DeploymentService {
    private env
    private jwt
    private secrets
    private bindings
    constructor(
      env: CloudflareEnv,
      jwt: JWTService | undefined,
      secrets: SecretService,
      functionBindings: Record<string, string>,
    )
    init(): Promise<void>
    start(_config: DeploymentConfig): Promise<void>
    stop(): Promise<void>
    invoke(funcName: string, data: unknown, session?: unknown, traceId?: string): Promise<unknown>
  }
  export {}
}

declare module '@pikku/cloudflare/eventhub' {
  import type { DurableObjectState } from '@cloudflare/workers-types'
  import type { EventHubService } from '@pikku/core/channel'
  import type { Logger } from '@pikku/core/services'

  /** EventHubService that keeps subscriptions in Durable Object storage. */
  export class CloudflareEventHubService<
    EventTopics extends Record<string, unknown> = {},
  > implements EventHubService<EventTopics> {
    private logger
    private ctx
    private namespace
    private subscriptions
    private isDirty
    private state
    private loadedCallbacks
    constructor(logger: Logger, ctx: DurableObjectState, namespace?: string)
    private ensureSubscriptionsLoaded
    private syncSubscriptions
    subscribe<T extends keyof EventTopics>(topic: T, channelId: string): Promise<void>
    unsubscribe<T extends keyof EventTopics>(topic: T, channelId: string): Promise<void>
    publish<T extends keyof EventTopics>(
      topic: T,
      fromChannelId: string,
      data: EventTopics[T],
      isBinary?: boolean,
    ): Promise<void>
    onChannelClosed(channelId: string): Promise<void>
    private getWebsocket
  }
  export {}
}

declare module '@pikku/cloudflare/websocket' {
  import type {
    DurableObject,
    DurableObjectState,
    Request as CloudflareRequest,
    WebSocket,
  } from '@cloudflare/workers-types'
  import type { CoreSingletonServices } from '@pikku/core/types'

  /**
   * Durable Object base class that serves Pikku channels over hibernatable
   * WebSockets. Subclasses supply the services through getParams().
   */
  export abstract class CloudflareWebSocketHibernationServer<
    SingletonServices extends CoreSingletonServices = CoreSingletonServices,
  > implements DurableObject {
    protected ctx: DurableObjectState
    protected env: Record<string, string | undefined>
    private eventHub
    private channelStore
    constructor(ctx: DurableObjectState, env: Record<string, string | undefined>)
    fetch(cloudflareRequest: CloudflareRequest): Promise<any>
    webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void>
    webSocketClose(ws: WebSocket, code: number, reason: string, wasClean: boolean): Promise<void>
    private getAllParams
    protected abstract getParams(): Promise<{
      singletonServices: SingletonServices
      createWireServices?: any
    }>
  }
  export {}
}

declare module '@pikku/cloudflare/handler' {
  import type { CloudflareWorkersModule, ExecutionContext, ScheduledController } from '@cloudflare/workers-types'
  import type { LocalVariablesService } from '@pikku/core/services'
  import type { CoreSingletonServices } from '@pikku/core/types'
  import { CloudflareWebSocketHibernationServer } from '@pikku/cloudflare/websocket'
  import type { CloudflareEventHubService } from '@pikku/cloudflare/eventhub'
  import type { CloudflareEnv } from '@pikku/cloudflare/env'

  export { getCloudflareEnv, type CloudflareEnv } from '@pikku/cloudflare/env'

  type WorkerEntrypoint = CloudflareWorkersModule.WorkerEntrypoint<CloudflareEnv>
  /** The batch shape the generated queue() methods accept. */
  type QueueBatch = {
    queue?: string
    messages: Array<{ id: string; body: unknown }>
  }

  export interface ServiceFactories {
    createConfig: (variables: LocalVariablesService, ...args: unknown[]) => Promise<unknown>
    createSingletonServices: (
      config: unknown,
      existingServices?: Partial<Record<string, unknown>>,
    ) => Promise<CoreSingletonServices>
    /** Optional: platform services built from the CF env bindings, merged into existingServices. */
    createPlatformServices?: (env: CloudflareEnv) => Record<string, unknown> | Promise<Record<string, unknown>>
  }

  /** Builds (once per isolate) and caches the singleton services from `env`. */
  export function setupServices(env: CloudflareEnv, factories: ServiceFactories): Promise<CoreSingletonServices>

  /** A WorkerEntrypoint class with fetch, queue, scheduled and runRpc, chosen by handlerTypes. */
  export function createCloudflareHandler(
    factories: ServiceFactories,
    handlerTypes: string[],
  ): {
    new (
      ctx: ExecutionContext,
      env: CloudflareEnv,
    ): WorkerEntrypoint & {
      fetch(request: Request): Promise<Response>
      queue(batch: QueueBatch): Promise<void>
      scheduled(controller: ScheduledController): Promise<void>
      runRpc(name: string, args: unknown): Promise<unknown>
    }
  }
  export function createCloudflareWorkerHandler(factories: ServiceFactories): {
    new (
      ctx: ExecutionContext,
      env: CloudflareEnv,
    ): WorkerEntrypoint & {
      fetch(request: Request): Promise<Response>
      runRpc(name: string, args: unknown): Promise<unknown>
    }
  }
  export function createCloudflareCronHandler(factories: ServiceFactories): {
    new (
      ctx: ExecutionContext,
      env: CloudflareEnv,
    ): WorkerEntrypoint & {
      fetch(): Promise<Response>
      scheduled(controller: ScheduledController): Promise<void>
      runRpc(name: string, args: unknown): Promise<unknown>
    }
  }
  export function createCloudflareQueueHandler(factories: ServiceFactories): {
    new (
      ctx: ExecutionContext,
      env: CloudflareEnv,
    ): WorkerEntrypoint & {
      fetch(): Promise<Response>
      queue(batch: QueueBatch): Promise<void>
      runRpc(name: string, args: unknown): Promise<unknown>
    }
  }
  export function createCloudflareMCPHandler(factories: ServiceFactories): {
    new (
      ctx: ExecutionContext,
      env: CloudflareEnv,
    ): WorkerEntrypoint & {
      fetch(request: Request): Promise<Response>
      runRpc(name: string, args: unknown): Promise<unknown>
    }
  }

  /** The Durable Object class for channel units; its services come from setupServices. */
  export class PikkuWebSocketHibernationServer extends CloudflareWebSocketHibernationServer {
    protected getParams(): Promise<{
      singletonServices: CoreSingletonServices & {
        eventHub: CloudflareEventHubService
      }
    }>
  }

  /**
   * A WorkerEntrypoint whose fetch() forwards to the WEBSOCKET_HIBERNATION_SERVER
   * Durable Object binding (export PikkuWebSocketHibernationServer as that class).
   */
  export function createCloudflareWebSocketHandler(factories: ServiceFactories): {
    new (
      ctx: ExecutionContext,
      env: CloudflareEnv,
    ): WorkerEntrypoint & {
      fetch(request: Request): Promise<Response>
    }
  }
  export {}
}

declare module '@pikku/cloudflare' {
  import type { ScheduledController } from '@cloudflare/workers-types'
  import type { CloudflareWebSocketHibernationServer } from '@pikku/cloudflare/websocket'

  export * from '@pikku/cloudflare/websocket'
  export * from '@pikku/cloudflare/eventhub'
  export * from '@pikku/cloudflare/handler'
  export * from '@pikku/cloudflare/queue'
  export { CloudflareDeploymentService } from '@pikku/cloudflare/deployment'

  /** Options for runFetch (the interface is not exported by the package index). */
  interface RunFetchOptions {
    exposeErrors?: boolean
  }

  /**
   * Runs a Worker request through Pikku's HTTP wirings. A websocket upgrade is handed
   * to `websocketHibernationServer` (426 without one). `exposeErrors` defaults to false.
   */
  export const runFetch: (
    request: Request,
    websocketHibernationServer?: CloudflareWebSocketHibernationServer,
    options?: RunFetchOptions,
  ) => Promise<any>

  /** Runs the scheduled task whose `schedule` string equals `controller.cron`. */
  export const runScheduled: (controller: ScheduledController) => Promise<void>

  export {}
}
