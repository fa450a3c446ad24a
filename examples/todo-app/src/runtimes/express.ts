// The to-do API mounted inside an Express app that has routes of its own (@pikku/express-middleware).
import '#pikku/pikku-bootstrap.gen.js'
import express from 'express'
import { pikkuExpressMiddleware } from '@pikku/express-middleware'
import { InMemorySchedulerService } from '@pikku/schedule'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const { logger } = await createSingletonServices(config)

const app = express()

// #region mount
// Express routes come first: the Pikku middleware writes a response for every request it is given.
app.get('/legacy/ping', (_req, res) => {
  res.send('pong')
})

// Pikku reads the body Express parsed, so the parser must run before the middleware.
app.use(express.json())
app.use(pikkuExpressMiddleware({ logger, logRoutes: true, loadSchemas: true }))
// Nothing that writes a response goes after this line.
// #endregion mount

// Runs every registered scheduled task (src/wirings/*.scheduler.ts), the daily digest among them, in this process.
const scheduler = new InMemorySchedulerService()
await scheduler.start()

const server = app.listen(config.port, () => {
  logger.info(`To-do API on http://localhost:${config.port}`)
})

const shutdown = async () => {
  await scheduler.stop()
  server.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
