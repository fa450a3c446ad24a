// Helpers for the queue and scheduler files (queue-bullmq, queue-pgboss, scheduler): the app's singleton services built
// the way src/runtimes/bullmq-worker.ts and pg-boss-worker.ts build them, a caller with a session for the app's
// session functions, and promises that resolve on the app's own log lines and store calls.
import '#pikku/pikku-bootstrap.gen.js'
import { rpcService } from '@pikku/core/rpc'
import type { UserSession } from '../../../src/application-types.js'
import { bootApp, collectLogs, type Extra, type Singletons } from './app.js'

export { collectLogs, type Singletons }

/** createSingletonServices(config, extra) as the worker entry files call it, with the logger quieted. */
export const bootServices = async (extra?: Extra): Promise<Singletons> => (await bootApp(extra)).services

/** wire.rpc for a caller signed in as `session`: invokes the app's functions by name, permissions included. */
export const callerAs = (services: Singletons, session: UserSession) =>
  rpcService.getContextRPCService(services as any, { session } as any, true)

/**
 * Resolves with the first message the app logs at info level that matches `pattern`, on the singleton logger or on a
 * logger it scoped for one job or run (the logger is quieted, but its methods are still called). Used to see a worker
 * or a scheduled task run, without sleeping.
 */
export const nextInfoLog = (services: Singletons, pattern: RegExp): Promise<string> =>
  new Promise((resolve) => {
    const logger = services.logger as any
    const { info, scope } = logger
    let done = false
    const watch = (target: any, original: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        const message = args.map(String).join(' ')
        if (!done && pattern.test(message)) {
          done = true
          logger.info = info
          logger.scope = scope
          resolve(message)
        }
        return original.apply(target, args)
      }
    logger.info = watch(logger, info)
    logger.scope = function (traceId: string) {
      const scoped = scope.call(logger, traceId)
      scoped.info = watch(scoped, scoped.info)
      return scoped
    }
  })

/** The app's BullMQ publisher with its connection (src/bull-queue-service.ts), re-exported for the queue tests. */
export { ConnectedBullQueueService } from '../../../src/bull-queue-service.js'

/**
 * Makes services.todoStore.get throw for one to-do, as a store that cannot be reached would; `calls` counts the
 * attempts, `restore()` puts the real method back.
 */
export const storeDownFor = (services: Singletons, todoId: string) => {
  const store = services.todoStore
  const get = store.get.bind(store)
  const state = { calls: 0, restore: () => void (store.get = get) }
  store.get = async (id) => {
    if (id !== todoId) return get(id)
    state.calls++
    throw new Error('todo store unreachable')
  }
  return state
}

/** Counts calls of services.todoStore.get (which still answers); `restore()` puts the real method back. */
export const watchStoreGet = (services: Singletons) => {
  const store = services.todoStore
  const get = store.get.bind(store)
  const state = { calls: 0, restore: () => void (store.get = get) }
  store.get = async (id) => {
    state.calls++
    return get(id)
  }
  return state
}

/** Records the trace ids the singleton logger scopes loggers with; `restore()` puts the real method back. */
export const recordTraceIds = (services: Singletons) => {
  const logger = services.logger as any
  const scope = logger.scope
  const traceIds: string[] = []
  logger.scope = function (traceId: string) {
    traceIds.push(traceId)
    return scope.call(logger, traceId)
  }
  return { traceIds, restore: () => void (logger.scope = scope) }
}
