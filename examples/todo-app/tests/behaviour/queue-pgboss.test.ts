// The to-do app's queues on pg-boss (@pikku/queue-pg-boss 0.12.10, pg-boss 12) and a real PostgreSQL: the worker
// started as src/runtimes/pg-boss-worker.ts starts it, jobs published by the app's functions.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { PgBossServiceFactory, PgBossQueueWorkers, PgBossSchedulerService } from '@pikku/queue-pg-boss'
import { pikkuState } from '@pikku/core/state'
import { PgBoss } from 'pg-boss'
import { stopSingletonServices } from '@pikku/core/utils'
import { addFunction } from '@pikku/core/function'
import { SignedQueueService } from '@pikku/core/queue'
import { PikkuQueue } from '#pikku/pikku-queue.gen.js'
import { queueReminder } from '../../src/functions/reminder-jobs.functions.js'
import { startPostgres, type RunningService } from './harness/services.js'
import { bootServices, callerAs, collectLogs, nextInfoLog, storeDownFor, watchStoreGet, type Singletons } from './harness/queues.js'

const HOUR = 60 * 60 * 1000
let postgres: RunningService
let pgBoss: PgBossServiceFactory
let boss: PgBoss
let services: Singletons
let registered: Record<string, Array<{ applied: Record<string, unknown>; warnings: string[] }>>
const owner = { userId: 'u-grace', role: 'member' as const }

before(async () => {
  postgres = await startPostgres()
  pgBoss = new PgBossServiceFactory(postgres.url)
  await pgBoss.init()
  // The factory's pg-boss instance, to read jobs back as pg-boss stores them.
  boss = (pgBoss as any).pgBoss
  services = await bootServices({ queueService: pgBoss.getQueueService(), schedulerService: pgBoss.getSchedulerService() })
  // Registered for RPC calls here whatever the app wires; see queue-bullmq.test.ts.
  addFunction('queueReminder', queueReminder)
  registered = (await pgBoss.getQueueWorkers().registerQueues()) as typeof registered
})

after(async () => {
  await pgBoss.close()
  await stopSingletonServices()
  await postgres.stop()
})

const dueIn = async (ms: number, title = 'Renew the passport') =>
  services.todoStore.create({ ownerId: owner.userId, title, done: false, dueAt: new Date(Date.now() + ms).toISOString() })


test('queue-reminder-runs: the worker runs a job queueReminder publishes; the id is pg-boss\'s own and waitForCompletion resolves without the function\'s result', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  const reminded = nextInfoLog(services, new RegExp(`Reminder for ${owner.userId}: "Renew the passport"`))
  const { jobId } = await callerAs(services, owner).invoke('queueReminder', { todoId: todo.todoId })
  // pg-boss answers with its own UUID; the `jobId` option becomes the job's singletonKey.
  assert.match(jobId!, /^[0-9a-f-]{36}$/)
  const job = await new PikkuQueue(pgBoss.getQueueService()).getJob('todo-reminders', jobId!)
  assert.deepEqual(job?.data, { todoId: todo.todoId })
  await reminded
  const result = await job!.waitForCompletion!(10_000)
  // sendReminder returned { reminded: true }, but the adapter's handler returns nothing, so pg-boss stores no output.
  assert.equal(result ?? null, null)
  assert.equal(await job!.status(), 'completed')
})

test('finished-todo-not-reminded: on pg-boss, a job for a to-do finished in the meantime runs sendReminder, which reads the to-do and logs no reminder; the job completes', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Already filed')
  await services.todoStore.update(todo.todoId, { done: true })
  const reads = watchStoreGet(services)
  const infos = collectLogs(services, 'info')
  try {
    const jobId = await pgBoss.getQueueService().add('todo-reminders', { todoId: todo.todoId })
    const job = await pgBoss.getQueueService().getJob('todo-reminders', jobId)
    await job!.waitForCompletion!(10_000)
    assert.equal(await job!.status(), 'completed')
    assert.ok(reads.calls >= 1)
    assert.ok(!infos.lines.some((line) => line.includes('Already filed')))
  } finally {
    reads.restore()
    infos.restore()
  }
})

test('job-options-reach-pgboss: attempts, backoff, delay and jobId arrive as retryLimit, retryBackoff, retryDelay, startAfter and singletonKey', async () => {
  const todo = await dueIn(3 * HOUR)
  const { jobId } = await callerAs(services, owner).invoke('queueReminder', { todoId: todo.todoId })
  const job = (await boss.getJobById('todo-reminders', jobId!)) as any
  assert.equal(job.retryLimit, 2)
  assert.equal(job.retryBackoff, true)
  assert.equal(job.retryDelay, 1)
  assert.equal(job.singletonKey, `reminder-${todo.todoId}`)
  assert.equal(job.state, 'created')
  const startsIn = new Date(job.startAfter).getTime() - Date.now()
  assert.ok(Math.abs(startsIn - 2 * HOUR) < 60_000, `startAfter is ${startsIn} ms away`)
  await boss.cancel('todo-reminders', jobId!)
})

test('factory-accepts-forms: PgBossServiceFactory takes a pg-boss options object or a PgBoss instance as well as a connection string, and publishes through either once init() ran', async () => {
  const given = new PgBoss(postgres.url)
  const factories = [new PgBossServiceFactory({ connectionString: postgres.url }), new PgBossServiceFactory(given)]
  const name = `probe-forms-${process.pid}`
  try {
    assert.equal((factories[1] as any).pgBoss, given)
    for (const factory of factories) {
      await factory.init()
      const jobId = await factory.getQueueService().add(name, { n: 1 })
      assert.equal((await boss.getJobById(name, jobId))?.name, name)
    }
  } finally {
    await Promise.all(factories.map((factory) => factory.close()))
    await boss.deleteQueue(name)
  }
})

test('add-creates-queue: add() creates a queue that does not exist yet, and backoff \'exponential\' without a delay gets a retryDelay of one second', async () => {
  const name = `probe-created-${process.pid}`
  try {
    assert.equal(await boss.getQueue(name), null)
    const jobId = await pgBoss.getQueueService().add(name, { n: 1 }, { attempts: 2, backoff: { type: 'exponential' } })
    assert.equal((await boss.getQueue(name))?.name, name)
    const job = await boss.getJobById(name, jobId)
    assert.deepEqual([job?.retryBackoff, job?.retryDelay], [true, 1])
  } finally {
    await boss.deleteQueue(name)
  }
})

test('priority-attempts-refused: pg-boss refuses a priority that is not a whole number, and attempts: 0, which the adapter turns into retryLimit -1; add rejects', async () => {
  const name = `probe-refused-${process.pid}`
  const queueService = pgBoss.getQueueService()
  try {
    await assert.rejects(queueService.add(name, { n: 1 }, { priority: 1.5 }), { message: 'priority must be an integer' })
    await assert.rejects(queueService.add(name, { n: 1 }, { attempts: 0 }), { message: 'retryLimit must be an integer >= 0' })
    assert.ok(await queueService.add(name, { n: 1 }, { priority: 2, attempts: 1 }))
  } finally {
    await boss.deleteQueue(name)
  }
})

test('queue-name-characters-refused: pg-boss refuses a queue name with a character other than letters, digits, _, -, . and /, so add rejects', async () => {
  await assert.rejects(pgBoss.getQueueService().add('todo:reminders', { todoId: 't1' }), {
    message: 'Name can only contain alphanumeric characters, underscores, hyphens, periods, or forward slashes',
  })
  await assert.rejects(pgBoss.getQueueService().add('todo reminders', { todoId: 't1' }), /Name can only contain/)
})

test('job-id-no-dedupe: on a standard pg-boss queue, asking twice for the same reminder queues two jobs', async () => {
  const todo = await dueIn(3 * HOUR)
  const caller = callerAs(services, owner)
  const first = await caller.invoke('queueReminder', { todoId: todo.todoId })
  const second = await caller.invoke('queueReminder', { todoId: todo.todoId })
  assert.notEqual(second.jobId, first.jobId)
  const a = (await boss.getJobById('todo-reminders', first.jobId!)) as any
  const b = (await boss.getJobById('todo-reminders', second.jobId!)) as any
  assert.equal(a.singletonKey, b.singletonKey)
  assert.equal(a.state, 'created')
  assert.equal(b.state, 'created')
  await boss.cancel('todo-reminders', [first.jobId!, second.jobId!])
})

test('failed-job-retried-to-attempts: a job whose function throws is tried `attempts` times, then ends failed', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store down')
  const down = storeDownFor(services, todo.todoId)
  try {
    const jobId = await pgBoss.getQueueService().add('todo-reminders', { todoId: todo.todoId }, { attempts: 2, backoff: { type: 'fixed', delay: 10 } })
    const stored = (await boss.getJobById('todo-reminders', jobId)) as any
    // A 10 ms backoff becomes pg-boss's minimum, one second.
    assert.equal(stored.retryDelay, 1)
    assert.equal(stored.retryLimit, 1)
    const job = await pgBoss.getQueueService().getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(15_000), /Job failed: .*todo store unreachable/)
    assert.equal(await job!.status(), 'failed')
    const settled = (await boss.getJobById('todo-reminders', jobId)) as any
    assert.equal(settled.retryCount, 1)
    assert.equal(down.calls, 2)
  } finally {
    down.restore()
  }
})

test('invalid-job-data-fails: job data that does not match the worker\'s input schema fails the job before the function runs', async () => {
  const watched = watchStoreGet(services)
  try {
    const jobId = await pgBoss.getQueueService().add('todo-reminders', { todoId: 42 } as any, { attempts: 1 })
    const job = await pgBoss.getQueueService().getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(15_000), /Property \\"todoId\\" does not match schema\., Instance type \\"number\\" is invalid\. Expected \\"string\\"\./)
    assert.equal(watched.calls, 0)
  } finally {
    watched.restore()
  }
})

test('default-three-tries: a job published without attempts gets pg-boss\'s default retryLimit of 2, so three tries', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store down, no attempts')
  const down = storeDownFor(services, todo.todoId)
  try {
    const jobId = await pgBoss.getQueueService().add('todo-reminders', { todoId: todo.todoId })
    const job = await pgBoss.getQueueService().getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(20_000), /todo store unreachable/)
    const settled = (await boss.getJobById('todo-reminders', jobId)) as any
    assert.equal(settled.retryLimit, 2)
    assert.equal(settled.retryCount, 2)
    assert.equal(down.calls, 3)
  } finally {
    down.restore()
  }
})

test('discard-completes: a job whose function awaits queue.discard() is completed by the adapter, without a retry', async () => {
  const discarded = nextInfoLog(services, /^PgBoss job .* discarded: Queue job .* discarded: to-do deleted-long-ago no longer exists$/)
  const jobId = await pgBoss.getQueueService().add('todo-reminders-strict', { todoId: 'deleted-long-ago' }, { attempts: 3 })
  const job = await pgBoss.getQueueService().getJob('todo-reminders-strict', jobId)
  await job!.waitForCompletion!(10_000)
  await discarded
  const settled = (await boss.getJobById('todo-reminders-strict', jobId)) as any
  assert.equal(settled.state, 'completed')
  assert.equal(settled.retryCount, 0)
})

test('cleanup-progress-logged: on pg-boss the todo-cleanup job\'s updateProgress is only logged, and the job completes', async () => {
  const ownerId = 'u-cleanup-pg'
  await services.todoStore.create({ ownerId, title: 'done', done: true })
  await services.todoStore.create({ ownerId, title: 'open', done: false })
  const progress = nextInfoLog(services, /^Job .* progress: /)
  const jobId = await new PikkuQueue(pgBoss.getQueueService()).add('todo-cleanup', { ownerId })
  assert.equal(await progress, `Job ${jobId} progress: [object Object]`)
  const job = await pgBoss.getQueueService().getJob('todo-cleanup', jobId)
  await job!.waitForCompletion!(10_000)
  assert.equal((await services.todoStore.list(ownerId)).length, 1)
})

test('worker-config-batch-size: registerQueues applies todo-cleanup\'s batchSize (localConcurrency) with no warnings', () => {
  assert.deepEqual(registered['todo-cleanup']![0]!.applied, { batchSize: 1 })
  assert.deepEqual(registered['todo-cleanup']![0]!.warnings, [])
  assert.equal(pgBoss.getQueueService().supportsResults, true)
})

test('worker-config-mapped: registerQueues gives pg-boss localConcurrency from batchSize (10 when unset), pollInterval in whole seconds, groupConcurrency lowered to localConcurrency, and warns about the rest', async () => {
  const registrations = pikkuState(null, 'queue', 'registrations')
  const saved = registrations.get('todo-reminders')!.config
  const work = boss.work
  const calls: Record<string, any> = {}
  // Record what the adapter hands pg-boss instead of starting second workers.
  boss.work = (async (name: string, options: unknown) => ((calls[name] = options), `probe-${name}`)) as never
  try {
    registrations.get('todo-reminders')!.config = {
      pollInterval: 2500, groupConcurrency: 50, removeOnComplete: 5, removeOnFail: 5,
      name: 'probe', autorun: true, lockDuration: 1000, drainDelay: 5, maxStalledCount: 1, prefetch: 2, visibilityTimeout: 30,
    }
    const result = await new PgBossQueueWorkers(boss).registerQueues(services.logger)
    assert.equal(calls['todo-cleanup'].localConcurrency, 1)
    assert.equal(calls['todo-reminders'].localConcurrency, 10)
    // Each of those pollers fetches one job at a time.
    assert.deepEqual([calls['todo-reminders'].batchSize, calls['todo-cleanup'].batchSize], [1, 1])
    assert.equal(calls['todo-reminders'].pollingIntervalSeconds, 3)
    assert.equal(calls['todo-reminders'].localGroupConcurrency, 10)
    const { applied, warnings } = result['todo-reminders']![0]!
    assert.deepEqual(applied, { pollInterval: 2500, groupConcurrency: 50, removeOnComplete: 5, removeOnFail: 5 })
    assert.deepEqual(warnings.map((w) => w.split(':')[0]), [
      'removeOnComplete', 'removeOnFail', 'name', 'autorun', 'lockDuration', 'drainDelay', 'maxStalledCount', 'prefetch', 'visibilityTimeout',
    ])
    for (const key of ['name', 'autorun', 'lockDuration', 'drainDelay', 'maxStalledCount', 'prefetch', 'visibilityTimeout']) {
      assert.ok(!(key in calls['todo-reminders']), key)
    }
  } finally {
    boss.work = work
    registrations.get('todo-reminders')!.config = saved
  }
})

test('poll-interval-under-500-refused: a pollInterval under 500 ms rounds to 0 seconds, pg-boss refuses that worker, and registerQueues logs the error instead of throwing', async () => {
  const registrations = pikkuState(null, 'queue', 'registrations')
  const saved = registrations.get('todo-reminders')!.config
  const work = boss.work
  const started: string[] = []
  // Only todo-reminders reaches pg-boss; the other queues' workers are not started a second time.
  boss.work = (async (name: string, ...args: unknown[]) => {
    if (name !== 'todo-reminders') return `probe-${name}`
    const id = await (work as any).call(boss, name, ...args)
    started.push(id)
    return id
  }) as never
  const errors = collectLogs(services, 'error')
  try {
    registrations.get('todo-reminders')!.config = { pollInterval: 400 }
    await new PgBossQueueWorkers(boss).registerQueues(services.logger)
    assert.deepEqual(started, [])
    assert.ok(
      errors.lines.some((line) => line.startsWith('Failed to register queue processor todo-reminders:') && line.includes('pollingIntervalSeconds must be at least every 500ms')),
      errors.lines.join('\n'),
    )
  } finally {
    errors.restore()
    boss.work = work
    registrations.get('todo-reminders')!.config = saved
    for (const id of started) await boss.offWork('todo-reminders', { id })
  }
})

test('priority-higher-first: on pg-boss a job with a higher priority number is handed out first', async () => {
  const queue = 'priority-probe-pg'
  const qs = pgBoss.getQueueService()
  try {
    await qs.add(queue, { n: 'one' }, { priority: 1 })
    await qs.add(queue, { n: 'ten' }, { priority: 10 })
    // No worker is wired to this queue: fetch takes the job a worker would be given next.
    const [first] = await boss.fetch<{ n: string }>(queue)
    assert.deepEqual(first!.data, { n: 'ten' })
  } finally {
    await boss.deleteQueue(queue)
  }
})

test('delayed-status-waiting: on pg-boss status() answers waiting, never delayed, for a job whose delay has not passed', async () => {
  const todo = await dueIn(3 * HOUR)
  const jobId = await pgBoss.getQueueService().add('todo-reminders', { todoId: todo.todoId }, { delay: HOUR })
  try {
    const job = await pgBoss.getQueueService().getJob('todo-reminders', jobId)
    assert.equal(await job!.status(), 'waiting')
  } finally {
    await boss.cancel('todo-reminders', jobId)
  }
})

test('failed-metadata-no-error: on pg-boss a failed job\'s metadata() has no error, and maxAttempts counts retries, not tries', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store down, metadata')
  const down = storeDownFor(services, todo.todoId)
  try {
    const qs = pgBoss.getQueueService()
    const jobId = await qs.add('todo-reminders', { todoId: todo.todoId }, { attempts: 2, backoff: { type: 'fixed', delay: 10 } })
    await assert.rejects((await qs.getJob('todo-reminders', jobId))!.waitForCompletion!(15_000), /todo store unreachable/)
    const meta = await (await qs.getJob('todo-reminders', jobId))!.metadata!()
    // The failure is stored as the job's output; metadata() reads an `error` field of the job data instead.
    assert.equal(meta.error, undefined)
    assert.match(JSON.stringify(((await boss.getJobById('todo-reminders', jobId)) as any).output), /todo store unreachable/)
    // Two tries were made (attempts: 2); maxAttempts reports pg-boss's retryLimit, 1.
    assert.equal(down.calls, 2)
    assert.equal(meta.maxAttempts, 1)
    assert.equal(meta.attemptsMade, 1)
  } finally {
    down.restore()
  }
})

test('job-read-at-get-job: on pg-boss a job\'s metadata() keeps what getJob read, while status() reads the job again; a second getJob sees the outcome; the job has no result', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Read early')
  const qs = pgBoss.getQueueService()
  // A delay keeps the job waiting while getJob reads it.
  const jobId = await qs.add('todo-reminders', { todoId: todo.todoId }, { delay: 1000 })
  const early = (await qs.getJob('todo-reminders', jobId))!
  await early.waitForCompletion!(15_000)
  assert.equal(await early.status(), 'completed')
  assert.equal((await early.metadata!()).completedAt, undefined)
  assert.equal((await early.metadata!()).processedAt, undefined)
  const again = (await qs.getJob('todo-reminders', jobId))!
  assert.ok((await again.metadata!()).completedAt instanceof Date)
  // The adapter's job has no result field, fetched early or late.
  assert.equal('result' in early, false)
  assert.equal('result' in again, false)
})

test('get-job-rejects: on pg-boss getJob rejects for a queue that does not exist in the database, and for an id that is not a UUID, such as the jobId given to add', async () => {
  const qs = pgBoss.getQueueService()
  const missing = `probe-missing-${process.pid}`
  await assert.rejects(qs.getJob(missing, '00000000-0000-0000-0000-000000000000'), { message: `Queue ${missing} does not exist` })
  const todo = await dueIn(3 * HOUR, 'Looked up by its jobId')
  const { jobId } = await callerAs(services, owner).invoke('queueReminder', { todoId: todo.todoId })
  try {
    // PostgreSQL refuses the id before any row is read.
    await assert.rejects(qs.getJob('todo-reminders', `reminder-${todo.todoId}`), { message: /^invalid input syntax for type uuid: "reminder-/ })
    // An id that is a UUID but names no job answers null.
    assert.equal(await qs.getJob('todo-reminders', '00000000-0000-0000-0000-000000000000'), null)
  } finally {
    await boss.cancel('todo-reminders', jobId!)
  }
})

test('retry-delay-zero-without-backoff: on pg-boss a job with no backoff, or a fixed or linear one without a delay, is stored with retryDelay 0 and no retryBackoff', async () => {
  const name = `probe-no-backoff-${process.pid}`
  const qs = pgBoss.getQueueService()
  try {
    for (const options of [{ attempts: 3 }, { attempts: 3, backoff: 'fixed' }, { attempts: 3, backoff: { type: 'fixed' } }, { attempts: 3, backoff: 'linear' }]) {
      const job = (await boss.getJobById(name, await qs.add(name, { n: 1 }, options))) as any
      assert.deepEqual([job.retryLimit, job.retryDelay, job.retryBackoff], [2, 0, false], JSON.stringify(options))
    }
  } finally {
    await boss.deleteQueue(name)
  }
})

test('long-job-timed-out: on pg-boss a job still running when its queue\'s expireInSeconds (900 on the queues add creates) runs out is failed, while the function goes on', async () => {
  // The adapter creates its queues without options, so pg-boss's default expiry of 15 minutes applies; shortened
  // here to one second to watch what happens when it runs out.
  assert.equal((await boss.getQueue('todo-reminders'))!.expireInSeconds, 900)
  const todo = await dueIn(30 * 60 * 1000, 'Slow store')
  const store = services.todoStore
  const get = store.get.bind(store)
  store.get = async (id) => {
    if (id === todo.todoId) await new Promise((resolve) => setTimeout(resolve, 2_500))
    return get(id)
  }
  await boss.updateQueue('todo-reminders', { expireInSeconds: 1 })
  try {
    const reminded = nextInfoLog(services, /Reminder for u-grace: "Slow store"/)
    const qs = pgBoss.getQueueService()
    const jobId = await qs.add('todo-reminders', { todoId: todo.todoId }, { attempts: 1 })
    await assert.rejects((await qs.getJob('todo-reminders', jobId))!.waitForCompletion!(15_000), /handler execution exceeded 1s/)
    // The job is already failed, and sendReminder still runs to its end.
    await reminded
    assert.equal(((await boss.getJobById('todo-reminders', jobId)) as any).state, 'failed')
  } finally {
    await boss.updateQueue('todo-reminders', { expireInSeconds: 900 })
    store.get = get
  }
})

test('register-before-init-logged: registerQueues() on a factory whose init() did not run resolves, logs each queue as failed to register, and starts no worker', async () => {
  const factory = new PgBossServiceFactory(postgres.url)
  const errors = collectLogs(services, 'error')
  try {
    const result = await factory.getQueueWorkers().registerQueues()
    assert.ok('todo-reminders' in result)
    assert.ok(errors.lines.some((line) => line.startsWith('Failed to register queue processor todo-reminders:')))
    assert.equal((factory.getQueueWorkers() as any).activeWorkers.size, 0)
  } finally {
    errors.restore()
    await factory.close()
  }
})

test('add-before-init-rejects: add() on the queue service of a factory whose init() did not run rejects with pg-boss\'s "Database not opened" error', async () => {
  const factory = new PgBossServiceFactory(postgres.url)
  try {
    await assert.rejects(factory.getQueueService().add('todo-reminders', { todoId: 'never-sent' }), {
      message: 'Database not opened. Call start() before using pg-boss, or again after stop().',
    })
  } finally {
    await factory.close()
  }
})

test('signed-claim-not-carried: a pikkuUserId signed by SignedQueueService does not reach the pg-boss job', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = 'q0Vb1m3mS0n6cXy3mJ2bQx8T1vH5dN7aK9pL4rW6eZs='
  try {
    const signed = new SignedQueueService(pgBoss.getQueueService(), services.secrets, services.logger)
    const todo = await dueIn(3 * HOUR)
    const jobId = await signed.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: owner.userId, delay: HOUR })
    const job = await boss.getJobById('todo-reminders', jobId)
    assert.deepEqual(job!.data, { todoId: todo.todoId })
    assert.ok(!JSON.stringify(job).includes('pq1.'))
    await boss.cancel('todo-reminders', jobId)
  } finally {
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('scheduler-start-registers-crons: PgBossSchedulerService.start() registers every wireScheduler task as a pg-boss schedule', async () => {
  const scheduler = pgBoss.getSchedulerService()
  await scheduler.start()
  try {
    const schedules = await boss.getSchedules()
    const byName = Object.fromEntries(schedules.map((s) => [s.name, s.cron]))
    assert.equal(byName['pikku-recurring-scheduled-task_daily-digest'], '0 9 * * *')
    assert.equal(byName['pikku-recurring-scheduled-task_workflow-recovery'], '*/5 * * * *')
    assert.equal(byName['pikku-recurring-scheduled-task_weekday-digest'], '30 8 * * *')
  } finally {
    await scheduler.stop()
  }
  assert.deepEqual(await boss.getSchedules(), [])
})

test('scheduler-start-prunes-others: start() deletes a pikku-recurring-scheduled-task_ schedule, and its queue, that no task of this app wires, as another app on the database would have', async () => {
  const other = 'pikku-recurring-scheduled-task_other-app-report'
  const scheduler = pgBoss.getSchedulerService()
  try {
    await boss.createQueue(other)
    await boss.schedule(other, '0 3 * * *', { rpcName: 'otherAppReport' })
    assert.ok((await boss.getSchedules()).some((s) => s.name === other))
    await scheduler.start()
    assert.ok(!(await boss.getSchedules()).some((s) => s.name === other))
    assert.equal(await boss.getQueue(other), null)
  } finally {
    await scheduler.stop()
    if (await boss.getQueue(other)) {
      await boss.unschedule(other)
      await boss.deleteQueue(other)
    }
  }
})

test('schedule-rpc-no-queue: scheduleRPC throws, because it sends to pikku-remote-internal-rpc, a queue nothing creates', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  await assert.rejects(pgBoss.getSchedulerService().scheduleRPC('1m', 'sendReminder', { todoId: todo.todoId }), {
    message: 'Queue pikku-remote-internal-rpc does not exist',
  })
  assert.ok(!Object.keys(registered).includes('pikku-remote-internal-rpc'))
})

test('schedule-rpc-parked: once the queue exists, scheduleRPC stores the call there, and no worker of the app consumes it', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  await boss.createQueue('pikku-remote-internal-rpc')
  try {
    const scheduler = pgBoss.getSchedulerService()
    const taskId = await scheduler.scheduleRPC('1m', 'sendReminder', { todoId: todo.todoId })
    const task = await scheduler.getTask(taskId)
    assert.equal(task?.rpcName, 'sendReminder')
    assert.deepEqual(task?.data, { todoId: todo.todoId })
    assert.equal(task?.status, 'created')
    // getAllTasks is not implemented on pg-boss: it always answers an empty list.
    assert.deepEqual(await scheduler.getAllTasks(), [])
    assert.equal(await scheduler.unschedule(taskId), true)
    assert.equal((await scheduler.getTask(taskId))?.status, 'cancelled')
  } finally {
    await boss.deleteQueue('pikku-remote-internal-rpc')
  }
})

test('scheduler-stop-removes-shared: stop() on one of two started PgBossSchedulerService instances deletes the schedules the other relies on', async () => {
  const first = pgBoss.getSchedulerService()
  // A second process on the same database, as a second replica of a worker would start it.
  const second = new PgBossSchedulerService(boss)
  await first.start()
  await second.start()
  try {
    assert.equal((await boss.getSchedules()).length, 3)
    await second.stop()
    // The schedules live in PostgreSQL, not in the process: the first instance, still started, has none left.
    assert.deepEqual(await boss.getSchedules(), [])
  } finally {
    await first.stop()
  }
})

test('scheduled-run-retried: a scheduled run that throws, a skip included, fails the pg-boss job, and pg-boss runs it again up to its default retryLimit of 2', async () => {
  const scheduler = pgBoss.getSchedulerService()
  await scheduler.start()
  const logger = services.logger as any
  const info = logger.info
  let runs = 0
  logger.info = function (this: unknown, ...args: unknown[]) {
    if (String(args[0]) === 'Running scheduled task: weekday-digest') runs++
    return info.apply(this, args)
  }
  // The coming Saturday (UTC), so weekdayDigest calls scheduledTask.skip(). Only Date is faked, pg-boss's timers run as
  // usual; the fake day is at most six days ahead, so the delays pg-boss derives from Date stay small.
  const now = Date.now()
  mock.timers.enable({ apis: ['Date'], now: now + ((6 - new Date(now).getUTCDay()) % 7) * 24 * HOUR })
  try {
    // One run, as pg-boss's clock would send it at 08:30.
    const queue = 'pikku-recurring-scheduled-task_weekday-digest'
    const jobId = (await boss.send(queue, { rpcName: 'weekday-digest' }))!
    let settled: any
    for (let i = 0; i < 150; i++) {
      settled = await boss.getJobById(queue, jobId)
      if (settled?.state === 'failed') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(settled?.state, 'failed')
    assert.equal(settled.retryLimit, 2)
    assert.equal(settled.retryCount, 2)
    assert.match(JSON.stringify(settled.output), /was skipped: no digest at weekends/)
    assert.equal(runs, 3)
  } finally {
    mock.timers.reset()
    logger.info = info
    await scheduler.stop()
  }
})
