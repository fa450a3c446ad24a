// The to-do API and its live channel on a uWebSockets.js server that Pikku builds and owns (@pikku/uws).
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuUWSServer } from '@pikku/uws'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const { logger } = await createSingletonServices(config)

const server = new PikkuUWSServer(
  { ...config, hostname: process.env.HOST ?? 'localhost', healthCheckPath: '/health-check' },
  logger,
)
server.enableExitOnSigInt()
// Runner options for the HTTP handler; here, log a warning for a registered error with status 500, such as
// InternalServerError. An unregistered error also answers 500, but it is logged as an error whatever this lists,
// and so is any error a function on an SSE route throws (the routes in todos.sse.ts among them).
await server.init({ logWarningsForStatusCodes: [500] })
await server.start()
