// The custom queue runtime of docs/custom-runtimes/queue-runtime.mdx, as the app ships it (src/table-queue/): the
// in-memory job table, TableQueueService and startTableWorkers over @pikku/core/queue's runQueueJob and
// registerQueueWorkers. Its polling loops run on setTimeout, so the clock is node:test's mock timers: a poll is
// reached by moving the clock, and no real timer is left running at the end.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { registerQueueWorkers, runQueueJob } from '@pikku/core/queue'
import { PikkuMissingMetaError } from '@pikku/core/errors'
import { stopSingletonServices } from '@pikku/core/utils'
import { InMemoryJobTable } from '../../src/table-queue/job-table.js'
import { TableQueueService } from '../../src/table-queue/table-queue-service.js'
import { startTableWorkers } from '../../src/table-queue/table-queue-workers.js'
import { bootServices, nextInfoLog, type Singletons } from './harness/queues.js'

let services: Singletons
const table = new InMemoryJobTable()
const queueService = new TableQueueService(table)
let results: Awaited<ReturnType<typeof startTableWorkers>>

before(async () => {
  services = await bootServices({ queueService })
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() })
  results = await startTableWorkers(table, services.logger)
})

after(async () => {
  mock.timers.reset()
  await stopSingletonServices()
})

/** Lets the promises a timer callback started settle. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}

test('table-workers-registered: startTableWorkers starts a loop for every wired queue and reports no warnings for the app\'s configs', () => {
  assert.ok(results['todo-reminders'])
  assert.ok(results['todo-cleanup'])
  assert.deepEqual(results['todo-cleanup']![0]!.warnings, [])
  assert.deepEqual(results['todo-cleanup']![0]!.applied, { batchSize: 1 })
})

test('table-job-runs: a job added through TableQueueService is run by the next poll and removed from the table', async () => {
  const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Book the hall', done: false })
  const reminded = nextInfoLog(services, /^Reminder for u-kim: "Book the hall"/)
  await queueService.add('todo-reminders', { todoId: todo.todoId })
  mock.timers.tick(1000)
  await reminded
  await settle()
  assert.equal(await table.claimNext('todo-reminders'), undefined)
  assert.equal(queueService.supportsResults, false)
  assert.equal(await queueService.getJob(), null)
})

test('table-job-retried: a failing job runs again after retryLater\'s delay while attempts remain, then is dropped', async () => {
  const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Flaky', done: false })
  const store = services.todoStore
  const get = store.get.bind(store)
  let calls = 0
  store.get = async (id) => {
    if (id !== todo.todoId) return get(id)
    calls++
    throw new Error('todo store unreachable')
  }
  try {
    await queueService.add('todo-reminders', { todoId: todo.todoId }, { attempts: 2 })
    mock.timers.tick(1000)
    await settle()
    assert.equal(calls, 1)
    // Retried after 5 s (retryLater(id, 5000)); the poll after that finds it.
    mock.timers.tick(5000)
    await settle()
    mock.timers.tick(1000)
    await settle()
    assert.equal(calls, 2)
    mock.timers.tick(10_000)
    await settle()
    assert.equal(calls, 2)
    assert.equal(await table.claimNext('todo-reminders'), undefined)
  } finally {
    store.get = get
  }
})

test('run-queue-job-missing-meta: runQueueJob throws PikkuMissingMetaError for a queue no wireQueueWorker registered', async () => {
  await assert.rejects(
    runQueueJob({ job: { id: 'j1', queueName: 'todo-archive', data: {}, status: () => 'active' } }),
    (error: Error) => error instanceof PikkuMissingMetaError,
  )
})

test('run-queue-job-trace-and-rethrow: runQueueJob runs under the trace id q-<jobId> and rethrows the function\'s error', async () => {
  const logger = services.logger as any
  const scope = logger.scope
  const traceIds: string[] = []
  logger.scope = function (traceId: string) {
    traceIds.push(traceId)
    return scope.call(logger, traceId)
  }
  try {
    await assert.rejects(
      runQueueJob({ job: { id: 'j2', queueName: 'todo-reminders', data: { todoId: 7 }, status: () => 'active' } }),
      /Instance type "number" is invalid/,
    )
    assert.equal(traceIds[0], 'q-j2')
    // Typed Promise<void>, but it resolves with the function's return value.
    const result: unknown = await runQueueJob({ job: { id: 'j3', queueName: 'todo-cleanup', data: { ownerId: 'nobody' }, status: () => 'active' }, traceId: 'mine' })
    assert.deepEqual(result, { removed: 0 })
    assert.equal(traceIds[1], 'mine')
  } finally {
    logger.scope = scope
  }
})

test('register-callback-error-logged: an error thrown by registerQueueWorkers\' callback is logged, not rethrown', async () => {
  const logger = services.logger as any
  const error = logger.error
  const logged: string[] = []
  logger.error = function (this: unknown, ...args: unknown[]) {
    logged.push(String(args[0]))
    return error.apply(this, args)
  }
  try {
    const outcome = await registerQueueWorkers({ supported: {}, unsupported: {}, fallbacks: {} }, services.logger, async () => {
      throw new Error('broker unreachable')
    })
    assert.ok(outcome['todo-reminders'])
    assert.ok(logged.includes('Failed to register queue processor todo-reminders:'))
    // Unlisted config fields are dropped with a warning.
    assert.deepEqual(outcome['todo-cleanup']![0]!.warnings, ['batchSize: Unknown configuration option for this queue implementation'])
  } finally {
    logger.error = error
  }
})
