// The to-do app's queue worker process on PostgreSQL (@pikku/queue-pg-boss): runs the jobs of every registered
// queue worker, todo-reminders among them.
import '#pikku/pikku-bootstrap.gen.js'
import { PgBossServiceFactory } from '@pikku/queue-pg-boss'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const pgBoss = new PgBossServiceFactory(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@localhost:5432/todos')
// Calls pg-boss start() once, before anything publishes or polls.
await pgBoss.init()

const config = await createConfig()
const { logger } = await createSingletonServices(config, {
  queueService: pgBoss.getQueueService(),
  schedulerService: pgBoss.getSchedulerService(),
})

// Polls PostgreSQL for the jobs of every queue worker the bootstrap registered.
await pgBoss.getQueueWorkers().registerQueues()
logger.info('Queue workers running')

const shutdown = async () => {
  await pgBoss.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
