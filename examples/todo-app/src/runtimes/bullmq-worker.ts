// The to-do app's queue worker process on Redis (@pikku/queue-bullmq): runs the jobs of every registered queue
// worker, todo-reminders among them.
import '#pikku/pikku-bootstrap.gen.js'
import { BullServiceFactory } from '@pikku/queue-bullmq'
import { stopSingletonServices } from '@pikku/core/utils'
import { ConnectedBullQueueService } from '../bull-queue-service.js'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

// BullMQ connection options; the connections themselves open lazily.
const connection = {
  host: process.env.REDIS_HOST ?? 'localhost',
  port: Number(process.env.REDIS_PORT ?? 6379),
}
const bull = new BullServiceFactory(connection)
await bull.init()
// Not bull.getQueueService(): that one publishes to 127.0.0.1:6379 whatever `connection` says (see the class).
const queueService = new ConnectedBullQueueService(connection)

const config = await createConfig()
// The singleton services must exist before the workers start: each job runs with them.
const { logger } = await createSingletonServices(config, {
  queueService,
  schedulerService: bull.getSchedulerService(),
})

// One BullMQ Worker for every queue worker the bootstrap registered.
await bull.getQueueWorkers().registerQueues()
logger.info('Queue workers running')

const shutdown = async () => {
  await bull.close()
  await queueService.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
