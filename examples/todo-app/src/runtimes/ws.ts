// The to-do API's channels with the ws library, next to the REST routes on the same Node.js server (@pikku/ws).
import '#pikku/pikku-bootstrap.gen.js'
import { createServer } from 'node:http'
import express from 'express'
import { WebSocketServer } from 'ws'
import { stopSingletonServices } from '@pikku/core/utils'
import { pikkuExpressMiddleware } from '@pikku/express-middleware'
import { DEFAULT_WS_MAX_PAYLOAD, pikkuWebsocketHandler } from '@pikku/ws'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
// src/services.ts creates a LocalEventHubService as eventHub; the ws handler delivers through that one.
const { logger } = await createSingletonServices(config)

// #region attach
// Plain HTTP requests: the REST routes, through the Express middleware.
const app = express()
app.use(express.json())
app.use(pikkuExpressMiddleware({ logger, loadSchemas: true }))
const server = createServer(app)

// Upgrade requests: noServer, so Pikku decides on each one; the cap replaces ws's 100 MiB default.
const wss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_WS_MAX_PAYLOAD })
pikkuWebsocketHandler({ server, wss, logger, logRoutes: true })
// @pikku/ws 0.12.9 puts no 'error' listener on the sockets it accepts, so a frame over maxPayload would end the
// process with an unhandled 'error' event. ws closes such a socket with 1009 by itself; this only logs it.
wss.on('connection', (ws) => ws.on('error', (error) => logger.warn(`WebSocket error: ${error.message}`)))
// #endregion attach

const host = process.env.HOST ?? 'localhost'
server.listen(config.port, host, () => {
  logger.info(`REST routes and channels on http://${host}:${config.port}`)
})

const shutdown = async () => {
  wss.close()
  server.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
