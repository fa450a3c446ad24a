// A process that only runs the scheduled tasks (src/wirings/*.scheduler.ts), for a deployment that runs the
// API on several replicas: the tasks run here, once, instead of once per replica.
import '#pikku/pikku-bootstrap.gen.js'
import { InMemorySchedulerService } from '@pikku/schedule'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from './config.js'
import { createSingletonServices } from './services.js'

const config = await createConfig()
// The tasks run with these services, so they must exist before the scheduler starts.
const { logger } = await createSingletonServices(config)

// One cron job per registered scheduled task, on this machine's clock.
const scheduler = new InMemorySchedulerService()
await scheduler.start()
logger.info('Scheduler running')

const shutdown = async () => {
  await scheduler.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
