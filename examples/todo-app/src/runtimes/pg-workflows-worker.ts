// The to-do app's worker process with durable workflows on PostgreSQL: runs and steps are stored in the database,
// sleeps are scheduled through pg-boss, and a restarted worker picks up where the last one stopped.
import '#pikku/pikku-bootstrap.gen.js'
import { PgBossServiceFactory } from '@pikku/queue-pg-boss'
import { PikkuKysely, PgKyselyWorkflowService, type KyselyPikkuDB } from '@pikku/kysely-postgres'
import { ConsoleLogger } from '@pikku/core/services'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@localhost:5432/todos'
const logger = new ConsoleLogger()

// #region workflowService
// One connection pool for the pikku tables; init() fails fast when the database cannot be reached.
const database = new PikkuKysely<KyselyPikkuDB>(logger, databaseUrl)
await database.init()

// init() checks that `npx pikku db migrate` created the workflow tables, and throws when it did not.
const workflowService = new PgKyselyWorkflowService(database.kysely)
await workflowService.init()
// #endregion workflowService

// #region services
const pgBoss = new PgBossServiceFactory(databaseUrl)
await pgBoss.init()
const schedulerService = pgBoss.getSchedulerService()

// The services factory keeps the workflow service it is given instead of building an in-memory one.
const config = await createConfig()
await createSingletonServices(config, {
  workflowService,
  queueService: pgBoss.getQueueService(),
  schedulerService,
})
// #endregion services

// #region workers
// Serves the orchestrator and step queues the workflow service declared when it was constructed. start() then turns
// the wired scheduled tasks into pg-boss schedules, so this process runs them too; it plays no part in waking a
// sleeping run, whose wake-up is a scheduleRPC call that needs no start().
await pgBoss.getQueueWorkers().registerQueues()
await schedulerService.start()
logger.info('Workflow workers running')
// #endregion workers

const shutdown = async () => {
  await schedulerService.stop()
  await pgBoss.close()
  await database.close()
  await stopSingletonServices()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
