// The to-do API on a server that Pikku builds and owns (@pikku/express).
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuExpressServer } from '@pikku/express'
import { InMemorySchedulerService } from '@pikku/schedule'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const { logger } = await createSingletonServices(config)

// The server listens on config.port and on the hostname given here; HOST=0.0.0.0 inside a container.
const server = new PikkuExpressServer({ ...config, hostname: process.env.HOST ?? 'localhost' }, logger)
server.enableExitOnSigInt()
await server.init()
await server.start()

const scheduler = new InMemorySchedulerService()
await scheduler.start()
