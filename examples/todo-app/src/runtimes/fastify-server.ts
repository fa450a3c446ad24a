// The to-do API on a Fastify server that Pikku builds and owns (@pikku/fastify).
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuFastifyServer } from '@pikku/fastify'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const { logger } = await createSingletonServices(config)

const server = new PikkuFastifyServer({ ...config, hostname: process.env.HOST ?? 'localhost' }, logger)
server.enableExitOnSigInt()
await server.init()
await server.start()
