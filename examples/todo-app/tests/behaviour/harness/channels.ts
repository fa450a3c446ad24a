// The to-do app started in this process the way src/runtimes/ws.ts starts it: Express with
// pikkuExpressMiddleware for plain HTTP (SSE routes included), and a ws WebSocketServer (noServer,
// maxPayload DEFAULT_WS_MAX_PAYLOAD) handed to pikkuWebsocketHandler from @pikku/ws for the channels.
// On 127.0.0.1 and a free port. Sessions come from bearer tokens signed by the app's jwt service over a test key (harness/http.ts),
// passed to createSingletonServices as the app's `jwt` service (src/auth.ts decodes them through it).
import '#pikku/pikku-bootstrap.gen.js'
import { createServer, type Server } from 'node:http'
import express from 'express'
import { WebSocket, WebSocketServer } from 'ws'
import { stopSingletonServices } from '@pikku/core/utils'
import { pikkuExpressMiddleware } from '@pikku/express-middleware'
import { DEFAULT_WS_MAX_PAYLOAD, pikkuWebsocketHandler } from '@pikku/ws'
import { bootApp, type Singletons } from './app.js'
import { freePort } from './services.js'
import { createTestJWT } from './http.js'

export interface RunningWsApp {
  /** http://127.0.0.1:<port> */
  url: string
  /** ws://127.0.0.1:<port> */
  wsUrl: string
  services: Singletons
  /** How many TCP connections the server holds (plain HTTP, streams and sockets). */
  connections: () => Promise<number>
  /** A bearer token for a member session with this userId. */
  token: (userId: string, role?: 'member' | 'admin') => Promise<string>
  stop: () => Promise<void>
}

/**
 * `guardSocketErrors` (default true) adds src/runtimes/ws.ts's 'error' listener on each accepted socket; false
 * leaves @pikku/ws on its own, to show what happens without it.
 */
export const startWsApp = async ({ guardSocketErrors = true } = {}): Promise<RunningWsApp> => {
  const port = await freePort()
  const jwt = await createTestJWT()
  const { services } = await bootApp({ jwt }, port)
  const { logger } = services

  const app = express()
  app.use(express.json())
  app.use(pikkuExpressMiddleware({ logger, loadSchemas: true }))
  const server: Server = createServer(app)
  const wss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_WS_MAX_PAYLOAD })
  pikkuWebsocketHandler({ server, wss, logger })
  if (guardSocketErrors) {
    wss.on('connection', (ws) => ws.on('error', (error) => logger.warn(`WebSocket error: ${error.message}`)))
  }
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))

  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    services,
    connections: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    token: (userId, role = 'member') => jwt.encode({ value: 1, unit: 'hour' }, { userId, role }),
    stop: async () => {
      for (const client of wss.clients) client.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await stopSingletonServices()
    },
  }
}

/**
 * A raw `ws` client that records every frame it receives (JSON parsed when it parses, raw text otherwise), so a
 * test can wait for the next frame matching a predicate instead of sleeping.
 */
export class RawClient {
  readonly ws: WebSocket
  readonly frames: unknown[] = []
  private waiters: { match: (f: unknown) => boolean; resolve: (f: unknown) => void }[] = []
  readonly opened: Promise<void>
  readonly closed: Promise<{ code: number }>

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers })
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve())
      this.ws.once('error', reject)
    })
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve({ code })))
    this.ws.on('message', (data, isBinary) => {
      const text = isBinary ? undefined : data.toString()
      let frame: unknown = data
      if (text !== undefined) {
        try {
          frame = JSON.parse(text)
        } catch {
          frame = text
        }
      }
      this.frames.push(frame)
      for (const waiter of [...this.waiters]) {
        if (waiter.match(frame)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1)
          waiter.resolve(frame)
        }
      }
    })
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** The first frame, already received or still to come, after index `from` that matches. */
  next<T = any>(match: (f: any) => boolean, timeoutMs = 3000, from = 0): Promise<T> {
    const seen = this.frames.slice(from).find(match)
    if (seen !== undefined) return Promise.resolve(seen as T)
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`)), timeoutMs)
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer)
          resolve(f as T)
        },
      })
    })
  }

  /** Sends and waits for the reply that echoes `action`. */
  async call<T = any>(action: string, data: Record<string, unknown> = {}): Promise<T> {
    const from = this.frames.length
    this.send({ action, ...data })
    return this.next<T>((f) => f && typeof f === 'object' && (f as any).action === action, 3000, from)
  }

  async close() {
    if (this.ws.readyState === WebSocket.CLOSED) return
    this.ws.close()
    await this.closed
  }
}

/** Resolves with the HTTP status of a refused upgrade, or 101 when the upgrade succeeds. */
export const upgradeStatus = (url: string, headers: Record<string, string> = {}): Promise<number> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.once('open', () => {
      resolve(101)
      ws.close()
    })
    ws.once('error', (error) => reject(error))
  })
