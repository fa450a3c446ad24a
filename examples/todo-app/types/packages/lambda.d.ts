// Typed stand-in for @pikku/lambda 0.12.10 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/aws-lambda/package.json
//     (exports: ".", "./http", "./websocket", "./queue", "./scheduled")
//   packages/runtimes/aws-lambda/src/index.ts
//   packages/runtimes/aws-lambda/src/http/{index,run-fetch,run-fetch-v2}.ts
//   packages/runtimes/aws-lambda/src/websocket/{index,websocket-connect,websocket-disconnect,
//     websocket-message,websocket-types,lambda-eventhub-service}.ts
//   packages/runtimes/aws-lambda/src/queue/{index,sqs-worker}.ts
//   packages/runtimes/aws-lambda/src/scheduled/{index,run-scheduled}.ts
//   packages/runtimes/aws-lambda/src/handler-factories.ts
//   packages/runtimes/aws-lambda/src/sqs-queue-service.ts
//   packages/runtimes/aws-lambda/src/lambda-deployment-service.ts
// Event and result types come from the installed @types/aws-lambda (a devDependency of the
// site), imported exactly as the source imports them.

declare module '@pikku/lambda/http' {
  import type {
    APIGatewayEvent,
    APIGatewayProxyResult,
    APIGatewayProxyEventV2,
    APIGatewayProxyStructuredResultV2,
  } from 'aws-lambda'

  /** API Gateway REST (payload v1) event in, Lambda proxy result out, via Pikku's HTTP runner. */
  export const runFetch: (event: APIGatewayEvent) => Promise<APIGatewayProxyResult>
  /** API Gateway HTTP API (payload v2) variant of runFetch. */
  export const runFetchV2: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>

  export {}
}

declare module '@pikku/lambda/websocket' {
  import type { APIGatewayEvent, APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda'
  import type { ChannelStore, EventHubService, EventHubStore } from '@pikku/core/channel'
  import type { Logger } from '@pikku/core/services'

  /** The second argument of the three websocket handlers (not exported by the package). */
  type WebsocketParams = {
    channelStore: ChannelStore
  }

  /** `$connect` route handler. */
  export const connectWebsocket: (event: APIGatewayEvent, params: WebsocketParams) => Promise<APIGatewayProxyResult>
  /** `$disconnect` route handler. */
  export const disconnectWebsocket: (
    event: APIGatewayProxyEvent,
    params: WebsocketParams,
  ) => Promise<APIGatewayProxyResult>
  /** `$default` route handler: runs the channel's message routing. */
  export const processWebsocketMessage: (
    event: APIGatewayProxyEvent,
    params: WebsocketParams,
  ) => Promise<APIGatewayProxyResult>

  /** EventHubService that pushes to subscribers through the API Gateway management API. */
  export class LambdaEventHubService<
    EventTopics extends Record<string, any> = {},
  > implements EventHubService<EventTopics> {
    private logger
    private channelStore
    private eventHubStore
    private callbackAPI
    constructor(
      logger: Logger,
      event: APIGatewayEvent,
      channelStore: ChannelStore,
      eventHubStore: EventHubStore<EventTopics>,
    )
    subscribe<T extends keyof EventTopics>(topic: T, channelId: string): Promise<void>
    unsubscribe<T extends keyof EventTopics>(topic: T, channelId: string): Promise<void>
    publish<T extends keyof EventTopics>(
      topic: T,
      channelId: string | null,
      data: EventTopics[T],
      isBinary?: boolean,
    ): Promise<void>
    private sendMessages
  }

  export {}
}

declare module '@pikku/lambda/queue' {
  import type { SQSBatchResponse, SQSEvent } from 'aws-lambda'
  import type { Logger } from '@pikku/core/services'

  /**
   * Runs every SQS record through Pikku's queue runner (queue name = last segment of
   * the record's eventSourceARN) and reports failed records as batch item failures.
   */
  export const runSQSQueueWorker: (logger: Logger, event: SQSEvent) => Promise<SQSBatchResponse>

  export {}
}

declare module '@pikku/lambda/scheduled' {
  import type { ScheduledEvent } from 'aws-lambda'

  /** EventBridge handler: runs every scheduled task registered in this bundle. */
  export const runLambdaScheduled: (_event: ScheduledEvent) => Promise<void>

  export {}
}

declare module '@pikku/lambda' {
  import type {
    APIGatewayEvent,
    APIGatewayProxyEventV2,
    APIGatewayProxyResult,
    APIGatewayProxyStructuredResultV2,
  } from 'aws-lambda'
  import type {
    DeploymentService,
    DeploymentConfig,
    JWTService,
    SecretService,
    LocalVariablesService,
  } from '@pikku/core/services'
  import type { CoreSingletonServices } from '@pikku/core/types'
  import type { QueueService, QueueJob, JobOptions } from '@pikku/core/queue'

  export * from '@pikku/lambda/http'
  export * from '@pikku/lambda/websocket'
  export * from '@pikku/lambda/queue'
  export * from '@pikku/lambda/scheduled'

  /** What the handler factories are given (the interface is not exported by the package). */
  interface LambdaServiceFactories {
    createConfig: (variables: LocalVariablesService, ...args: unknown[]) => Promise<unknown>
    createSingletonServices: (
      config: unknown,
      existingServices?: Partial<Record<string, unknown>>,
    ) => Promise<CoreSingletonServices>
    /** Optional: platform services to merge into existingServices. */
    createPlatformServices?: () => Record<string, unknown> | Promise<Record<string, unknown>>
  }

  /**
   * Builds the named handlers a deploy unit needs from `handlerTypes` ('fetch', 'queue',
   * 'scheduled'): `handler` (API Gateway v2), `queue` (SQS) and `scheduled` (EventBridge).
   * Without 'fetch', `handler` answers a plain health response.
   */
  export function createLambdaHandler(
    factories: LambdaServiceFactories,
    handlerTypes: string[],
  ): Record<string, unknown>
  export function createLambdaWorkerHandler(factories: LambdaServiceFactories): {
    handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2>
  }
  export function createLambdaWebSocketHandler(factories: LambdaServiceFactories): {
    connect(event: APIGatewayEvent): Promise<APIGatewayProxyResult>
    disconnect(event: APIGatewayEvent): Promise<APIGatewayProxyResult>
    default(event: APIGatewayEvent): Promise<APIGatewayProxyResult>
  }

  /** QueueService producer that sends to SQS (a queue's URL comes from queueUrlMap or the SQS_QUEUE_URL_<NAME> variable). */
  export class SQSQueueService implements QueueService {
    private queueUrlMap?
    readonly supportsResults = false
    private client
    constructor(queueUrlMap?: Record<string, string> | undefined)
    add<T>(queueName: string, data: T, options?: JobOptions): Promise<string>
    getJob<T, R>(_queueName: string, _jobId: string): Promise<QueueJob<T, R> | null>
    private resolveQueueUrl
  }

  /** DeploymentService that routes remote() calls through Lambda Invoke. */
  export class LambdaDeploymentService implements DeploymentService {
    private jwt
    private secrets
    private client
    private bindings
    constructor(jwt: JWTService | undefined, secrets: SecretService, functionBindings: Record<string, string>)
    init(): Promise<void>
    start(_config: DeploymentConfig): Promise<void>
    stop(): Promise<void>
    invoke(funcName: string, data: unknown, session?: unknown, traceId?: string): Promise<unknown>
  }

  export {}
}
