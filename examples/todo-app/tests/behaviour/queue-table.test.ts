// The custom queue runtime of docs/custom-runtimes/queue-runtime.mdx, as the app ships it (src/table-queue/): the
// in-memory job table, TableQueueService and startTableWorkers over @pikku/core/queue's runQueueJob and
// registerQueueWorkers. Its polling loops run on setTimeout, so the clock is node:test's mock timers: a poll is
// reached by moving the clock, and no real timer is left running at the end.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { QueueJobDiscardedError, QueueJobFailedError, registerQueueWorkers, runQueueJob, SignedQueueService, type JobOptions } from '@pikku/core/queue'
import { wireQueueWorker } from '#pikku/queue'
import { sendReminder } from '../../src/functions/reminders.functions.js'
import { NotFoundError, PikkuMissingMetaError } from '@pikku/core/errors'
import { stopSingletonServices } from '@pikku/core/utils'
import { InMemoryQueueService, InMemorySessionStore, JsonConsoleLogger } from '@pikku/core/services'
import { pikkuState } from '@pikku/core/state'
import { addFunction } from '@pikku/core/function'
import { queueReminder } from '../../src/functions/reminder-jobs.functions.js'
import { isTodoOwner } from '../../src/permissions.js'
import { InMemoryJobTable } from '../../src/table-queue/job-table.js'
import { TableQueueService } from '../../src/table-queue/table-queue-service.js'
import { startTableWorkers } from '../../src/table-queue/table-queue-workers.js'
import type { UserSession } from '../../src/application-types.js'
import { bootServices, callerAs, nextInfoLog, storeDownFor, recordTraceIds, collectLogs, type Singletons } from './harness/queues.js'
import { captureConsole } from './harness/core-probes.js'
import { withWrappedFunction } from './harness/app.js'
import { codes, inspectFiles } from './harness/inspector.js'

let services: Singletons
// 32 random bytes in base64, as `openssl rand -base64 32` prints them.
const SECRET = 'q0Vb1m3mS0n6cXy3mJ2bQx8T1vH5dN7aK9pL4rW6eZs='
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
  const down = storeDownFor(services, todo.todoId)
  try {
    await queueService.add('todo-reminders', { todoId: todo.todoId }, { attempts: 2 })
    mock.timers.tick(1000)
    await settle()
    assert.equal(down.calls, 1)
    // Retried after 5 s (retryLater(id, 5000)); the poll after that finds it.
    mock.timers.tick(5000)
    await settle()
    mock.timers.tick(1000)
    await settle()
    assert.equal(down.calls, 2)
    mock.timers.tick(10_000)
    await settle()
    assert.equal(down.calls, 2)
    assert.equal(await table.claimNext('todo-reminders'), undefined)
  } finally {
    down.restore()
  }
})

test('run-queue-job-missing-meta: runQueueJob throws PikkuMissingMetaError for a queue no wireQueueWorker registered', async () => {
  await assert.rejects(
    runQueueJob({ job: { id: 'j1', queueName: 'todo-archive', data: {}, status: () => 'active' } }),
    (error: Error) => error instanceof PikkuMissingMetaError,
  )
})

test('run-queue-job-trace-and-rethrow: runQueueJob runs under the trace id q-<jobId> and rethrows the function\'s error', async () => {
  const { traceIds, restore } = recordTraceIds(services)
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
    restore()
  }
})

test('queue-failure-log-error-as-meta: runQueueJob logs a failed job as a message with the error after it, which JsonConsoleLogger prints without its message or stack', async () => {
  const logger = services.logger as any
  const scope = logger.scope
  const down = storeDownFor(services, 'todo-log')
  // The runner logs through the logger it scopes for the job: hand it a JsonConsoleLogger for these jobs.
  logger.scope = (traceId: string) => new JsonConsoleLogger(traceId)
  let lines: string[]
  try {
    lines = await captureConsole(async () => {
      // A registered error (the 422 of input validation), then a plain Error from the store.
      await assert.rejects(
        runQueueJob({ job: { id: 'j-log1', queueName: 'todo-reminders', data: { todoId: 7 }, status: () => 'active' } }),
        /Instance type "number" is invalid/,
      )
      await assert.rejects(
        runQueueJob({ job: { id: 'j-log2', queueName: 'todo-reminders', data: { todoId: 'todo-log' }, status: () => 'active' } }),
        /todo store unreachable/,
      )
    })
  } finally {
    logger.scope = scope
    down.restore()
  }
  // The error is the second argument: JSON keeps only a PikkuError's own name field, and nothing of a plain Error.
  assert.ok(
    lines.includes('{"level":"error","traceId":"q-j-log1","message":"Error processing job j-log1 in queue todo-reminders:","meta":[{"name":"UnprocessableContentError"}]}'),
    lines.join('\n'),
  )
  assert.ok(
    lines.includes('{"level":"error","traceId":"q-j-log2","message":"Error processing job j-log2 in queue todo-reminders:","meta":[{}]}'),
    lines.join('\n'),
  )
  // A registered error adds a line with its registered status and message, not the thrown one.
  assert.ok(lines.some((l) => l.startsWith('{"level":"error","traceId":"q-j-log1","message":"Processed error response:","meta":[{"status":422,')), lines.join('\n'))
  assert.ok(!lines.some((l) => l.includes('todo store unreachable')), lines.join('\n'))
})

test('register-callback-error-logged: an error thrown by registerQueueWorkers\' callback is logged, not rethrown', async () => {
  const logger = services.logger as any
  const error = logger.error
  const logged: string[] = []
  logger.error = function (this: unknown, ...args: unknown[]) {
    logged.push(String(args[0]))
    return error.apply(this, args)
  }
  const warnings = collectLogs(services, 'warn')
  try {
    const outcome = await registerQueueWorkers({ supported: {}, unsupported: {}, fallbacks: {} }, services.logger, async () => {
      throw new Error('broker unreachable')
    })
    assert.ok(outcome['todo-reminders'])
    assert.ok(logged.includes('Failed to register queue processor todo-reminders:'))
    // Unlisted config fields are dropped with a warning, which is also logged.
    assert.deepEqual(outcome['todo-cleanup']![0]!.warnings, ['batchSize: Unknown configuration option for this queue implementation'])
    assert.ok(
      warnings.lines.includes('Configuration warnings for queue todo-cleanup: batchSize: Unknown configuration option for this queue implementation'),
      warnings.lines.join('\n'),
    )
  } finally {
    logger.error = error
    warnings.restore()
  }
})


/** Runs the next poll of the table's loops and waits until `todoId`'s reminder is logged. */
const runReminder = async (todoId: string, title: string) => {
  const reminded = nextInfoLog(services, new RegExp(`"${title}"`))
  mock.timers.tick(1000)
  await reminded
  await settle()
  assert.equal(await table.claimNext('todo-reminders'), undefined, todoId)
}

test('identity-no-secret-dropped: without PIKKU_QUEUE_IDENTITY_SECRET, SignedQueueService warns and drops pikkuUserId', async () => {
  delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  const warnings = collectLogs(services, 'warn')
  const inserted: Array<{ pikkuUserId?: string }> = []
  const insert = table.insert.bind(table)
  table.insert = async (job) => (inserted.push(job), insert(job))
  try {
    const signed = new SignedQueueService(queueService, services.secrets, services.logger)
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'No secret', done: false })
    await signed.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: 'u-kim' })
    assert.equal(inserted[0]!.pikkuUserId, undefined)
    assert.ok(warnings.lines.some((line) => line.startsWith("No 'PIKKU_QUEUE_IDENTITY_SECRET' secret is configured")))
    await runReminder(todo.todoId, 'No secret')
  } finally {
    table.insert = insert
    warnings.restore()
  }
})

test('identity-unsigned-rejected: a job whose pikkuUserId is not a signed claim is logged as rejected and runs without it', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = SECRET
  const errors = collectLogs(services, 'error')
  try {
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Forged', done: false })
    // The bare TableQueueService does not sign: the table stores the id as given, as a forged job would carry it.
    await queueService.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: 'u-admin' })
    await runReminder(todo.todoId, 'Forged')
    assert.ok(
      errors.lines.some((line) => /^Rejected an unsigned or invalid identity claim on job .* in queue todo-reminders — the job runs without a pikkuUserId\.$/.test(line)),
      errors.lines.join('\n'),
    )
  } finally {
    errors.restore()
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('identity-signed-accepted: SignedQueueService replaces pikkuUserId with a signed claim, which the runner accepts', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = SECRET
  const errors = collectLogs(services, 'error')
  const inserted: Array<{ pikkuUserId?: string }> = []
  const insert = table.insert.bind(table)
  table.insert = async (job) => (inserted.push(job), insert(job))
  try {
    const signed = new SignedQueueService(queueService, services.secrets, services.logger)
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Signed', done: false })
    await signed.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: 'u-kim' })
    assert.match(inserted[0]!.pikkuUserId!, /^pq1\.[^.]+\.[^.]+$/)
    await runReminder(todo.todoId, 'Signed')
    assert.deepEqual(errors.lines, [])
  } finally {
    table.insert = insert
    errors.restore()
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('identity-short-secret-throws: a PIKKU_QUEUE_IDENTITY_SECRET shorter than 32 characters makes SignedQueueService.add throw', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = 'too-short'
  try {
    const signed = new SignedQueueService(queueService, services.secrets, services.logger)
    await assert.rejects(signed.add('todo-cleanup', { ownerId: 'u-kim' }, { pikkuUserId: 'u-kim' }), (error: Error) => {
      assert.equal(error.name, 'WeakKeyMaterialError')
      assert.match(error.message, /^PIKKU_QUEUE_IDENTITY_SECRET must be at least 32 characters/)
      return true
    })
  } finally {
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('wiring-without-meta-skipped: wireQueueWorker for a queue the CLI never saw warns "Skipping queue worker" and registers nothing', async () => {
  const warn = console.warn
  const warned: string[] = []
  console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '))
  try {
    // A wiring added after the last code generation: no metadata exists for its queue.
    wireQueueWorker({ name: 'todo-archive', func: sendReminder })
  } finally {
    console.warn = warn
  }
  assert.deepEqual(warned, ["[pikku] Skipping queue worker 'todo-archive' — metadata not found. Consider moving this wiring to its own file."])
  const outcome = await registerQueueWorkers({ supported: {}, unsupported: {}, fallbacks: {} }, services.logger, async () => {})
  assert.ok(!('todo-archive' in outcome))
})

test('inspector-queue-wiring-shapes: code generation records no worker for a wireQueueWorker whose argument is a variable, and for two calls with one queue name reports nothing and keeps the last', async () => {
  const { reported, state } = await inspectFiles('queue-wiring-shapes', {
    'probe.ts': [
      "import { pikkuSessionlessFunc, wireQueueWorker } from '@pikku/core'",
      "export const first = pikkuSessionlessFunc<{ n: number }, void>({ func: async ({ logger }) => { logger.info('first') } })",
      "export const second = pikkuSessionlessFunc<{ n: number }, void>({ func: async ({ logger }) => { logger.info('second') } })",
      "const byVariable = { name: 'by-variable', func: first }",
      'wireQueueWorker(byVariable)',
      "wireQueueWorker({ name: 'shared', func: first })",
      "wireQueueWorker({ name: 'shared', func: second })",
    ].join('\n'),
  })
  assert.deepEqual(codes(reported), [])
  const meta = (state as any).queueWorkers.meta
  assert.deepEqual(Object.keys(meta), ['shared'])
  assert.equal(meta.shared.pikkuFuncId, 'second')
})

test('in-memory-queue-runs: InMemoryQueueService runs a job without a delay within 100 to 300 ms, and keeps nothing to look up', async () => {
  const memory = new InMemoryQueueService()
  assert.equal(memory.supportsResults, false)
  const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'In memory', done: false })
  const reminded = nextInfoLog(services, /"In memory"/)
  const jobId = await memory.add('todo-reminders', { todoId: todo.todoId })
  assert.match(jobId, /^inmem-\d+$/)
  assert.equal(await memory.getJob(), null)
  let ran = false
  void reminded.then(() => (ran = true))
  mock.timers.tick(99)
  await settle()
  assert.equal(ran, false)
  mock.timers.tick(201)
  await reminded
})

test('in-memory-queue-retries: InMemoryQueueService retries up to attempts, its exponential wait capped at 2 s, then reports the failure', async () => {
  const memory = new InMemoryQueueService()
  const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Memory down', done: false })
  const down = storeDownFor(services, todo.todoId)
  const consoleError = console.error
  const reported = new Promise<string>((resolve) => {
    console.error = (...args: unknown[]) => resolve(args.map(String).join(' '))
  })
  try {
    await memory.add('todo-reminders', { todoId: todo.todoId }, { delay: 0, attempts: 3, backoff: { type: 'exponential', delay: 1500 } })
    mock.timers.tick(0)
    await settle()
    assert.equal(down.calls, 1)
    mock.timers.tick(1499)
    await settle()
    assert.equal(down.calls, 1)
    mock.timers.tick(1)
    await settle()
    assert.equal(down.calls, 2)
    // 2 x 1500 ms would be 3 s; the wait is capped at 2 s.
    mock.timers.tick(1999)
    await settle()
    assert.equal(down.calls, 2)
    mock.timers.tick(1)
    assert.match(await reported, /^\[InMemoryQueue\] Job inmem-\d+ on todo-reminders failed after 3 attempt\(s\): todo store unreachable$/)
    assert.equal(down.calls, 3)
  } finally {
    console.error = consoleError
    down.restore()
  }
})

test('in-memory-discard-retried: InMemoryQueueService counts a discard as a failed attempt and runs the job again while attempts remain', async () => {
  const memory = new InMemoryQueueService()
  const consoleError = console.error
  const reported = new Promise<string>((resolve) => {
    console.error = (...args: unknown[]) => resolve(args.map(String).join(' '))
  })
  const errors = collectLogs(services, 'error')
  try {
    const jobId = await memory.add('todo-reminders-strict', { todoId: 'deleted-long-ago' }, { delay: 0, attempts: 2 })
    mock.timers.tick(0)
    await settle()
    // No backoff given: the second attempt follows 50 ms later.
    mock.timers.tick(50)
    assert.equal(
      await reported,
      `[InMemoryQueue] Job ${jobId} on todo-reminders-strict failed after 2 attempt(s): Queue job ${jobId} discarded: to-do deleted-long-ago no longer exists`,
    )
    // runQueueJob logged the discard once per attempt.
    assert.equal(errors.lines.filter((line) => line.startsWith(`Error processing job ${jobId} `)).length, 2)
  } finally {
    console.error = consoleError
    errors.restore()
  }
})

test('table-discard-dropped: a discarded job is dropped from the table, not retried', async () => {
  const dropped: string[] = []
  const retried: string[] = []
  const drop = table.drop.bind(table)
  const retryLater = table.retryLater.bind(table)
  table.drop = async (id) => (dropped.push(id), drop(id))
  table.retryLater = async (id, ms) => (retried.push(id), retryLater(id, ms))
  try {
    const jobId = await queueService.add('todo-reminders-strict', { todoId: 'deleted-long-ago' }, { attempts: 3 })
    mock.timers.tick(1000)
    await settle()
    assert.deepEqual(dropped, [jobId])
    assert.deepEqual(retried, [])
  } finally {
    table.drop = drop
    table.retryLater = retryLater
  }
})

/**
 * What the CLI generates for wireQueueWorker({ name: 'todo-reminders-by-owner', func: queueReminder }): metadata naming
 * the function, then the wiring. Set up by hand so the app itself keeps no such mistake.
 */
const wireSessionFuncWorker = () => {
  pikkuState(null, 'queue', 'meta')['todo-reminders-by-owner'] = { pikkuFuncId: 'queueReminder', name: 'todo-reminders-by-owner' } as any
  addFunction('queueReminder', queueReminder)
  wireQueueWorker({ name: 'todo-reminders-by-owner' as any, func: queueReminder as any })
}

test('worker-permission-forbidden: a sessionless queue worker given isTodoOwner as a permission fails its job with ForbiddenError, since a job has no session', async () => {
  const { pikkuFuncId } = (pikkuState(null, 'queue', 'meta') as Record<string, any>)['todo-reminders']
  const registered = pikkuState(null, 'function', 'functions').get(pikkuFuncId) as { permissions?: unknown }
  const permissions = registered.permissions
  let ran = false
  try {
    registered.permissions = { isTodoOwner }
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Permission checked', done: false })
    await withWrappedFunction(pikkuFuncId, () => async () => ((ran = true), { reminded: false }), async () => {
      await assert.rejects(
        runQueueJob({ job: { id: 'j-perm', queueName: 'todo-reminders', data: { todoId: todo.todoId }, status: () => 'active' } }),
        { name: 'ForbiddenError' },
      )
    })
    assert.equal(ran, false)
  } finally {
    registered.permissions = permissions
  }
})

test('session-func-worker-forbidden: a queue worker that is a pikkuFunc fails every job with ForbiddenError "Authentication required"', async () => {
  wireSessionFuncWorker()
  const warnings = collectLogs(services, 'warn')
  try {
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Session needed', done: false })
    await assert.rejects(
      runQueueJob({ job: { id: 'j9', queueName: 'todo-reminders-by-owner', data: { todoId: todo.todoId }, status: () => 'active' } }),
      (error: Error) => error.name === 'ForbiddenError' && error.message === 'Authentication required',
    )
    assert.ok(
      warnings.lines.includes("Function 'queueReminder' requires a session but auth was explicitly disabled — use pikkuSessionlessFunc instead."),
      warnings.lines.join('\n'),
    )
  } finally {
    warnings.restore()
  }
})

/**
 * A job of todo-reminders-by-owner for a new to-do of ownerId, published through SignedQueueService with a signed
 * claim for that user and claimed from the table, with the session worker wired and sessionStore as the services'
 * store. dropSignedSetup() undoes the store and the identity secret.
 */
const signedOwnerJob = async (ownerId: string, sessionStore: InMemorySessionStore<UserSession>) => {
  wireSessionFuncWorker()
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = SECRET
  services.sessionStore = sessionStore
  const signed = new SignedQueueService(queueService, services.secrets, services.logger)
  const todo = await services.todoStore.create({ ownerId, title: `Owned by ${ownerId}`, done: false })
  await signed.add('todo-reminders-by-owner', { todoId: todo.todoId }, { pikkuUserId: ownerId })
  const row = await table.claimNext('todo-reminders-by-owner')
  return { id: row!.id, queueName: 'todo-reminders-by-owner', data: row!.data, status: () => 'active' as const, pikkuUserId: row!.pikkuUserId }
}
const dropSignedSetup = () => {
  delete services.sessionStore
  delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
}

test('signed-job-session-loaded: a job whose signed pikkuUserId verifies gets the session a sessionStore holds for that user, so a pikkuFunc worker runs', async () => {
  const sessionStore = new InMemorySessionStore<UserSession>()
  await sessionStore.set('u-kim', { userId: 'u-kim', role: 'member' })
  try {
    const job = await signedOwnerJob('u-kim', sessionStore)
    // The worker's permission (isTodoOwner) passes with u-kim's session; the to-do has no due date, so no job is queued.
    assert.match(job.pikkuUserId!, /^pq1\./)
    assert.deepEqual(await runQueueJob({ job }), { jobId: null })
    // The same job with no claim has no session to load.
    const { pikkuUserId: _claim, ...unsigned } = job
    await assert.rejects(runQueueJob({ job: unsigned }), (error: Error) => error.name === 'ForbiddenError')
  } finally {
    dropSignedSetup()
  }
})

test('signed-job-session-warns: a pikkuFunc worker whose signed job loads a session runs, and still logs the "auth was explicitly disabled" warning', async () => {
  const sessionStore = new InMemorySessionStore<UserSession>()
  await sessionStore.set('u-kim', { userId: 'u-kim', role: 'member' })
  const warnings = collectLogs(services, 'warn')
  try {
    const job = await signedOwnerJob('u-kim', sessionStore)
    assert.deepEqual(await runQueueJob({ job }), { jobId: null })
    assert.ok(
      warnings.lines.includes("Function 'queueReminder' requires a session but auth was explicitly disabled — use pikkuSessionlessFunc instead."),
      warnings.lines.join('\n'),
    )
  } finally {
    warnings.restore()
    dropSignedSetup()
  }
})

test('signed-job-no-stored-session: a job whose signed pikkuUserId verifies gets no session when the sessionStore holds none for that user, so a pikkuFunc worker fails', async () => {
  // A store that holds a session for someone else, and nothing for u-lee.
  const sessionStore = new InMemorySessionStore<UserSession>()
  await sessionStore.set('u-kim', { userId: 'u-kim', role: 'member' })
  try {
    const job = await signedOwnerJob('u-lee', sessionStore)
    await assert.rejects(
      runQueueJob({ job }),
      (error: Error) => error.name === 'ForbiddenError' && error.message === 'Authentication required',
    )
    // The claim itself verifies: once the store holds u-lee's session, the very same job runs.
    await sessionStore.set('u-lee', { userId: 'u-lee', role: 'member' })
    assert.deepEqual(await runQueueJob({ job }), { jobId: null })
  } finally {
    dropSignedSetup()
  }
})

test('in-memory-claim-unsigned: the bare InMemoryQueueService, the kind pikku dev passes in, hands pikkuUserId to the worker unsigned, so the runner rejects it even with the secret set', async () => {
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = SECRET
  const errors = collectLogs(services, 'error')
  try {
    const memory = new InMemoryQueueService()
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Unsigned in memory', done: false })
    const reminded = nextInfoLog(services, /"Unsigned in memory"/)
    await memory.add('todo-reminders', { todoId: todo.todoId }, { pikkuUserId: 'u-kim', delay: 0 })
    mock.timers.tick(1)
    await reminded
    assert.ok(
      errors.lines.some((line) => /^Rejected an unsigned or invalid identity claim on job inmem-\d+ in queue todo-reminders — the job runs without a pikkuUserId\.$/.test(line)),
      errors.lines.join('\n'),
    )
  } finally {
    errors.restore()
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
  }
})

test('second-wiring-replaces: a second wireQueueWorker for a queue name replaces the first without an error, and jobs run only the last one', async () => {
  const registrations = pikkuState(null, 'queue', 'registrations') as Map<string, any>
  const functions = pikkuState(null, 'function', 'functions') as Map<string, any>
  const { pikkuFuncId } = (pikkuState(null, 'queue', 'meta') as Record<string, any>)['todo-reminders']
  const wired = registrations.get('todo-reminders')
  const wiredFunc = functions.get(pikkuFuncId)
  try {
    // The same name in a second wiring, as a second file might write it.
    wireQueueWorker({ name: 'todo-reminders', func: { func: async () => ({ replaced: true }) } } as any)
    assert.equal([...registrations.keys()].filter((name) => name === 'todo-reminders').length, 1)
    const result = await runQueueJob({ job: { id: 'j-dup', queueName: 'todo-reminders', data: { todoId: 'any' }, status: () => 'active' } })
    assert.deepEqual(result, { replaced: true })
  } finally {
    registrations.set('todo-reminders', wired)
    functions.set(pikkuFuncId, wiredFunc)
  }
})

test('queue-reminder-job-options: queueReminder publishes nothing for a to-do without a due date, asks for three attempts with exponential backoff for one with a due date, and its NotFoundError answers 404', async () => {
  addFunction('queueReminder', queueReminder)
  const added: Array<{ queueName: string; options?: JobOptions }> = []
  const add = queueService.add
  queueService.add = async (queueName, _data, options) => (added.push({ queueName, options }), `recorded-${added.length}`)
  try {
    const owner = callerAs(services, { userId: 'u-kim', role: 'member' })
    const undated = await services.todoStore.create({ ownerId: 'u-kim', title: 'Someday', done: false })
    assert.deepEqual(await owner.invoke('queueReminder', { todoId: undated.todoId }), { jobId: null })
    assert.equal(added.length, 0)
    const dueAt = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString()
    const dated = await services.todoStore.create({ ownerId: 'u-kim', title: 'Dated', done: false, dueAt })
    await owner.invoke('queueReminder', { todoId: dated.todoId })
    assert.equal(added[0]!.queueName, 'todo-reminders')
    assert.equal(added[0]!.options?.attempts, 3)
    assert.equal(added[0]!.options?.backoff && typeof added[0]!.options.backoff === 'object' ? added[0]!.options.backoff.type : undefined, 'exponential')
    // The status core's error table holds for NotFoundError, which the HTTP runner answers with.
    assert.equal(pikkuState(null, 'misc', 'errors').get(NotFoundError)?.status, 404)
  } finally {
    queueService.add = add
  }
})

test('fail-discard-reject: an awaited queue.fail() or queue.discard() rejects with QueueJobFailedError or QueueJobDiscardedError, and the line after it never runs', async () => {
  const { pikkuFuncId } = (pikkuState(null, 'queue', 'meta') as Record<string, any>)['todo-reminders']
  for (const [end, ErrorClass] of [['fail', QueueJobFailedError], ['discard', QueueJobDiscardedError]] as const) {
    let reachedAfter = false
    await withWrappedFunction(
      pikkuFuncId,
      () => async (_services, _data, { queue }) => {
        await queue[end]('no longer wanted')
        reachedAfter = true
        return { reminded: false }
      },
      async () => {
        const verb = end === 'fail' ? 'failed' : 'discarded'
        await assert.rejects(
          runQueueJob({ job: { id: `j-${end}`, queueName: 'todo-reminders', data: { todoId: 'any' }, status: () => 'active' } }),
          (error: Error) => error instanceof ErrorClass && error.message === `Queue job j-${end} ${verb}: no longer wanted`,
        )
      },
    )
    assert.equal(reachedAfter, false, end)
  }
})

test('no-schema-data-unchecked: with the app\'s schema service, job data that does not fit the input schema fails before the function runs; without a schema service the same data reaches the function as it is', async () => {
  const { pikkuFuncId } = (pikkuState(null, 'queue', 'meta') as Record<string, any>)['todo-reminders']
  const received: unknown[] = []
  const job = (id: string) => ({ job: { id, queueName: 'todo-reminders', data: { todoId: 42 }, status: () => 'active' as const } })
  const schema = (services as any).schema
  assert.ok(schema)
  await withWrappedFunction(
    pikkuFuncId,
    () => async (_services, data) => {
      received.push(data)
      return { reminded: false }
    },
    async () => {
      await assert.rejects(runQueueJob(job('j-checked')), {
        message: 'Property "todoId" does not match schema., Instance type "number" is invalid. Expected "string".',
      })
      assert.deepEqual(received, [])
      ;(services as any).schema = undefined
      try {
        await runQueueJob(job('j-unchecked'))
      } finally {
        ;(services as any).schema = schema
      }
      assert.deepEqual(received, [{ todoId: 42 }])
    },
  )
})

test('fail-not-awaited-carries-on: a worker that calls queue.fail() without await carries on and returns, runQueueJob resolves as for a success, and the promise fail() returned rejects with QueueJobFailedError', async () => {
  const { pikkuFuncId } = (pikkuState(null, 'queue', 'meta') as Record<string, any>)['todo-reminders']
  let pending: Promise<void> | undefined
  let reachedAfter = false
  await withWrappedFunction(
    pikkuFuncId,
    () => async (_services, _data, { queue }) => {
      const failed = queue.fail('forgot the await')
      // Handled here only so that node:test does not report it; in a worker nothing listens.
      failed.catch(() => {})
      pending = failed
      reachedAfter = true
      return { reminded: true }
    },
    async () => {
      await runQueueJob({ job: { id: 'j-unawaited', queueName: 'todo-reminders', data: { todoId: 'any' }, status: () => 'active' } })
    },
  )
  assert.equal(reachedAfter, true)
  await assert.rejects(pending!, (error: Error) => error instanceof QueueJobFailedError && error.message === 'Queue job j-unawaited failed: forgot the await')
})

test('queue-reminder-owner-guard: isTodoOwner lets the owner and an admin queue a reminder and refuses another member with ForbiddenError; an unknown id passes it and queueReminder answers NotFoundError', async () => {
  addFunction('queueReminder', queueReminder)
  const inserted: Array<{ queueName: string; data: unknown }> = []
  const insert = table.insert
  // Record the jobs instead of storing them, so the table workers run nothing.
  table.insert = async (job) => (inserted.push(job), `recorded-${inserted.length}`)
  try {
    const dueAt = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString()
    const todo = await services.todoStore.create({ ownerId: 'u-kim', title: 'Guarded', done: false, dueAt })
    const owner = callerAs(services, { userId: 'u-kim', role: 'member' })
    const admin = callerAs(services, { userId: 'u-root', role: 'admin' })
    const other = callerAs(services, { userId: 'u-lee', role: 'member' })

    await assert.rejects(other.invoke('queueReminder', { todoId: todo.todoId }), { name: 'ForbiddenError' })
    assert.equal(inserted.length, 0)
    assert.deepEqual(await owner.invoke('queueReminder', { todoId: todo.todoId }), { jobId: 'recorded-1' })
    assert.deepEqual(await admin.invoke('queueReminder', { todoId: todo.todoId }), { jobId: 'recorded-2' })
    assert.deepEqual(inserted.map((job) => job.data), [{ todoId: todo.todoId }, { todoId: todo.todoId }])
    await assert.rejects(other.invoke('queueReminder', { todoId: 'no-such-todo' }), { name: 'NotFoundError' })
    assert.equal(inserted.length, 2)
  } finally {
    table.insert = insert
  }
})
