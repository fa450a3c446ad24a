// The to-do API registered as a plugin on a Fastify 5 app that has routes of its own (@pikku/fastify-plugin).
import '#pikku/pikku-bootstrap.gen.js'
import Fastify from 'fastify'
import pikkuFastifyPlugin from '@pikku/fastify-plugin'
import { InMemorySchedulerService } from '@pikku/schedule'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const { logger } = await createSingletonServices(config)

const app = Fastify()

// #region register
// A route of the app's own. Fastify tries exact paths before the plugin's catch-all '/*'.
app.get('/legacy/ping', async () => 'pong')

await app.register(pikkuFastifyPlugin, {
  pikku: {
    logger,
    logRoutes: true,
    loadSchemas: true,
    // Becomes the catch-all route's bodyLimit; without it Fastify's own 1 MiB limit applies.
    maxBodySize: 2 * 1024 * 1024,
  },
})
// #endregion register

const scheduler = new InMemorySchedulerService()
await scheduler.start()

app.addHook('onClose', async () => {
  await scheduler.stop()
  await stopSingletonServices()
})

await app.listen({ port: config.port, host: process.env.HOST ?? 'localhost' })

const shutdown = async () => {
  await app.close()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
