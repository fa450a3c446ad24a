// The to-do API and its live channel on a uWebSockets.js app the project builds itself (@pikku/uws-handler).
import '#pikku/pikku-bootstrap.gen.js'
import * as uWS from 'uWebSockets.js'
import { pikkuHTTPHandler, pikkuWebsocketHandler } from '@pikku/uws-handler'
import { InMemorySchedulerService } from '@pikku/schedule'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const { logger } = await createSingletonServices(config)

const app = uWS.App()

// #region mount
// A route of the app's own, for the load balancer. uWS tries exact patterns before wildcards.
app.get('/version', (res) => {
  res.writeHeader('content-type', 'application/json').end(JSON.stringify({ version: process.env.APP_VERSION ?? 'dev' }))
})

// Every wireHTTP route, server-sent events included.
app.any('/*', pikkuHTTPHandler({ logger, logRoutes: true, loadSchemas: true }))
// Every wireChannel channel, such as the to-do app's 'todos' channel on /todos/live.
app.ws('/*', pikkuWebsocketHandler({ logger, logRoutes: true }))
// #endregion mount

const scheduler = new InMemorySchedulerService()
await scheduler.start()

const host = process.env.HOST ?? 'localhost'
app.listen(host, config.port, (listenSocket) => {
  if (!listenSocket) {
    logger.error(`Could not listen on ${host}:${config.port}`)
    process.exit(1)
  }
  logger.info(`To-do API and channels on http://${host}:${config.port}`)

  const shutdown = async () => {
    await scheduler.stop()
    uWS.us_listen_socket_close(listenSocket)
    await stopSingletonServices()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
})
