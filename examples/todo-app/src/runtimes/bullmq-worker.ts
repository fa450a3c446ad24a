// The to-do app's queue worker process on Redis (@pikku/queue-bullmq): runs the todo-reminders jobs.
import '#pikku/pikku-bootstrap.gen.js'
import { BullServiceFactory } from '@pikku/queue-bullmq'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

// BullMQ connection options; the connections themselves open lazily.
const bull = new BullServiceFactory({
  host: process.env.REDIS_HOST ?? 'localhost',
  port: Number(process.env.REDIS_PORT ?? 6379),
})
await bull.init()

const config = await createConfig()
// The singleton services must exist before the workers start: each job runs with them.
const { logger } = await createSingletonServices(config, {
  queueService: bull.getQueueService(),
  schedulerService: bull.getSchedulerService(),
})

// One BullMQ Worker for every wireQueueWorker in the project.
await bull.getQueueWorkers().registerQueues()
logger.info('Queue workers running')

const shutdown = async () => {
  await bull.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
