// The to-do app in this process on Fastify 5, the way src/runtimes/fastify-plugin.ts starts it: the generated
// bootstrap, src/config.ts, src/services.ts, a Fastify route of the app's own (GET /legacy/ping) and the real
// @pikku/fastify-plugin registered with the same options, on 127.0.0.1 and a free port. One start per test file.
import '#pikku/pikku-bootstrap.gen.js'
import Fastify from 'fastify'
import pikkuFastifyPlugin from '@pikku/fastify-plugin'
import { stopSingletonServices } from '@pikku/core/utils'
import { bootApp, type Extra, type RunningApp } from './app.js'
import { freePort } from './services.js'

export const startFastifyApp = async (extra?: Extra): Promise<RunningApp> => {
  const port = await freePort()
  const { services } = await bootApp(extra, port)
  const app = Fastify()
  app.get('/legacy/ping', async () => 'pong')
  await app.register(pikkuFastifyPlugin, {
    pikku: { logger: services.logger, logRoutes: true, loadSchemas: true, maxBodySize: 2 * 1024 * 1024 },
  })
  await app.listen({ port, host: '127.0.0.1' })
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    stop: async () => {
      await app.close()
      await stopSingletonServices()
    },
  }
}
