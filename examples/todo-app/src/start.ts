// The entry file of `npm start`: the to-do API on the Express server that Pikku builds (@pikku/express).
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuExpressServer } from '@pikku/express'
import { createConfig } from './config.js'
import { createSingletonServices } from './services.js'

const config = await createConfig()
const singletonServices = await createSingletonServices(config)

// Listens on config.port; the hostname is only needed by the server, so it is added here.
const server = new PikkuExpressServer({ ...config, hostname: 'localhost' }, singletonServices.logger)
server.enableExitOnSigInt()
await server.init()
await server.start()
