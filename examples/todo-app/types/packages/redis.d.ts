// Typed stand-in for @pikku/redis 0.12.19 (the registry here has 0.12.18, built for @pikku/core 0.12.84).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/redis/package.json (exports: "." only)
//   packages/services/redis/src/index.ts
//   packages/services/redis/src/redis-channel-store.ts
//   packages/services/redis/src/redis-eventhub-store.ts
//   packages/services/redis/src/redis-session-store.ts
// NOT modelled (left out on purpose): the other names src/index.ts exports (RedisDeploymentService,
// RedisWorkflowService, RedisWorkflowRunService, RedisAgentRunService, RedisSecretService
// and the re-exported types); no page here uses them.
// `ioredis` is not installed here, so Redis and RedisOptions are minimal structural stand-ins.

declare module '@pikku/redis' {
  import { ChannelStore, EventHubStore } from '@pikku/core/channel'
  import type { Channel } from '@pikku/core/channel'
  import type { SessionStore } from '@pikku/core/services'
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

  export {}
}
