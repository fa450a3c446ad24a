// Typed stand-in for @pikku/azure-functions 0.12.8 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/azure-functions/package.json (exports: "." only)
//   packages/runtimes/azure-functions/src/index.ts
//   packages/runtimes/azure-functions/src/handler-factories.ts
//   packages/runtimes/azure-functions/src/azure-queue-service.ts
//   packages/runtimes/azure-functions/src/azure-deployment-service.ts
//   packages/runtimes/azure-functions/src/pikku-az-functions-logger.ts
//   packages/runtimes/azure-functions/src/pikku-az-timer-request.ts
// `@azure/functions` is not installed here, so InvocationContext, HttpRequest and
// HttpResponseInit are minimal structural stand-ins for the v4 programming-model types.

declare module '@pikku/azure-functions' {
  import type {
    DeploymentService,
    DeploymentConfig,
    JWTService,
    SecretService,
    Logger,
    LogLevel,
    LocalVariablesService,
  } from '@pikku/core/services'
  import type { CoreSingletonServices } from '@pikku/core/types'
  import type { QueueService, QueueJob, JobOptions } from '@pikku/core/queue'
  import type { Safe } from '@pikku/core/classification'
  import { PikkuRequest } from '@pikku/core/function'

  // --- local structural stand-ins for @azure/functions ---
  interface InvocationContext {
    readonly invocationId: string
    readonly functionName: string
    readonly triggerMetadata?: Record<string, unknown>
    log(...args: any[]): void
    trace(...args: any[]): void
    debug(...args: any[]): void
    info(...args: any[]): void
    warn(...args: any[]): void
    error(...args: any[]): void
  }
  interface HttpRequest {
    readonly method: string
    readonly url: string
    readonly headers: Headers
  }
  interface HttpResponseInit {
    status?: number
    body?: string | ArrayBuffer | Uint8Array | null
    jsonBody?: any
    headers?: Record<string, string> | Headers
  }

  /** What the handler factories are given (the interface is not exported by the package index). */
  interface AzureServiceFactories {
    createConfig: (variables: LocalVariablesService, ...args: unknown[]) => Promise<unknown>
    createSingletonServices: (
      config: unknown,
      existingServices?: Partial<Record<string, unknown>>,
    ) => Promise<CoreSingletonServices>
    createPlatformServices?: () => Record<string, unknown> | Promise<Record<string, unknown>>
  }

  /** Logger that writes through an Azure Functions InvocationContext. */
  export class AzInvocationLogger implements Logger {
    private context
    constructor(context: InvocationContext)
    info<M extends string | Record<string, any>, A extends unknown[]>(
      messageOrObj: Safe<M>,
      ...meta: { [K in keyof A]: Safe<A[K]> }
    ): void
    warn<M extends string | Record<string, any>, A extends unknown[]>(
      messageOrObj: Safe<M>,
      ...meta: { [K in keyof A]: Safe<A[K]> }
    ): void
    error<M extends string | Record<string, any> | Error, A extends unknown[]>(
      messageOrObj: Safe<M>,
      ...meta: { [K in keyof A]: Safe<A[K]> }
    ): void
    debug<A extends unknown[]>(message: string, ...meta: { [K in keyof A]: Safe<A[K]> }): void
    trace<A extends unknown[]>(message: string, ...meta: { [K in keyof A]: Safe<A[K]> }): void
    setLevel(level: LogLevel): void
  }

  /** The request object given to a function run by a timer trigger. */
  export class PikkuAZTimerRequest<In = any> extends PikkuRequest<In> {
    constructor(_context: InvocationContext, data: In)
  }

  /**
   * Handlers for the unit's trigger kinds (`http`, storage queue, timer), chosen by
   * handlerTypes, to register with app.http(), app.storageQueue() and app.timer().
   */
  export function createAzureHandler(factories: AzureServiceFactories, handlerTypes: string[]): Record<string, unknown>
  /** createAzureHandler(factories, ['fetch']). */
  export function createAzureWorkerHandler(factories: AzureServiceFactories): Record<string, unknown>
  /** At HEAD `negotiate` always answers 501: Web PubSub support is not implemented. */
  export function createAzureWebSocketHandler(_factories: AzureServiceFactories): {
    negotiate(_request: HttpRequest, _context: InvocationContext): Promise<HttpResponseInit>
  }

  /**
   * QueueService producer for Azure Storage Queues (connection string defaults to
   * AzureWebJobsStorage; queue name from AZURE_QUEUE_NAME_<NAME> when set). No results.
   */
  export class AzureQueueService implements QueueService {
    readonly supportsResults = false
    private queueServiceClient
    private queueClients
    constructor(connectionString?: string)
    add<T>(queueName: string, data: T, options?: JobOptions): Promise<string>
    getJob<T, R>(_queueName: string, _jobId: string): Promise<QueueJob<T, R> | null>
    private getQueueClient
    private resolveQueueName
  }

  /** DeploymentService that routes remote() calls to other functions over HTTP. */
  export class AzureDeploymentService implements DeploymentService {
    private jwt
    private secrets
    private bindings
    constructor(jwt: JWTService | undefined, secrets: SecretService, functionBindings: Record<string, string>)
    init(): Promise<void>
    start(_config: DeploymentConfig): Promise<void>
    stop(): Promise<void>
    invoke(funcName: string, data: unknown, session?: unknown, traceId?: string): Promise<unknown>
  }

  export {}
}
