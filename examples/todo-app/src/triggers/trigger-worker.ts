// The one process that runs the trigger sources. Registering a source opens nothing: the subscriptions open
// when start() runs, so start them in exactly one process, or every event fires once per process.
import '#pikku/pikku-bootstrap.gen.js'
import { InMemoryTriggerService } from '@pikku/core/services'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
// The sources and their targets run with these services, so they must exist before start().
const { logger } = await createSingletonServices(config)

const triggers = new InMemoryTriggerService()
await triggers.start()
logger.info('Trigger worker running')

const shutdown = async () => {
  // Runs every source's teardown function.
  await triggers.stop()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
