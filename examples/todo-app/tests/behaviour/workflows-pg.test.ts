// Workflows on PostgreSQL, as src/runtimes/pg-workflows-worker.ts runs them: PgKyselyWorkflowService from
// @pikku/kysely-postgres on a real PostgreSQL (harness/services.ts), with pg-boss (@pikku/queue-pg-boss) for the queue
// and scheduler services, and the queue workers served in this process. The workflow tables are created with
// applyPikkuSchemas from @pikku/kysely, the statements `pikku db migrate` applies, so that the test needs no CLI run.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { PgBossServiceFactory } from '@pikku/queue-pg-boss'
import { PikkuKysely, PgKyselyWorkflowService } from '@pikku/kysely-postgres'
import { applyPikkuSchemas, workflowSchema } from '@pikku/kysely'
import { ConsoleLogger, LogLevel } from '@pikku/core/services'
import { sql } from 'kysely'
import { sqliteDatabase, startPostgres, type RunningService } from './harness/services.js'
import { startSessionApp, type SessionApp } from './harness/workflows.js'
import { waitFor } from './harness/app.js'

let pg: RunningService
let database: PikkuKysely<any>
let pgBoss: PgBossServiceFactory
let app: SessionApp
let services: any
let initBeforeMigration: unknown
const warnings: string[] = []

before(async () => {
  pg = await startPostgres()
  const logger = new ConsoleLogger()
  if (!process.env.LOG) logger.setLevel(LogLevel.critical)
  database = new PikkuKysely<any>(logger, pg.url)
  await database.init()
  const workflowService = new PgKyselyWorkflowService(database.kysely)
  initBeforeMigration = await workflowService.init().then(() => 'no error', (error: Error) => error)
  await applyPikkuSchemas(database.kysely, [workflowSchema])
  await workflowService.init()

  pgBoss = new PgBossServiceFactory(pg.url)
  await pgBoss.init()
  const schedulerService = pgBoss.getSchedulerService()
  app = await startSessionApp({ workflowService, queueService: pgBoss.getQueueService(), schedulerService })
  services = app.services
  const warn = services.logger.warn.bind(services.logger)
  services.logger.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '))
    warn(...args)
  }
  await pgBoss.getQueueWorkers().registerQueues()
  await schedulerService.start()
})
after(async () => {
  await services?.schedulerService?.stop()
  await pgBoss?.close()
  await app?.stop()
  await database?.close()
  await pg?.stop()
})

/** A second workflow service on its own connection: what another process would read from the database. */
const readFromDatabase = async <T>(read: (service: PgKyselyWorkflowService) => Promise<T>): Promise<T> => {
  const other = new PikkuKysely<any>(services.logger, pg.url)
  await other.init()
  try {
    return await read(new PgKyselyWorkflowService(other.kysely))
  } finally {
    await other.close()
  }
}

test('init-before-migration: init() refuses to start while the workflow tables are missing, naming the CLI commands', () => {
  assert.ok(initBeforeMigration instanceof Error)
  assert.equal(
    initBeforeMigration.message,
    "The 'workflow' schema is not in this database: workflow_runs, workflow_step, workflow_step_history, workflow_versions missing. " +
      'The runtime does not create these — run `pikku db generate` to write the migration, then `pikku db migrate` to apply it.',
  )
})

test('sqlite-init-and-no-run-lock: on SQLite, the Kysely workflow store refuses init() without its tables with the same message, and its withRunLock lets two bodies for one run in side by side', async () => {
  // SQLiteKyselyWorkflowService of @pikku/kysely-sqlite is `extends KyselyWorkflowService {}`; that package is not
  // installed here, so its parent is run on the SQLite database it would be given.
  const { Kysely, SqliteDialect } = await import('kysely')
  const { SerializePlugin, KyselyWorkflowService } = await import('@pikku/kysely')
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: (await sqliteDatabase()) as never }), plugins: [new SerializePlugin()] })
  let release = () => {}
  try {
    const wf = new KyselyWorkflowService(db as never)
    await assert.rejects(wf.init(), { message: (initBeforeMigration as Error).message })
    const entered: string[] = []
    const gate = new Promise<void>((resolve) => (release = resolve))
    const first = wf.withRunLock('run-1', async () => {
      entered.push('first')
      await gate
    })
    const second = wf.withRunLock('run-1', async () => void entered.push('second'))
    // A lock that excluded would keep the second body out until the first had finished.
    await waitFor(async () => entered, (names) => names.length === 2, 2_000)
    release()
    await Promise.all([first, second])
    assert.deepEqual(entered, ['first', 'second'])
  } finally {
    release()
    await db.destroy()
  }
})

test('queued-start: with a queue service, POST /todos/:todoId/reminder stores the run in PostgreSQL and puts a job on the workflow\'s orchestrator queue', async () => {
  const todo = await services.todoStore.create({ ownerId: 'alice', title: 'Queued', done: false })
  const response = await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)
  assert.equal(response.status, 200)
  const { runId } = await response.json()
  const run = await readFromDatabase((service) => service.getRun(runId))
  assert.equal(run?.workflow, 'todoReminderWorkflow')
  assert.equal(run?.inline, false)
  assert.equal(run?.wire.pikkuUserId, 'alice')
  const { rows } = await sql<{ name: string }>`select distinct name from pgboss.job where data->>'runId' = ${runId}`.execute(database.kysely)
  assert.deepEqual(rows.map((row) => row.name), ['wf-orchestrator-todo-reminder-workflow'])
})

test('worker-runs-steps-sleep-not-dispatched: the queue worker runs the first step; the sleep cannot be scheduled, since no queue pikku-remote-internal-rpc exists, and the run fails', async () => {
  const todo = await services.todoStore.create({ ownerId: 'alice', title: 'Sleeps', done: false })
  const { runId } = await (await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)).json()
  const status = await waitFor(
    () => readFromDatabase((service) => service.getRunStatus(runId)),
    (s: any) => s.status !== 'running',
    20_000,
  )
  assert.deepEqual(status?.steps.map((s: any) => [s.name, s.status]), [
    ['Remind the owner', 'succeeded'],
    ['Give the owner a day', 'pending'],
  ])
  assert.equal(status?.status, 'failed')
  assert.equal(status?.error?.message, `Failed to dispatch workflow step 'Give the owner a day' (run ${runId})`)
  // The run can read as failed before the orchestrator's warning is logged (seen on a loaded machine), so wait for it.
  const warned = `Workflow run ${runId} could not dispatch a step (queue unavailable); leaving run for orchestrator retry`
  await waitFor(
    async () => warnings.some((w) => w.startsWith(warned)),
    (found) => found,
    5_000,
  ).catch(() => undefined)
  assert.ok(warnings.some((w) => w.startsWith(warned)), warnings.join('\n'))
  await assert.rejects(services.schedulerService.scheduleRPC(1000, 'pikkuWorkflowSleeper', { runId, stepId: 'x' }), {
    message: 'Queue pikku-remote-internal-rpc does not exist',
  })
})

test('queues-created: registerQueues creates the two shared queues and one orchestrator queue per workflow, and no step queues for steps that are not workflowQueued', async () => {
  const { rows } = await sql<{ name: string }>`select name from pgboss.queue where name like 'wf-%' order by name`.execute(database.kysely)
  assert.deepEqual(rows.map((row) => row.name), ['wf-orchestrator-nudge-owner-graph', 'wf-orchestrator-todo-reminder-workflow'])
  // The two shared queues serve whatever has no queue of its own.
  const shared = await sql<{ name: string }>`select name from pgboss.queue where name like 'pikku-workflow-%' order by name`.execute(database.kysely)
  assert.deepEqual(shared.rows.map((row) => row.name), ['pikku-workflow-orchestrator', 'pikku-workflow-step-worker'])
})

test('pg-event-hub-large-payload-rejects: a PgEventHubService publish over the 8 kB NOTIFY limit reaches this process\'s subscribers, then rejects', async () => {
  const { PgEventHubService } = await import('@pikku/kysely-postgres')
  // This file's PostgreSQL, which the workflow tests use too; the hub's NOTIFY channel is its own.
  const hub = new PgEventHubService<Record<string, unknown>>(pg.url)
  try {
    await hub.init()
    // A stand-in for a connection in this process: the hub's own LocalEventHubService sends to it.
    const received: unknown[] = []
    hub.onChannelOpened({ getChannel: () => ({ channelId: 'big' }), send: (data: unknown) => void received.push(data) } as never)
    await hub.subscribe('todos:big', 'big')
    await assert.rejects(hub.publish('todos:big', null, { text: 'x'.repeat(9000) }), /payload string too long/)
    assert.equal(received.length, 1)
  } finally {
    await hub.close()
  }
})

test('pg-event-hub-one-process-id: two PgEventHubService in one process never relay to each other, while a NOTIFY from another instance id reaches them', async () => {
  const { PgEventHubService } = await import('@pikku/kysely-postgres')
  const sender = new PgEventHubService<Record<string, unknown>>(pg.url)
  const listener = new PgEventHubService<Record<string, unknown>>(pg.url)
  try {
    await sender.init()
    await listener.init()
    const received: unknown[] = []
    listener.onChannelOpened({ getChannel: () => ({ channelId: 'far' }), send: (data: unknown) => void received.push(data) } as never)
    await listener.subscribe('todos:far', 'far')
    await sender.publish('todos:far', null, { n: 1 })
    // The same notification sent afterwards under another process's instance id is delivered. PostgreSQL hands a
    // listener its notifications in commit order, so had the sender's been relayed it would have arrived first.
    const payload = JSON.stringify({ instanceId: 'another-process', topic: 'todos:far', data: { n: 2 } })
    await sql`select pg_notify('pikku_eventhub', ${payload})`.execute(database.kysely)
    await waitFor(async () => received.length, (n) => n >= 1)
    assert.deepEqual(received, [{ n: 2 }])
  } finally {
    await sender.close()
    await listener.close()
  }
})

test('pg-completed-clears-error: on PostgreSQL a run that suspended and then completes reads back with no error', async () => {
  const wf = services.workflowService as PgKyselyWorkflowService
  const runId = await wf.createRun('probe', {}, false, 'hash', { type: 'test' })
  await wf.updateRunStatus(runId, 'suspended', undefined, { message: 'Wait for a review', stack: '', code: 'SUSPENDED' } as never)
  assert.equal((await wf.getRun(runId))?.error?.message, 'Wait for a review')
  await wf.updateRunStatus(runId, 'completed', { reviewed: true })
  const run = await wf.getRun(runId)
  assert.deepEqual([run?.status, run?.error, run?.output], ['completed', undefined, { reviewed: true }])
  const status = await wf.getRunStatus(runId)
  assert.deepEqual([status?.status, status?.error], ['completed', undefined])
})

test('pg-retry-same-step-row: on PostgreSQL a retry attempt of a failed step keeps the step\'s stepId', async () => {
  const wf = services.workflowService as PgKyselyWorkflowService
  const runId = await wf.createRun('probe', {}, false, 'hash', { type: 'test' })
  const step = await wf.insertStepState(runId, 'Check', 'sendReminder', {}, { retries: 2 })
  await wf.setStepError(step.stepId, new Error('flaky'))
  const retry = await wf.createRetryAttempt(step.stepId, 'pending')
  assert.equal(retry.stepId, step.stepId)
  assert.equal(retry.attemptCount, 2)
  assert.equal((await wf.getStepState(runId, 'Check')).stepId, step.stepId)
})

test('pg-falsy-output-dropped: a run that completes with false, 0 or an empty string reads back with no output from getRun and getRunStatus, while a step\'s false result is kept', async () => {
  const wf = services.workflowService as PgKyselyWorkflowService
  for (const output of [false, 0, '']) {
    const runId = await wf.createRun('probe', {}, false, 'hash', { type: 'test' })
    await wf.updateRunStatus(runId, 'completed', output)
    const run = await wf.getRun(runId)
    assert.equal(run?.status, 'completed')
    assert.equal(run?.output, undefined, `output ${JSON.stringify(output)}`)
    const status = await wf.getRunStatus(runId)
    assert.deepEqual([status?.status, status?.output], ['completed', undefined], `status output ${JSON.stringify(output)}`)
  }
  const runId = await wf.createRun('probe', {}, false, 'hash', { type: 'test' })
  const step = await wf.insertStepState(runId, 'Check', 'sendReminder', {}, { retries: 0 })
  await wf.setStepResult(step.stepId, false)
  assert.equal((await wf.getStepState(runId, 'Check')).result, false)
})

test('pg-lock-hold-timeout-failed-then-completed: with maxLockHoldMs, the orchestrator worker\'s call for a run whose body holds the run lock too long rejects with RunLockHoldTimeoutError and marks the run failed, and the abandoned body goes on to complete the run over that status', async () => {
  const { RunLockHoldTimeoutError } = await import('@pikku/kysely-postgres')
  const { pikkuState } = await import('@pikku/core/state')
  const { rpcFor } = await import('./harness/workflows.js')
  // A second service on the same database, as another worker would have it; wireQueues off, so it adds no queue workers.
  const wf = new PgKyselyWorkflowService(database.kysely, { maxLockHoldMs: 100, wireQueues: false } as never)
  const graphHash = (pikkuState(null, 'workflows', 'meta') as Record<string, any>).todoReminderWorkflow.graphHash
  const realGet = services.todoStore.get
  let release = () => {}
  const released = new Promise<void>((resolve) => { release = resolve })
  // The first step's todoStore.get waits until released, then finds no to-do, so the run ends 'closed'.
  services.todoStore.get = async () => { await released; return undefined }
  try {
    const runId = await wf.createRun('todoReminderWorkflow', { todoId: 'held-todo' }, false, graphHash, { type: 'test' })
    // orchestrateWorkflow is what the orchestrator queue's worker calls for a run (core workflow-queue-workers.ts).
    await assert.rejects(wf.orchestrateWorkflow(runId, rpcFor(services)), (error: unknown) => error instanceof RunLockHoldTimeoutError)
    const failed = await wf.getRun(runId)
    assert.equal(failed?.status, 'failed')
    assert.match(failed?.error?.message ?? '', /held its run lock for longer than 100ms/)
    release()
    const run = await waitFor(() => wf.getRun(runId), (r) => r?.status === 'completed')
    assert.deepEqual(run?.output, { outcome: 'closed' })
  } finally {
    release()
    services.todoStore.get = realGet
  }
})
