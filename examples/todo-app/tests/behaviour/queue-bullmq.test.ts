// The to-do app's queues on BullMQ (@pikku/queue-bullmq 0.12.7) and a real redis-server: the worker started as
// src/runtimes/bullmq-worker.ts starts it, jobs published by the app's functions and the generated PikkuQueue client.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { Queue, QueueEvents, Worker } from 'bullmq'
import { BullServiceFactory, BullQueueService, BullQueueWorkers, BullSchedulerService } from '@pikku/queue-bullmq'
import { pikkuState } from '@pikku/core/state'
import { stopSingletonServices } from '@pikku/core/utils'
import { InMemoryQueueService } from '@pikku/core/services'
import { PikkuQueue } from '#pikku/pikku-queue.gen.js'
import { startRedis, type RunningService } from './harness/services.js'
import { RedisWorkflowService } from '@pikku/redis'
import type { WorkflowQueueOptions } from '@pikku/core/workflow'
import { Redis } from 'ioredis'
import { addFunction } from '@pikku/core/function'
import { runQueueJob, SignedQueueService } from '@pikku/core/queue'
import { queueReminder } from '../../src/functions/reminder-jobs.functions.js'
import { bootServices, callerAs, collectLogs, ConnectedBullQueueService, nextInfoLog, storeDownFor, watchStoreGet, type Singletons } from './harness/queues.js'

const HOUR = 60 * 60 * 1000
let redis: RunningService
let bull: BullServiceFactory
let queueService: ConnectedBullQueueService
let services: Singletons
let registered: Record<string, Array<{ applied: Record<string, unknown>; warnings: string[] }>>
let events: QueueEvents
const opened: Array<{ close(): Promise<unknown> }> = []
const owner = { userId: 'u-ada', role: 'member' as const }

before(async () => {
  redis = await startRedis()
  const connection = { host: redis.host, port: redis.port }
  bull = new BullServiceFactory(connection)
  await bull.init()
  queueService = new ConnectedBullQueueService(connection)
  services = await bootServices({ queueService, schedulerService: bull.getSchedulerService() })
  // The generated bootstrap registers a function for RPC calls only when something in the app reaches it by name or
  // wires it; register queueReminder the way pikku-functions.gen.ts does, to call it as its owner whatever the app wires.
  addFunction('queueReminder', queueReminder)
  registered = (await bull.getQueueWorkers().registerQueues()) as typeof registered
  events = new QueueEvents('todo-reminders', { connection })
  await events.waitUntilReady()
  opened.push(events)
})

after(async () => {
  await Promise.all(opened.map((o) => o.close()))
  await bull.close()
  await queueService.close()
  await stopSingletonServices()
  await redis.stop()
})

const dueIn = async (ms: number, title = 'Water the plants') =>
  services.todoStore.create({ ownerId: owner.userId, title, done: false, dueAt: new Date(Date.now() + ms).toISOString() })

test('queue-reminder-runs: a job queueReminder publishes is run by the worker, and waitForCompletion resolves with sendReminder\'s return value', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  const { jobId } = await callerAs(services, owner).invoke('queueReminder', { todoId: todo.todoId })
  assert.equal(jobId, `reminder-${todo.todoId}`)
  const job = await new PikkuQueue(queueService).getJob('todo-reminders', jobId!)
  assert.deepEqual(job?.data, { todoId: todo.todoId })
  assert.deepEqual(await job!.waitForCompletion!(10_000), { reminded: true })
})

test('finished-todo-not-reminded: a job for a to-do finished in the meantime completes with { reminded: false }', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  await services.todoStore.update(todo.todoId, { done: true })
  const jobId = await new PikkuQueue(queueService).add('todo-reminders', { todoId: todo.todoId })
  const job = await queueService.getJob('todo-reminders', jobId)
  assert.deepEqual(await job!.waitForCompletion!(10_000), { reminded: false })
  assert.equal(await job!.status(), 'completed')
  // A to-do deleted in the meantime ends the same way.
  const gone = await dueIn(30 * 60 * 1000)
  await services.todoStore.remove(gone.todoId)
  const goneId = await new PikkuQueue(queueService).add('todo-reminders', { todoId: gone.todoId })
  const goneJob = await queueService.getJob('todo-reminders', goneId)
  assert.deepEqual(await goneJob!.waitForCompletion!(10_000), { reminded: false })
  assert.equal(await goneJob!.status(), 'completed')
})

test('job-options-reach-bullmq: queueReminder\'s delay, attempts, backoff and jobId arrive on the BullMQ job as given', async () => {
  const todo = await dueIn(3 * HOUR)
  const before = Date.now()
  const { jobId } = await callerAs(services, owner).invoke('queueReminder', { todoId: todo.todoId })
  const queue = new Queue('todo-reminders', { connection: { host: redis.host, port: redis.port } })
  opened.push(queue)
  const job = await queue.getJob(jobId!)
  assert.ok(job)
  // The jobId the function passes, reminder-<todoId>, is the BullMQ job's own id.
  assert.equal(job.id, `reminder-${todo.todoId}`)
  assert.equal(job.opts.attempts, 3)
  assert.deepEqual(job.opts.backoff, { type: 'exponential', delay: 1000 })
  // Two hours from now, in milliseconds, as the function computed it.
  assert.ok(Math.abs(job.opts.delay! - (2 * HOUR - (Date.now() - before))) < 5_000)
  assert.equal(await job.getState(), 'delayed')
})

test('job-options-names-kept: priority, removeOnComplete and removeOnFail reach the BullMQ job under their own names, and a backoff given as a string becomes { type }', async () => {
  const name = `probe-options-${process.pid}`
  const publisher = new ConnectedBullQueueService({ host: redis.host, port: redis.port })
  const queue = new Queue(name, { connection: { host: redis.host, port: redis.port } })
  try {
    const jobId = await publisher.add(name, { n: 1 }, { priority: 4, removeOnComplete: 3, removeOnFail: 9, backoff: 'fixed', attempts: 2 })
    const job = await queue.getJob(jobId)
    assert.deepEqual([job?.opts.priority, job?.opts.removeOnComplete, job?.opts.removeOnFail], [4, 3, 9])
    assert.deepEqual(job?.opts.backoff, { type: 'fixed' })
  } finally {
    await queue.obliterate({ force: true })
    await queue.close()
    await publisher.close()
  }
})

/** True when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

test('queue-client-no-backoff: the generated PikkuQueue.add takes priority, delay, attempts, removeOnComplete, removeOnFail and jobId, no backoff, and passes them on', async () => {
  type ClientOptions = NonNullable<Parameters<PikkuQueue['add']>[2]>
  // Checked when the suite is compiled (npm run typecheck, scripts/code-samples.mjs): fails if the option set changes.
  const exact: Same<keyof ClientOptions, 'priority' | 'delay' | 'attempts' | 'removeOnComplete' | 'removeOnFail' | 'jobId'> = true
  assert.equal(exact, true)
  const todo = await dueIn(3 * HOUR, 'Client options')
  const jobId = await new PikkuQueue(queueService).add('todo-reminders', { todoId: todo.todoId }, { delay: HOUR, attempts: 2, priority: 3 })
  const queue = new Queue('todo-reminders', { connection: { host: redis.host, port: redis.port } })
  try {
    const job = await queue.getJob(jobId)
    assert.deepEqual([job?.opts.delay, job?.opts.attempts, job?.opts.priority, job?.opts.backoff], [HOUR, 2, 3, undefined])
  } finally {
    // The job sits delayed on the shared todo-reminders queue; take it off whether or not the checks held.
    await (await queue.getJob(jobId))?.remove()
    await queue.close()
  }
})

test('job-id-deduplicates: asking twice for the same reminder returns the same job id and queues one job', async () => {
  const todo = await dueIn(3 * HOUR)
  const caller = callerAs(services, owner)
  const first = await caller.invoke('queueReminder', { todoId: todo.todoId })
  const second = await caller.invoke('queueReminder', { todoId: todo.todoId })
  assert.deepEqual(second, first)
  const queue = new Queue('todo-reminders', { connection: { host: redis.host, port: redis.port } })
  opened.push(queue)
  const delayed = await queue.getDelayed()
  assert.equal(delayed.filter((job) => job.id === first.jobId).length, 1)
  assert.equal(delayed.filter((job) => (job.data as { todoId: string }).todoId === todo.todoId).length, 1)
})

test('custom-job-id-refused: BullMQ refuses a jobId that is a plainly written integer, and one with a colon unless it has exactly two, and add rejects without queuing a job', async () => {
  const name = `probe-job-id-${process.pid}`
  const publisher = new ConnectedBullQueueService({ host: redis.host, port: redis.port })
  const queue = new Queue(name, { connection: { host: redis.host, port: redis.port } })
  try {
    await assert.rejects(publisher.add(name, { n: 1 }, { jobId: '42' }), { message: 'Custom Id cannot be integers' })
    await assert.rejects(publisher.add(name, { n: 1 }, { jobId: 'reminder:t1' }), { message: 'Custom Id cannot contain :' })
    assert.equal(await queue.count(), 0)
    // An id with exactly two colons passes (BullMQ keeps that shape for its old repeatable jobs), and so does one with
    // any other character in it.
    assert.equal(await publisher.add(name, { n: 1 }, { jobId: 'a:b:c' }), 'a:b:c')
    assert.equal(await publisher.add(name, { n: 1 }, { jobId: 'reminder-42' }), 'reminder-42')
    // Only an id that reads back as the same integer is refused: a leading zero passes.
    assert.equal(await publisher.add(name, { n: 1 }, { jobId: '042' }), '042')
  } finally {
    await queue.obliterate({ force: true })
    await queue.close()
    await publisher.close()
  }
})

test('priority-whole-number: BullMQ refuses a priority that is not a whole number or is above 2,097,151, and add rejects', async () => {
  const name = `probe-priority-${process.pid}`
  const publisher = new ConnectedBullQueueService({ host: redis.host, port: redis.port })
  const queue = new Queue(name, { connection: { host: redis.host, port: redis.port } })
  try {
    await assert.rejects(publisher.add(name, { n: 1 }, { priority: 1.5 }), { message: 'Priority should not be float' })
    await assert.rejects(publisher.add(name, { n: 1 }, { priority: 2_097_152 }), { message: 'Priority should be between 0 and 2097151' })
    assert.equal(await queue.count(), 0)
    assert.ok(await publisher.add(name, { n: 1 }, { priority: 2_097_151 }))
  } finally {
    await queue.obliterate({ force: true })
    await queue.close()
    await publisher.close()
  }
})

test('queue-name-colon-refused: BullMQ refuses a queue name with a colon: add rejects, and a Worker for it cannot be created', async () => {
  const publisher = new ConnectedBullQueueService({ host: redis.host, port: redis.port })
  try {
    await assert.rejects(publisher.add('todo:reminders', { todoId: 't1' }), { message: 'Queue name cannot contain :' })
    // What BullQueueWorkers.registerQueues() does for each wiring; registerQueueWorkers logs the throw and goes on.
    assert.throws(() => new Worker('todo:reminders', async () => {}, { connection: { host: redis.host, port: redis.port }, autorun: false }), {
      message: 'Queue name cannot contain :',
    })
  } finally {
    await publisher.close()
  }
})

test('failed-job-retried-to-attempts: a job whose function throws is tried `attempts` times, then ends failed with the error', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store down')
  const down = storeDownFor(services, todo.todoId)
  try {
    const started = Date.now()
    const jobId = await queueService.add('todo-reminders', { todoId: todo.todoId }, { attempts: 3, backoff: { type: 'fixed', delay: 50 } })
    const failed = new Promise<string>((resolve) =>
      events.on('failed', ({ jobId: id, failedReason }) => {
        if (id === jobId) resolve(failedReason)
      }),
    )
    // 'failed' fires once per failed attempt; wait for the job to end failed.
    const job = await queueService.getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(10_000), /todo store unreachable/)
    assert.equal(await failed, 'todo store unreachable')
    const settled = await queueService.getJob('todo-reminders', jobId)
    assert.equal(await settled!.status(), 'failed')
    assert.equal((await settled!.metadata!()).attemptsMade, 3)
    assert.equal(down.calls, 3)
    // Each retry waited for the backoff: two waits of 50 ms.
    assert.ok(Date.now() - started >= 100, `took ${Date.now() - started} ms`)
  } finally {
    down.restore()
  }
})

test('exponential-without-delay-immediate: backoff \'exponential\' with no delay gives BullMQ no base, so the retries follow at once', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store down, no base delay')
  const down = storeDownFor(services, todo.todoId)
  const delayed: string[] = []
  const onDelayed = ({ jobId: id }: { jobId: string }) => void delayed.push(id)
  events.on('delayed', onDelayed)
  try {
    const started = Date.now()
    // The backoff stepJobOptions gives a queued workflow step that sets no retryDelay.
    const jobId = await queueService.add('todo-reminders', { todoId: todo.todoId }, { attempts: 3, backoff: 'exponential' })
    const job = await queueService.getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(10_000), /todo store unreachable/)
    assert.equal(down.calls, 3)
    // With a base of one second the two waits alone would take three seconds.
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`)
    assert.deepEqual(delayed.filter((id) => id === jobId), [])
  } finally {
    events.off('delayed', onDelayed)
    down.restore()
  }
})

test('no-attempts-one-try: a job published without attempts fails after a single try', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store down once')
  const down = storeDownFor(services, todo.todoId)
  try {
    const jobId = await queueService.add('todo-reminders', { todoId: todo.todoId })
    const job = await queueService.getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(10_000), /todo store unreachable/)
    const settled = await queueService.getJob('todo-reminders', jobId)
    assert.equal((await settled!.metadata!()).attemptsMade, 1)
    assert.equal(down.calls, 1)
  } finally {
    down.restore()
  }
})

test('unrecoverable-error-no-retry: a job whose function throws an error named UnrecoverableError ends failed after one try, whatever its attempts', async () => {
  const todo = await dueIn(30 * 60 * 1000, 'Store gone for good')
  const store = services.todoStore
  const get = store.get
  let calls = 0
  // The name is what BullMQ checks (Job.shouldRetryJob); the error passes through runQueueJob and the worker unchanged.
  store.get = async (id) => {
    if (id !== todo.todoId) return get.call(store, id)
    calls++
    throw Object.assign(new Error('todo store removed'), { name: 'UnrecoverableError' })
  }
  try {
    const jobId = await queueService.add('todo-reminders', { todoId: todo.todoId }, { attempts: 3, backoff: { type: 'fixed', delay: 10 } })
    const job = await queueService.getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(10_000), /todo store removed/)
    const settled = await queueService.getJob('todo-reminders', jobId)
    assert.equal(await settled!.status(), 'failed')
    assert.equal((await settled!.metadata!()).attemptsMade, 1)
    assert.equal(calls, 1)
  } finally {
    store.get = get
  }
})

test('invalid-job-data-fails: job data that does not match the worker\'s input schema fails the job before the function runs', async () => {
  const watched = watchStoreGet(services)
  try {
    // The typed client refuses this at compile time; a producer in another language or an old job can still send it.
    const jobId = await queueService.add('todo-reminders', { todoId: 42 } as any, { attempts: 2, backoff: { type: 'fixed', delay: 10 } })
    const job = await queueService.getJob('todo-reminders', jobId)
    await assert.rejects(job!.waitForCompletion!(10_000))
    const settled = await queueService.getJob('todo-reminders', jobId)
    assert.equal(await settled!.status(), 'failed')
    // The schema service's UnprocessableContentError message is the job's failure reason.
    assert.equal((await settled!.metadata!()).error, 'Property "todoId" does not match schema., Instance type "number" is invalid. Expected "string".')
    // A validation failure is an ordinary failure: it is retried like any other.
    assert.equal((await settled!.metadata!()).attemptsMade, 2)
    assert.equal(watched.calls, 0)
  } finally {
    watched.restore()
  }
})

test('job-name-is-queue-name: the BullMQ worker takes the queue name it runs from the BullMQ job\'s name, so a job added to todo-reminders under another name fails as missing metadata', async () => {
  const watched = watchStoreGet(services)
  // Another producer on the same Redis: a plain BullMQ Queue whose job name is not the queue's name.
  const queue = new Queue('todo-reminders', { connection: { host: redis.host, port: redis.port } })
  let jobId: string | undefined
  try {
    const job = await queue.add('remind', { todoId: 'from-another-producer' })
    jobId = job.id
    await assert.rejects(job.waitUntilFinished(events, 10_000), /Missing generated metadata for queue worker 'remind'/)
    assert.equal(await job.getState(), 'failed')
    assert.equal(watched.calls, 0)
  } finally {
    if (jobId) await (await queue.getJob(jobId))?.remove()
    await queue.close()
    watched.restore()
  }
})

test('discard-completes: a job whose function awaits queue.discard() ends completed, with no result and no retry', async () => {
  // todo-reminders-strict runs sendReminderStrict, which discards jobs for to-dos that no longer exist.
  const jobId = await new PikkuQueue(queueService).add('todo-reminders-strict', { todoId: 'deleted-long-ago' }, { attempts: 3 })
  const job = await queueService.getJob('todo-reminders-strict', jobId)
  assert.equal((await job!.waitForCompletion!(10_000)) ?? null, null)
  const settled = await queueService.getJob('todo-reminders-strict', jobId)
  assert.equal(await settled!.status(), 'completed')
  assert.equal(settled!.result ?? null, null)
  assert.equal((await settled!.metadata!()).error ?? null, null)
  // One attempt of the three it was given.
  assert.equal((await settled!.metadata!()).attemptsMade, 1)
})

test('strict-worker-reminds: the strict worker still completes with its return value for a to-do that exists', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  const jobId = await queueService.add('todo-reminders-strict', { todoId: todo.todoId })
  const job = await queueService.getJob('todo-reminders-strict', jobId)
  assert.deepEqual(await job!.waitForCompletion!(10_000), { reminded: true })
})

test('cleanup-progress-and-result: the todo-cleanup job returns { removed } and its updateProgress is stored on the BullMQ job', async () => {
  const ownerId = 'u-cleanup'
  const a = await services.todoStore.create({ ownerId, title: 'done 1', done: true })
  await services.todoStore.create({ ownerId, title: 'done 2', done: true })
  await services.todoStore.create({ ownerId, title: 'open', done: false })
  const jobId = await new PikkuQueue(queueService).add('todo-cleanup', { ownerId })
  const job = await queueService.getJob('todo-cleanup', jobId)
  assert.deepEqual(await job!.waitForCompletion!(10_000), { removed: 2 })
  const settled = await queueService.getJob('todo-cleanup', jobId)
  assert.deepEqual((await settled!.metadata!()).progress, { ownerId, removed: 2 })
  assert.equal(await services.todoStore.get(a.todoId), undefined)
  assert.equal((await services.todoStore.list(ownerId)).length, 1)
  // A second run finds nothing left to remove: the job is safe to repeat.
  const again = await queueService.getJob('todo-cleanup', await queueService.add('todo-cleanup', { ownerId }))
  assert.deepEqual(await again!.waitForCompletion!(10_000), { removed: 0 })
})

test('worker-config-batch-size: registerQueues applies todo-cleanup\'s batchSize as the worker\'s concurrency, with no warnings', async () => {
  assert.deepEqual(registered['todo-cleanup']![0]!.applied, { batchSize: 1 })
  assert.deepEqual(registered['todo-cleanup']![0]!.warnings, [])
  assert.deepEqual(registered['todo-reminders']![0]!.applied, {})
  const worker = (bull.getQueueWorkers() as any).workers.get('todo-cleanup')
  assert.equal(worker.opts.concurrency, 1)
})

test('worker-default-concurrency-one: a wiring without batchSize gets a BullMQ worker that runs one job at a time', () => {
  // todo-reminders is wired without config; pg-boss would run 10 of its jobs at once.
  assert.deepEqual(registered['todo-reminders']![0]!.applied, {})
  const worker = (bull.getQueueWorkers() as any).workers.get('todo-reminders')
  assert.equal(worker.opts.concurrency, 1)
})

test('worker-config-unsupported-warned: registerQueues passes autorun, name, lockDuration, drainDelay and maxStalledCount through, keeps removeOnComplete and removeOnFail as counts of jobs, and logs a warning for groupConcurrency, visibilityTimeout, pollInterval and prefetch', async () => {
  const registrations = pikkuState(null, 'queue', 'registrations')
  const saved = new Map([...registrations].map(([name, worker]) => [name, worker.config]))
  const workers = new BullQueueWorkers({ host: redis.host, port: redis.port })
  const warned = collectLogs(services, 'warn')
  try {
    // autorun: false, so these second workers take no job from the file's own.
    for (const worker of registrations.values()) worker.config = { ...worker.config, autorun: false }
    registrations.get('todo-reminders')!.config = {
      autorun: false, name: 'probe-worker', lockDuration: 12_345, drainDelay: 7, maxStalledCount: 2, removeOnComplete: 5, removeOnFail: 7,
      groupConcurrency: 2, visibilityTimeout: 30, pollInterval: 1000, prefetch: 4,
    }
    const result = await workers.registerQueues()
    const { applied, warnings } = result['todo-reminders']![0]!
    assert.deepEqual(applied, { autorun: false, name: 'probe-worker', lockDuration: 12_345, drainDelay: 7, maxStalledCount: 2, removeOnComplete: 5, removeOnFail: 7 })
    assert.deepEqual(warnings.map((w) => w.split(':')[0]), ['groupConcurrency', 'visibilityTimeout', 'pollInterval', 'prefetch'])
    assert.ok(warned.lines.some((line) => line.startsWith('Configuration warnings for queue todo-reminders:')))
    const opts = (workers as any).workers.get('todo-reminders').opts
    assert.deepEqual([opts.removeOnComplete, opts.removeOnFail], [{ count: 5 }, { count: 7 }])
    assert.deepEqual([opts.autorun, opts.name, opts.lockDuration, opts.drainDelay, opts.maxStalledCount], [false, 'probe-worker', 12_345, 7, 2])
  } finally {
    warned.restore()
    for (const [name, config] of saved) registrations.get(name)!.config = config
    await workers.close()
  }
})

test('autorun-false-never-started: a worker config with autorun: false gives a BullMQ Worker that is not running, and BullQueueWorkers has no call that starts it', async () => {
  const registrations = pikkuState(null, 'queue', 'registrations')
  const saved = new Map([...registrations].map(([name, worker]) => [name, worker.config]))
  const workers = new BullQueueWorkers({ host: redis.host, port: redis.port })
  try {
    for (const worker of registrations.values()) worker.config = { ...worker.config, autorun: false }
    await workers.registerQueues()
    const started = (workers as any).workers as Map<string, Worker>
    assert.ok(started.size > 0)
    for (const worker of started.values()) assert.equal(worker.isRunning(), false)
    // Its public surface: registering and closing, nothing that would call Worker.run().
    assert.deepEqual(Object.getOwnPropertyNames(BullQueueWorkers.prototype).sort(), ['close', 'constructor', 'registerQueues'])
  } finally {
    for (const [name, config] of saved) registrations.get(name)!.config = config
    await workers.close()
  }
})

test('register-without-logger-throws: BullQueueWorkers.registerQueues() throws "Logger is required for registerQueues" while no singleton services are stored', async () => {
  const stored = pikkuState(null, 'package', 'singletonServices')
  try {
    pikkuState(null, 'package', 'singletonServices', null as never)
    await assert.rejects(new BullQueueWorkers({ host: redis.host, port: redis.port }).registerQueues(), (error: Error) =>
      error.message.startsWith('Logger is required for registerQueues'))
  } finally {
    pikkuState(null, 'package', 'singletonServices', stored)
  }
})

test('priority-lower-first: on BullMQ a job with a lower priority number is handed out first', async () => {
  const connection = { host: redis.host, port: redis.port }
  const publisher = new ConnectedBullQueueService(connection)
  // No worker is wired to this queue: a worker that does not run by itself takes the job it would be given next.
  const worker = new Worker('priority-probe', null, { connection, autorun: false })
  try {
    await publisher.add('priority-probe', { n: 'ten' }, { priority: 10 })
    await publisher.add('priority-probe', { n: 'one' }, { priority: 1 })
    const first = await worker.getNextJob('probe-token')
    assert.deepEqual(first?.data, { n: 'one' })
  } finally {
    await worker.close()
    await publisher.close()
  }
})

test('priority-none-first: on BullMQ a job with no priority is handed out before any job with one, a negative one included', async () => {
  const connection = { host: redis.host, port: redis.port }
  const publisher = new ConnectedBullQueueService(connection)
  // No worker is wired to this queue: a worker that does not run by itself takes the jobs in the order it would get them.
  const worker = new Worker('priority-none-probe', null, { connection, autorun: false })
  try {
    await publisher.add('priority-none-probe', { n: 'one' }, { priority: 1 })
    await publisher.add('priority-none-probe', { n: 'minus-five' }, { priority: -5 })
    await publisher.add('priority-none-probe', { n: 'none' })
    const order: unknown[] = []
    for (let i = 0; i < 3; i++) order.push((await worker.getNextJob(`probe-token-${i}`))?.data.n)
    assert.deepEqual(order, ['none', 'minus-five', 'one'])
  } finally {
    await worker.close()
    await publisher.close()
  }
})

test('completed-metadata-failed-at: on BullMQ a completed job\'s metadata() has failedAt set, to its finish time', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  const jobId = await queueService.add('todo-reminders', { todoId: todo.todoId })
  assert.deepEqual(await (await queueService.getJob('todo-reminders', jobId))!.waitForCompletion!(10_000), { reminded: true })
  const job = await queueService.getJob('todo-reminders', jobId)
  assert.equal(await job!.status(), 'completed')
  const meta = await job!.metadata!()
  assert.ok(meta.failedAt instanceof Date)
  assert.equal(meta.failedAt.getTime(), meta.completedAt!.getTime())
})

test('job-read-at-get-job: on BullMQ a job\'s result and metadata() keep what getJob read, while status() reads the job again; a second getJob sees the outcome', async () => {
  const fine = await dueIn(30 * 60 * 1000)
  const broken = await dueIn(30 * 60 * 1000, 'Store down, read early')
  const down = storeDownFor(services, broken.todoId)
  try {
    // A delay keeps both jobs waiting while getJob reads them.
    const okId = await queueService.add('todo-reminders', { todoId: fine.todoId }, { delay: 1000 })
    const failId = await queueService.add('todo-reminders', { todoId: broken.todoId }, { delay: 1000 })
    const ok = (await queueService.getJob('todo-reminders', okId))!
    const failing = (await queueService.getJob('todo-reminders', failId))!
    assert.deepEqual(await ok.waitForCompletion!(10_000), { reminded: true })
    await assert.rejects(failing.waitForCompletion!(10_000), /todo store unreachable/)
    assert.equal(down.calls, 1)
    // status() asks Redis again ...
    assert.equal(await ok.status(), 'completed')
    assert.equal(await failing.status(), 'failed')
    // ... result and metadata() do not.
    assert.equal(ok.result ?? null, null)
    assert.equal((await ok.metadata!()).completedAt, undefined)
    assert.equal((await failing.metadata!()).attemptsMade, 0)
    assert.equal((await failing.metadata!()).error, undefined)
    const okAgain = (await queueService.getJob('todo-reminders', okId))!
    const failAgain = (await queueService.getJob('todo-reminders', failId))!
    assert.deepEqual(okAgain.result, { reminded: true })
    assert.ok((await okAgain.metadata!()).completedAt instanceof Date)
    assert.equal((await failAgain.metadata!()).attemptsMade, 1)
    assert.equal((await failAgain.metadata!()).error, 'todo store unreachable')
  } finally {
    down.restore()
  }
})

test('supports-results: BullQueueService says it keeps results', () => {
  assert.equal(bull.getQueueService().supportsResults, true)
})

test('in-memory-delay-overflow: the in-memory queue runs a job whose delay is over about 24.8 days at once', async () => {
  const todo = await dueIn(30 * 24 * HOUR, 'Far future')
  const reminded = nextInfoLog(services, /"Far future"/)
  let deadline: NodeJS.Timeout | undefined
  try {
    // 25 days is past the 2^31 - 1 ms that setTimeout holds; Node then fires after 1 ms.
    await new InMemoryQueueService().add('todo-reminders', { todoId: todo.todoId }, { delay: 25 * 24 * HOUR })
    await Promise.race([reminded, new Promise((_, reject) => (deadline = setTimeout(() => reject(new Error('job did not run')), 5000)))])
  } finally {
    clearTimeout(deadline)
  }
})

test('get-job-unknown-queue-throws: getJob throws "Queue \'...\' not found." for a queue this service instance has not published to', async () => {
  const fresh = new BullQueueService({ host: redis.host, port: redis.port })
  await assert.rejects(fresh.getJob('todo-cleanup', '1'), { message: "Queue 'todo-cleanup' not found." })
})

/**
 * A stand-in Redis on BullMQ's default address, 127.0.0.1:6379, which forwards to the test's redis-server and
 * resolves `used` on its first connection. Undefined when the port is taken on this machine.
 */
const defaultPortProxy = async () => {
  const sockets: Socket[] = []
  let markUsed!: () => void
  const used = new Promise<void>((resolve) => (markUsed = resolve))
  const proxy: Server = createServer((client) => {
    markUsed()
    const upstream = connect(redis.port, redis.host)
    sockets.push(client, upstream)
    client.pipe(upstream).pipe(client)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  const listening = await new Promise<boolean>((resolve) => {
    proxy.once('error', () => resolve(false))
    proxy.listen(6379, '127.0.0.1', () => resolve(true))
  })
  if (!listening) return undefined
  return {
    used,
    close: async () => {
      sockets.forEach((s) => s.destroy())
      await new Promise((resolve) => proxy.close(resolve))
    },
  }
}

/** Closes the BullMQ Queue and QueueEvents objects a BullQueueService opened (protected fields). */
const closePublisher = async (service: BullQueueService) => {
  const inner = service as any
  await Promise.all([...inner.queues.values(), ...inner.queueEvents.values()].map((o: { close(): Promise<void> }) => o.close()))
}

test('publish-ignores-connection: the factory\'s own queue service publishes to 127.0.0.1:6379, not to the Redis the factory was given', async (t) => {
  const proxy = await defaultPortProxy()
  if (!proxy) return t.skip('port 6379 is taken on this machine')
  const factoryService = new BullServiceFactory({ host: redis.host, port: redis.port }).getQueueService()
  try {
    const todo = await dueIn(30 * 60 * 1000)
    const jobId = await factoryService.add('todo-reminders', { todoId: todo.todoId })
    // The job went through the stand-in on the default port, which forwards to the test's Redis, where the worker is.
    await proxy.used
    const job = await queueService.getJob('todo-reminders', jobId)
    assert.deepEqual(await job!.waitForCompletion!(10_000), { reminded: true })
  } finally {
    await closePublisher(factoryService)
    await proxy.close()
  }
})

test('factory-close-leaves-publisher-open: BullServiceFactory.close() leaves the queue service\'s Redis connection open', async (t) => {
  const proxy = await defaultPortProxy()
  if (!proxy) return t.skip('port 6379 is taken on this machine')
  const factory = new BullServiceFactory({ host: redis.host, port: redis.port })
  const publisher = factory.getQueueService()
  try {
    await publisher.add('todo-cleanup', { ownerId: 'nobody' })
    await factory.close()
    const queue = (publisher as any).queues.get('todo-cleanup') as Queue
    assert.equal((await (queue.getBackend() as any).client).status, 'ready')
  } finally {
    await closePublisher(publisher)
    await proxy.close()
  }
})

test('connected-service-workaround: a BullQueueService subclass that hands createQueue the connection publishes to the factory\'s Redis', async () => {
  // src/bull-queue-service.ts, which src/runtimes/bullmq-worker.ts uses; every job above went through it.
  const todo = await dueIn(30 * 60 * 1000)
  const jobId = await queueService.add('todo-reminders', { todoId: todo.todoId })
  const queue = (queueService as any).queues.get('todo-reminders') as Queue
  assert.equal(((await (queue.getBackend() as any).client).options as { port: number }).port, redis.port)
  const job = await queueService.getJob('todo-reminders', jobId)
  assert.deepEqual(await job!.waitForCompletion!(10_000), { reminded: true })
  await queueService.close()
  assert.equal((await (queue.getBackend() as any).client).status, 'end')
})

test('signed-claim-not-carried: a pikkuUserId signed by SignedQueueService does not reach the BullMQ job', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = 'q0Vb1m3mS0n6cXy3mJ2bQx8T1vH5dN7aK9pL4rW6eZs='
  try {
    const signed = new SignedQueueService(queueService, services.secrets, services.logger)
    const todo = await dueIn(3 * HOUR)
    const jobId = await signed.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: owner.userId, delay: HOUR })
    const queue = new Queue('todo-reminders', { connection: { host: redis.host, port: redis.port } })
    opened.push(queue)
    const job = await queue.getJob(jobId)
    assert.deepEqual(job!.data, { todoId: todo.todoId })
    assert.ok(!('pikkuUserId' in job!.opts), Object.keys(job!.opts).join())
    assert.ok(!JSON.stringify(job!.toJSON()).includes('pq1.'))
    await job!.remove()
  } finally {
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('signed-claim-tampered-rejected: runQueueJob rejects a signed claim whose data or claim was changed, or that names another queue, with the unsigned-claim message', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = 'q0Vb1m3mS0n6cXy3mJ2bQx8T1vH5dN7aK9pL4rW6eZs='
  const errors = collectLogs(services, 'error')
  try {
    // SignedQueueService over a publisher that only records the claim it is handed.
    const claims: string[] = []
    const recorder = { supportsResults: false, add: async (_q: string, _d: unknown, options?: { pikkuUserId?: string }) => (claims.push(options!.pikkuUserId!), 'rec'), getJob: async () => null }
    const signed = new SignedQueueService(recorder as never, services.secrets, services.logger)
    const todo = await dueIn(3 * HOUR, 'Claim check')
    const other = await dueIn(3 * HOUR, 'Other data')
    await signed.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: owner.userId })
    await signed.add('todo-cleanup' as never, { todoId: todo.todoId } as never, { pikkuUserId: owner.userId })
    const [claim, cleanupClaim] = claims as [string, string]
    const [version, , signature] = claim.split('.')
    const forgedBody = Buffer.from(JSON.stringify({ u: 'u-admin', q: 'todo-reminders' })).toString('base64url')
    const run = (id: string, todoId: string, pikkuUserId: string) =>
      runQueueJob({ job: { id, queueName: 'todo-reminders', data: { todoId }, status: () => 'active', pikkuUserId } as never })
    const rejected = (id: string) =>
      errors.lines.some((line) => line === `Rejected an unsigned or invalid identity claim on job ${id} in queue todo-reminders — the job runs without a pikkuUserId.`)
    await run('claim-intact', todo.todoId, claim)
    assert.deepEqual(errors.lines, [])
    await run('claim-other-data', other.todoId, claim)
    await run('claim-changed', todo.todoId, `${version}.${forgedBody}.${signature}`)
    await run('claim-other-queue', todo.todoId, cleanupClaim)
    for (const id of ['claim-other-data', 'claim-changed', 'claim-other-queue']) assert.ok(rejected(id), `${id}: ${errors.lines.join('\n')}`)
  } finally {
    errors.restore()
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('scheduler-start-registers-crons: BullSchedulerService.start() registers every wireScheduler task as a BullMQ job scheduler', async () => {
  const scheduler = bull.getSchedulerService()
  await scheduler.start()
  try {
    const recurring = new Queue('pikku-recurring-scheduled-task', { connection: { host: redis.host, port: redis.port } })
    opened.push(recurring)
    const schedulers = await recurring.getJobSchedulers()
    const byId = Object.fromEntries(schedulers.map((s) => [s.key, s.pattern]))
    assert.equal(byId['recurring:daily-digest'], '0 9 * * *')
    assert.equal(byId['recurring:workflow-recovery'], '*/5 * * * *')
    assert.equal(byId['recurring:weekday-digest'], '30 8 * * *')
  } finally {
    await scheduler.stop()
  }
})

test('schedule-rpc-parked: scheduleRPC only enqueues on pikku-remote-internal-rpc, a queue no worker of the app consumes', async () => {
  const todo = await dueIn(30 * 60 * 1000)
  const scheduler = bull.getSchedulerService()
  const taskId = await scheduler.scheduleRPC('1m', 'sendReminder', { todoId: todo.todoId })
  const task = await scheduler.getTask(taskId)
  assert.equal(task?.rpcName, 'sendReminder')
  assert.deepEqual(task?.data, { todoId: todo.todoId })
  assert.equal(task?.status, 'delayed')
  // registerQueues() started workers for the wired queues only; nothing listens on the scheduler's queue.
  const connection = { host: redis.host, port: redis.port }
  const internal = new Queue('pikku-remote-internal-rpc', { connection })
  const reminders = new Queue('todo-reminders', { connection })
  opened.push(internal, reminders)
  assert.ok(!Object.keys(registered).includes('pikku-remote-internal-rpc'))
  assert.equal(await internal.getWorkersCount(), 0)
  assert.ok((await reminders.getWorkersCount()) >= 1)
  assert.equal(await scheduler.unschedule(taskId), true)
  assert.equal(await scheduler.getTask(taskId), null)
})

test('scheduler-stop-removes-shared: stop() on one of two started BullSchedulerService instances deletes the job schedulers the other relies on', async () => {
  const connection = { host: redis.host, port: redis.port }
  const first = bull.getSchedulerService()
  // A second process on the same Redis, as a second replica of a worker would start it.
  const second = new BullSchedulerService(connection)
  const recurring = new Queue('pikku-recurring-scheduled-task', { connection })
  opened.push(recurring)
  await first.start()
  await second.start()
  try {
    assert.equal((await recurring.getJobSchedulers()).length, 3)
    await second.stop()
    // The schedulers live in Redis, not in the process: the first instance, still started, has none left.
    assert.deepEqual(await recurring.getJobSchedulers(), [])
  } finally {
    await first.stop()
    await second.close()
  }
})

test('scheduler-keeps-removed-task: start() leaves a job scheduler whose task is no longer wired, and its runs fail as not found', async () => {
  const connection = { host: redis.host, port: redis.port }
  const recurring = new Queue('pikku-recurring-scheduled-task', { connection })
  const recurringEvents = new QueueEvents('pikku-recurring-scheduled-task', { connection })
  opened.push(recurring, recurringEvents)
  await recurringEvents.waitUntilReady()
  // What an earlier deployment, which still wired 'retired-digest', left in Redis.
  await recurring.upsertJobScheduler('recurring:retired-digest', { pattern: '0 7 * * *' }, { name: 'retired-digest', data: { rpcName: 'retired-digest' } })
  const scheduler = bull.getSchedulerService()
  await scheduler.start()
  try {
    const keys = (await recurring.getJobSchedulers()).map((s) => s.key).sort()
    assert.deepEqual(keys, ['recurring:daily-digest', 'recurring:retired-digest', 'recurring:weekday-digest', 'recurring:workflow-recovery'])
    // A run of it, as the scheduler would add one at 07:00, goes to the worker start() created and fails.
    const job = await recurring.add('retired-digest', { rpcName: 'retired-digest' })
    await assert.rejects(job.waitUntilFinished(recurringEvents, 10_000), { message: 'Scheduled task not found: Scheduled task not found: retired-digest' })
  } finally {
    await scheduler.stop()
    await recurring.removeJobScheduler('recurring:retired-digest')
  }
})

test('schedule-rpc-same-millisecond: two scheduleRPC calls for one function in the same millisecond get one task id, and the second call\'s data is not stored', async () => {
  const scheduler = bull.getSchedulerService()
  // The task id is `${rpcName}-${Date.now()}`; Date is fixed so that both calls fall in one millisecond.
  mock.timers.enable({ apis: ['Date'], now: Date.now() })
  let ids: string[] = []
  try {
    ids = await Promise.all([
      scheduler.scheduleRPC('1h', 'sendReminder', { todoId: 't-first' }),
      scheduler.scheduleRPC('1h', 'sendReminder', { todoId: 't-second' }),
    ])
  } finally {
    mock.timers.reset()
  }
  try {
    assert.equal(ids[0], ids[1])
    assert.deepEqual((await scheduler.getTask(ids[0]))?.data, { todoId: 't-first' })
  } finally {
    await scheduler.unschedule(ids[0])
  }
})

// --- RedisWorkflowService (docs/workflows/persistence.mdx, docs/workflows/runs.mdx) ---

// wireQueues is an option of the base class that WorkflowQueueOptions does not list; off, so that constructing the
// store registers no queue workers in the shared state.
const noQueueWorkers = { queueStrategy: 'per-workflow', wireQueues: false } as WorkflowQueueOptions

test('redis-run-lock-expires-gives-up: RedisWorkflowService\'s run lock is a key that expires 30 s after it is taken, and a second withRunLock on the same run gives up after ten tries 100 ms apart', async () => {
  const client = new Redis(redis.url)
  const workflows = new RedisWorkflowService(client, 'run-lock', noQueueWorkers)
  try {
    let release!: () => void
    let entered!: () => void
    const inside = new Promise<void>((resolve) => (entered = resolve))
    let ttl = -1
    const first = workflows.withRunLock('run-1', async () => {
      ttl = await client.pttl('run-lock:lock:run-1')
      entered()
      await new Promise<void>((resolve) => (release = resolve))
    })
    await inside
    assert.ok(ttl > 29_000 && ttl <= 30_000, `lock expires in ${ttl} ms`)
    const started = Date.now()
    let ran = false
    await assert.rejects(
      workflows.withRunLock('run-1', async () => { ran = true }),
      { message: 'Failed to acquire lock for run run-1 after 10 retries' },
    )
    const waited = Date.now() - started
    assert.ok(waited >= 900 && waited < 5_000, `gave up after ${waited} ms`)
    assert.equal(ran, false)
    release()
    await first
    assert.equal(await client.exists('run-lock:lock:run-1'), 0)
  } finally {
    await client.quit()
  }
})

test('redis-run-error-kept: RedisWorkflowService keeps a run\'s stored error when its status changes without one, so a suspended run that completes still reports the suspension', async () => {
  const client = new Redis(redis.url)
  const workflows = new RedisWorkflowService(client, 'run-error', noQueueWorkers)
  try {
    const runId = await workflows.createRun('probe', {}, false, 'hash', { type: 'test' })
    // The two writes the engine makes for a run that suspends and later completes (runWorkflowJobInner in core).
    await workflows.updateRunStatus(runId, 'suspended', undefined, { message: 'Wait for a review', stack: '', code: 'WORKFLOW_SUSPENDED' })
    await workflows.updateRunStatus(runId, 'completed', { passed: true })
    const run = await workflows.getRun(runId)
    assert.equal(run?.status, 'completed')
    assert.equal(run?.error?.code, 'WORKFLOW_SUSPENDED')
    const status = await workflows.getRunStatus(runId)
    assert.equal(status?.status, 'completed')
    assert.deepEqual(status?.error, { message: 'Wait for a review' })
  } finally {
    await client.quit()
  }
})

test('redis-graph-node-named-step: RedisWorkflowService leaves a step whose name has a segment "step" out of getStepInstances and getCompletedGraphState', async () => {
  const client = new Redis(redis.url)
  const workflows = new RedisWorkflowService(client, 'graph-step', noQueueWorkers)
  try {
    const runId = await workflows.createRun('probeGraph', {}, false, 'hash', { type: 'test' })
    // A "step" segment anywhere in the name counts: at the end, at the start, or alone.
    const named = ['step', 'step:notify', 'notify:step']
    for (const name of ['remind', ...named]) {
      const state = await workflows.insertStepState(runId, name, 'sendReminder', {}, { retries: 0 })
      await workflows.setStepResult(state.stepId, { reminded: true })
    }
    // Every step is stored and readable by name.
    for (const name of named) assert.equal((await workflows.getStepState(runId, name)).status, 'succeeded')
    // The graph runner's two reads see only one of them: the store finds a step's name after the last "step" segment
    // of its key, which for a key such as <prefix>:step:<runId>:step:notify is inside the step's own name.
    assert.deepEqual((await workflows.getStepInstances(runId)).map((s) => s.stepName), ['remind'])
    assert.deepEqual((await workflows.getCompletedGraphState(runId)).completedNodeIds, ['remind'])
  } finally {
    await client.quit()
  }
})
