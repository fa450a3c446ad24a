// The to-do app started in this process, on 127.0.0.1 and a free port, the way src/start.ts starts it: the
// generated bootstrap, src/config.ts, src/services.ts and the real runtime package. One start per test file.
import '#pikku/pikku-bootstrap.gen.js'
import assert from 'node:assert/strict'
import { get, type IncomingMessage, type Server } from 'node:http'
import { PikkuExpressServer } from '@pikku/express'
import { stopSingletonServices } from '@pikku/core/utils'
import { LogLevel } from '@pikku/core/services'
import { pikkuState } from '@pikku/core/state'
import { createConfig } from '../../../src/config.js'
import { createSingletonServices } from '../../../src/services.js'
import { freePort } from './services.js'
import { recordingLogger, withProbeRoute } from './core-probes.js'

export type Singletons = Awaited<ReturnType<typeof createSingletonServices>>
export type Extra = Parameters<typeof createSingletonServices>[1]

export interface RunningApp {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string
  services: Singletons
  stop: () => Promise<void>
}

/** Quiet logs: the suite prints test results, not the app's request log. Pass LOG=1 to see them. */
export const quiet = (services: Singletons) => {
  if (!process.env.LOG) services.logger.setLevel(LogLevel.critical)
}

/**
 * src/config.ts and src/services.ts as every entry file calls them (`extra` as its existing services), with the
 * logger quieted; on `port` when given. Every harness starts the app from here.
 */
/** Collects what the app logs at `level` (on the singleton logger and the loggers it scopes per job) until restored. */
export const collectLogs = (services: Singletons, level: 'info' | 'warn' | 'error') => {
  const logger = services.logger as any
  const { scope } = logger
  const original = logger[level]
  const lines: string[] = []
  const watch = (target: any, fn: (...args: unknown[]) => unknown) =>
    function (...args: unknown[]) {
      lines.push(args.map(String).join(' '))
      return fn.apply(target, args)
    }
  logger[level] = watch(logger, original)
  logger.scope = function (traceId: string) {
    const scoped = scope.call(logger, traceId)
    scoped[level] = watch(scoped, scoped[level])
    return scoped
  }
  return { lines, restore: () => ((logger[level] = original), (logger.scope = scope)) }
}

export const bootApp = async (extra?: Extra, port?: number) => {
  const config = { ...(await createConfig()), ...(port === undefined ? {} : { port }) }
  const services = await createSingletonServices(config, extra)
  quiet(services)
  return { config, services }
}

/** src/start.ts on a free port: PikkuExpressServer (@pikku/express) over the generated wirings. */
export const startExpressApp = async (extra?: Extra): Promise<RunningApp> => {
  const port = await freePort()
  const { config, services } = await bootApp(extra, port)
  const server = new PikkuExpressServer({ ...config, hostname: '127.0.0.1' }, services.logger)
  await server.init()
  await server.start()
  // Node's default keepAliveTimeout (5 s) lets the server close an idle keep-alive socket at the moment fetch reuses it
  // after a long test, and that request fails with ECONNRESET. With 0 the server never times an idle socket out, so
  // only fetch closes its idle sockets (after its own 4 s), and stop() closes the ones still open.
  server.getHttpServer().keepAliveTimeout = 0
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    stop: async () => {
      await server.stop()
      await stopSingletonServices()
    },
  }
}

/** Polls `read` until `done` holds, or fails after timeoutMs. Only for states no event announces. */
export const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`state not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

export type RegisteredFunc = (services: any, data: any, wire: any) => Promise<any>

/**
 * Runs `fn` with the registered function `name` replaced by `wrap(original)`, and puts the original back after.
 * The function runner reads `func` at each call, so the replacement takes effect at once.
 */
export async function withWrappedFunction<T>(name: string, wrap: (original: RegisteredFunc) => RegisteredFunc, fn: () => Promise<T>) {
  const registered = pikkuState(null, 'function', 'functions').get(name)! as { func: RegisteredFunc }
  const original = registered.func
  registered.func = wrap(original)
  try {
    return await fn()
  } finally {
    registered.func = original
  }
}

/**
 * For one test, GET /health becomes an SSE route whose function sends { n: 1 }, waits for release(), then sends
 * { n: 2 } and closes. firstSent() resolves once the current call has sent its first event; arm() makes a new one
 * for the next call. restore() puts the route and the function back.
 * HELD_STREAM_ANSWER is what a client reads once the function has returned.
 */
export const HELD_STREAM_ANSWER = { contentType: 'text/event-stream', body: ':\n\ndata: {"n":1}\n\ndata: {"n":2}\n\n' }

export const holdHealthStream = async () => {
  const route = pikkuState(null, 'http', 'routes').get('get')!.get('/health') as unknown as { sse?: boolean }
  const funcId = (pikkuState(null, 'http', 'meta') as any).get['/health'].pikkuFuncId as string
  const functions = pikkuState(null, 'function', 'functions')
  const original = functions.get(funcId)!
  let markSent!: () => void
  const held = {
    firstSent: Promise.resolve(),
    release: () => {},
    arm: () => void (held.firstSent = new Promise<void>((resolve) => (markSent = resolve))),
    /** Releases the function, then reads the answer to the request pending on it. */
    releaseAndRead: async (pending: Promise<Response>) => {
      held.release()
      const response = await pending
      return { contentType: response.headers.get('content-type'), body: await response.text() }
    },
    restore: () => {
      delete route.sse
      functions.set(funcId, original)
    },
  }
  held.arm()
  route.sse = true
  functions.set(funcId, {
    ...original,
    func: async (_services: unknown, _data: unknown, { channel }: any) => {
      const released = new Promise<void>((resolve) => (held.release = resolve))
      channel.send({ n: 1 })
      markSent()
      await released
      channel.send({ n: 2 })
      channel.close()
    },
  } as never)
  return held
}

/**
 * For an adapter's `logger` option: `mounted` mounts the app with the given logger (route list and schema report on)
 * and calls `run` with a way to GET a route and read its status. The option's logger must get the start-up lines,
 * while a request that fails is logged on the singleton services' logger and adds nothing to it.
 */
export const assertLoggerStartupOnly = async (
  services: Singletons,
  mounted: (logger: never, run: (get: (route: string) => Promise<number>) => Promise<void>) => Promise<void>,
) => {
  const own = recordingLogger()
  const singleton = collectLogs(services, 'error')
  const route = '/probe-logger-option'
  const func = {
    auth: false,
    func: async () => {
      throw new Error('probe failure for the logger option')
    },
  }
  try {
    await withProbeRoute('probeLoggerOption', route, func, {}, () =>
      mounted(own.logger as never, async (get) => {
        assert.ok(own.lines.some((line) => line.level === 'info' && line.text.startsWith('Routes loaded:')))
        assert.ok(own.lines.some((line) => line.level === 'info' && line.text === 'All schemas loaded'))
        const before = own.lines.length
        assert.equal(await get(route), 500)
        assert.ok(singleton.lines.some((line) => line.includes('probe failure for the logger option')))
        assert.equal(own.lines.length, before)
      }),
    )
  } finally {
    singleton.restore()
  }
}

/**
 * For a server started on `port` whose http.Server is `httpServer`: opens the held GET /health stream, calls
 * `stop()`, and checks that the listening socket is closed at once (a new connection is refused) while `stop()`
 * stays pending with the stream's connection open, and resolves once the stream has ended.
 */
export const assertStopWaitsForStream = async (
  port: number,
  httpServer: Server,
  stop: () => Promise<void>,
) => {
  // For this check only, GET /health becomes a stream whose function waits between two events; put back below.
  const held = await holdHealthStream()
  try {
    // A client without keep-alive, so the connection closes when the stream ends rather than idling until its timeout.
    const stream = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`http://127.0.0.1:${port}/health`, { agent: false, headers: { accept: 'text/event-stream' } }, resolve).on('error', reject),
    )
    await held.firstSent
    let stopped = false
    const stopping = stop().then(() => (stopped = true))
    // The listening socket is closed: a new connection is refused, while the stream's connection stays open.
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), (error: any) => error.cause?.code === 'ECONNREFUSED')
    const open = await new Promise<number>((resolve, reject) =>
      httpServer.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    )
    assert.equal(open, 1)
    assert.equal(stopped, false)
    // The stream ends once its function returns; only then does stop() resolve.
    held.release()
    for await (const _chunk of stream);
    await stopping
    assert.equal(stopped, true)
  } finally {
    held.restore()
    httpServer.closeAllConnections()
  }
}
