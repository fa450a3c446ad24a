// Typed stand-in for @pikku/redis 0.12.19 (the registry here has 0.12.18, built for @pikku/core 0.12.84).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/redis/package.json (exports: "." only)
//   packages/services/redis/src/index.ts
//   packages/services/redis/src/redis-channel-store.ts
//   packages/services/redis/src/redis-eventhub-store.ts
//   packages/services/redis/src/redis-session-store.ts
//   packages/services/redis/src/redis-deployment-service.ts
//   packages/services/redis/src/redis-secret-service.ts
// NOT modelled (left out on purpose): the other names src/index.ts exports (RedisWorkflowService, RedisWorkflowRunService, RedisAgentRunService
// and the re-exported types); no page here uses them.
// `ioredis` is not installed here, so Redis and RedisOptions are minimal structural stand-ins.

declare module '@pikku/redis' {
  import { ChannelStore, EventHubStore } from '@pikku/core/channel'
  import type { Channel } from '@pikku/core/channel'
  import type { SessionStore } from '@pikku/core/services'
  import type {
    DeploymentConfig,
    DeploymentService,
    DeploymentServiceConfig,
    JWTService,
    SecretService,
    SecretValues,
  } from '@pikku/core/services'
  import type { SecretValue } from '@pikku/core/classification'
  import type { CoreUserSession } from '@pikku/core/types'

  // --- local structural stand-ins for ioredis types ---
  interface Redis {
    quit(): Promise<unknown>
  }
  interface RedisOptions {
    host?: string
    port?: number
    username?: string
    password?: string
    db?: number
  }

  /** ChannelStore kept in Redis under a key prefix (default 'pikku'). */
  export class RedisChannelStore extends ChannelStore {
    private redis
    private keyPrefix
    private ownsConnection
    /** An ioredis instance, ioredis options, or a connection string. */
    constructor(connectionOrConfig: Redis | RedisOptions | string, keyPrefix?: string)
    init(): Promise<void>
    private channelKey
    addChannel({ channelId, channelName, openingData }: Channel): Promise<void>
    removeChannels(channelIds: string[]): Promise<void>
    setPikkuUserId(channelId: string, pikkuUserId: string | null): Promise<void>
    getChannel(channelId: string): Promise<Channel & { pikkuUserId?: string }>
    setState(channelId: string, state: unknown): Promise<void>
    getState(channelId: string): Promise<unknown | undefined>
    clearState(channelId: string): Promise<void>
    close(): Promise<void>
  }

  /** EventHubStore kept in Redis: which channels subscribe to which topic. */
  export class RedisEventHubStore implements EventHubStore {
    private redis
    private keyPrefix
    private ownsConnection
    constructor(connectionOrConfig: Redis | RedisOptions | string, keyPrefix?: string)
    init(): Promise<void>
    getChannelIdsForTopic(topic: string): Promise<string[]>
    subscribe(topic: string, channelId: string): Promise<boolean>
    unsubscribe(topic: string, channelId: string): Promise<boolean>
    close(): Promise<void>
  }

  /** SessionStore kept in Redis under `<keyPrefix>:session:<pikkuUserId>`, with an optional TTL per write. */
  export class RedisSessionStore implements SessionStore {
    private redis
    private keyPrefix
    private ownsConnection
    private ttlSeconds?
    constructor(connectionOrConfig: Redis | RedisOptions | string, keyPrefix?: string, ttlSeconds?: number)
    /** Pings Redis. */
    init(): Promise<void>
    private sessionKey
    get(pikkuUserId: string): Promise<CoreUserSession | undefined>
    set(pikkuUserId: string, session: CoreUserSession): Promise<void>
    clear(pikkuUserId: string): Promise<void>
    /** Quits the connection only when the store opened it. */
    close(): Promise<void>
  }

  /**
   * DeploymentService kept in Redis: `start` registers this deployment's endpoint and function names (default: every
   * function registered in the process) under `<keyPrefix>:deployment:<id>` and `<keyPrefix>:fn:<name>`, and renews
   * them every `heartbeatInterval` ms (default 10000) with a TTL of `heartbeatTtl` ms (default 30000). `invoke` finds a
   * live deployment for the function and POSTs `{ data }` to `<endpoint>/remote/rpc/<name>` with the headers of
   * `buildRemoteHeaders` (a JWT signed with `jwt`, carrying the session encrypted with the PIKKU_REMOTE_SECRET secret).
   * Throws `No deployment found for function '<name>'`, or `Remote RPC call to '<name>' failed: <status>`.
   */
  export class RedisDeploymentService implements DeploymentService {
    private redis
    private keyPrefix
    private ownsConnection
    private heartbeatTimer?
    private deploymentConfig?
    private heartbeatInterval
    private heartbeatTtl
    private jwt?
    private secrets?
    constructor(
      config: DeploymentServiceConfig,
      connectionOrConfig: Redis | RedisOptions | string,
      keyPrefix?: string,
      jwt?: JWTService,
      secrets?: SecretService,
    )
    private deploymentKey
    private functionsIndexKey
    init(): Promise<void>
    start(config: DeploymentConfig): Promise<void>
    /** Stops the heartbeat, removes this deployment's keys, and quits the connection only when it opened it. */
    stop(): Promise<void>
    invoke(funcName: string, data: unknown, session?: unknown, traceId?: string): Promise<unknown>
    private sendHeartbeat
  }


  export interface RedisSecretServiceConfig {
    /** The key-encryption key every stored secret is encrypted under. */
    key: string
    keyVersion?: number
    /** The previous key, kept while rotateKEK() re-encrypts the stored secrets. */
    previousKey?: string
    keyPrefix?: string
  }

  /** SecretService over Redis; values are encrypted with the configured key. */
  export class RedisSecretService implements SecretService {
    private redis
    private ownsConnection
    private key
    private keyVersion
    private previousKey
    private keyPrefix
    private kekSalts
    private keks
    constructor(connectionOrConfig: Redis | RedisOptions | string, config: RedisSecretServiceConfig)
    getSecret<T = string>(key: string): Promise<SecretValue<T>>
    hasSecret(key: string): Promise<boolean>
    setSecret(key: string, value: unknown): Promise<void>
    deleteSecret(key: string): Promise<void>
    getSecrets<T extends Record<string, unknown> = Record<string, unknown>>(
      keys: (keyof T & string)[],
    ): Promise<Partial<SecretValues<T>>>
    rotateKEK(): Promise<number>
    close(): Promise<void>
  }

  export {}
}
