// Five leads on the to-do app (core 0.12.90): the time zone the pg-boss and BullMQ schedulers give a cron, an invalid
// cron in InMemorySchedulerService.start(), a Cloudflare queue batch run on Node.js with a stand-in batch, the empty
// route value and the reserved query keys of a channel, and rpc.exposed for a wireRemoteAddon namespace.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { Queue } from 'bullmq'
import { PgBossServiceFactory } from '@pikku/queue-pg-boss'
import { BullServiceFactory } from '@pikku/queue-bullmq'
import { InMemorySchedulerService } from '@pikku/schedule'
import { getScheduledTasks } from '@pikku/core/scheduler'
import { runQueueJob, SignedQueueService } from '@pikku/core/queue'
import { rpcService } from '@pikku/core/rpc'
import { pikkuState } from '@pikku/core/state'
import { CloudflareQueueService } from '@pikku/cloudflare/queue'
import { startExpressApp, collectLogs, waitFor, withWrappedFunction, type RunningApp } from './harness/app.js'
import { nextInfoLog } from './harness/queues.js'
import { directUpgrade } from './harness/channel-direct.js'
import { startPostgres, startRedis, type RunningService } from './harness/services.js'
import { withEnv } from './harness/env.js'

let app: RunningApp
let postgres: RunningService
let redis: RunningService

before(async () => {
  ;[postgres, redis] = await Promise.all([startPostgres(), startRedis()])
  app = await startExpressApp()
})

after(async () => {
  await app.stop()
  await Promise.all([postgres.stop(), redis.stop()])
})

/** Runs `fn` with process.env.TZ set to `zone` (through the harness's withEnv, which puts the old value back). */
const inZone = <T>(zone: string, fn: () => Promise<T>) =>
  withEnv({ TZ: zone }, async () => {
    assert.equal(new Date(Date.UTC(2026, 2, 9)).getTimezoneOffset(), -330)
    return await fn()
  })

test('pgboss-schedule-utc: in a process with TZ=Asia/Kolkata, PgBossSchedulerService.start() stores daily-digest with the time zone UTC, since it passes pg-boss no tz', async () => {
  const factory = new PgBossServiceFactory(postgres.url)
  await factory.init()
  const scheduler = factory.getSchedulerService()
  try {
    await inZone('Asia/Kolkata', async () => {
      await scheduler.start()
      const boss = (factory as any).pgBoss
      const digest = (await boss.getSchedules()).find((s: { name: string }) => s.name === 'pikku-recurring-scheduled-task_daily-digest')
      assert.equal(digest.cron, '0 9 * * *')
      assert.equal(digest.timezone, 'UTC')
    })
  } finally {
    await scheduler.stop()
    await factory.close()
  }
})

test('bullmq-schedule-local-zone: in a process with TZ=Asia/Kolkata, BullSchedulerService.start() stores daily-digest with no tz, and its next run at 09:00 Kolkata time (03:30 UTC)', async () => {
  const connection = { host: redis.host, port: redis.port }
  const factory = new BullServiceFactory(connection)
  await factory.init()
  const scheduler = factory.getSchedulerService()
  const recurring = new Queue('pikku-recurring-scheduled-task', { connection })
  try {
    await inZone('Asia/Kolkata', async () => {
      await scheduler.start()
      const digest = await recurring.getJobScheduler('recurring:daily-digest')
      assert.equal(digest?.pattern, '0 9 * * *')
      assert.equal(digest?.tz, undefined)
      const next = new Date(digest!.next!)
      assert.deepEqual([next.getUTCHours(), next.getUTCMinutes()], [3, 30])
    })
  } finally {
    await scheduler.stop()
    await recurring.close()
    await factory.close()
  }
})

test('invalid-cron-partial-start: InMemorySchedulerService.start() rejects at the first invalid schedule with the cron package\'s error ("Field value (25) is out of range"); the tasks before it keep firing until stop(), the ones after it never start', async () => {
  const tasks = getScheduledTasks() as Map<string, any>
  const saved = [...tasks.entries()]
  const [first, ...rest] = saved
  // daily-digest first, then a task with hour 25, then the app's other tasks.
  tasks.clear()
  tasks.set(first![0], first![1])
  tasks.set('broken-report', { ...first![1], name: 'broken-report', schedule: '0 25 * * *' })
  for (const [name, task] of rest) tasks.set(name, task)
  assert.equal(first![0], 'daily-digest')
  const scheduler = new InMemorySchedulerService()
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 3, 8, 59, 0) })
  try {
    // The cron package's CronError, whose name stays 'Error'.
    await assert.rejects(scheduler.start(), (error: Error) => {
      assert.deepEqual([error.constructor.name, error.name, error.message], ['CronError', 'Error', 'Field value (25) is out of range'])
      return true
    })
    assert.deepEqual([...(scheduler as any).cronJobs.keys()], ['daily-digest'])
    const ran = nextInfoLog(app.services, /^Sending the daily digest of open to-dos$/)
    mock.timers.tick(60_000)
    await ran
  } finally {
    await scheduler.stop()
    mock.timers.reset()
    tasks.clear()
    for (const [name, task] of saved) tasks.set(name, task)
  }
})

test('cloudflare-batch-discard-fails-batch: a discarded job in a Cloudflare queue batch makes queue() reject; the job before it has already run, the one after it never runs, and no job gets the pikkuUserId the producer signed', async () => {
  await import('./harness/core-cloudflare.js')
  const { createCloudflareQueueHandler } = await import('@pikku/cloudflare/handler')
  await withEnv({ PIKKU_QUEUE_IDENTITY_SECRET: 'q0Vb1m3mS0n6cXy3mJ2bQx8T1vH5dN7aK9pL4rW6eZs=' }, async () => {
    const infos = collectLogs(app.services, 'info')
    // The handler's own [QUEUE] lines.
    const log = mock.method(console, 'log', () => {})
    const error = mock.method(console, 'error', () => {})
    try {
      // The messages CloudflareQueueService sends through SignedQueueService, caught by a stand-in producer binding.
      const sent: unknown[] = []
      const binding = { send: async (message: unknown) => void sent.push(message) }
      const producer = new SignedQueueService(new CloudflareQueueService({ TODO_REMINDERS_STRICT: binding }), app.services.secrets, app.services.logger)
      const store = app.services.todoStore
      const early = await store.create({ ownerId: 'u-cf', title: 'Before the gone one', done: false })
      const late = await store.create({ ownerId: 'u-cf', title: 'After the gone one', done: false })
      for (const todoId of [early.todoId, 'gone-from-store', late.todoId]) {
        await producer.add('todo-reminders-strict', { todoId }, { pikkuUserId: 'u-cf' })
      }
      assert.match((sent[0] as { pikkuUserId: string }).pikkuUserId, /^pq1\./)
      const seen: Array<string | undefined> = []
      await withWrappedFunction(
        'sendReminderStrict',
        (original) => async (services, data, wire) => (seen.push(wire.queue?.pikkuUserId), original(services, data, wire)),
        async () => {
          // Control: the same first message run by runQueueJob with its claim resolves to the producer's user.
          const body = sent[0] as { id: string; data: unknown; pikkuUserId: string }
          await runQueueJob({ job: { id: body.id, queueName: 'todo-reminders-strict', data: body.data, pikkuUserId: body.pikkuUserId, status: async () => 'active' } as never })
          assert.deepEqual(seen, ['u-cf'])
          seen.length = 0
          const Handler = createCloudflareQueueHandler({ createConfig: async () => ({}), createSingletonServices: async () => app.services as never })
          const worker = new (Handler as any)()
          worker.env = {}
          const batch = { queue: 'todo-reminders-strict', messages: sent.map((body, i) => ({ id: `m${i + 1}`, body })) }
          await assert.rejects(worker.queue(batch), { name: 'QueueJobDiscardedError' })
        },
      )
      assert.deepEqual(seen, [undefined, undefined])
      assert.equal(infos.lines.filter((line) => line.includes('Before the gone one')).length, 2)
      assert.ok(!infos.lines.some((line) => line.includes('After the gone one')))
    } finally {
      log.mock.restore()
      error.mock.restore()
      infos.restore()
    }
  })
})

test('channel-empty-route-value: a route whose value is the empty string never matches; { action: "" } goes to onMessage or, as on todos, to the "No handler found" error', async () => {
  const channels = pikkuState(null, 'channel', 'channels') as Map<string, any>
  const routes = channels.get('todos').onMessageWiring.action
  routes[''] = routes.listTodos
  const errors = collectLogs(app.services, 'error')
  try {
    const { handler } = await directUpgrade('/todos/live')
    assert.ok(handler)
    const reply = await handler.message(JSON.stringify({ action: '' }))
    assert.equal(reply, undefined)
    await waitFor(async () => errors.lines.length, (n) => n >= 1)
    assert.ok(errors.lines[0]!.startsWith('No handler found for message in channel todos'))
  } finally {
    delete routes['']
    errors.restore()
  }
})

test('channel-reserved-query-keys-dropped: query keys __proto__, constructor and prototype are dropped from the opening data, so an upgrade carrying only those opens the todos channel, which refuses ?token=abc with 422', async () => {
  const { handler, response } = await directUpgrade('/todos/live?__proto__=1&constructor=2&prototype=3')
  assert.ok(handler)
  assert.deepEqual({ ...(handler as any).openingData }, {})
  assert.equal(response.statusCode, 200)
  const refused = await directUpgrade('/todos/live?token=abc&constructor=2')
  assert.equal(refused.handler, undefined)
  assert.equal(refused.response.statusCode, 422)
})

test('remote-addon-not-exposed: POST /rpc/<namespace>:<function> answers 404 for a wireRemoteAddon namespace and sends nothing to the host, while rpc.invoke reaches it', async () => {
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(String(req.url))
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  // What wireRemoteAddon({ name: 'probeRemote', package: '@probe/remote-addon', serverUrl }) stores (wire-remote-addon.ts).
  const addons = pikkuState(null, 'addons', 'packages')
  addons.set('probeRemote', { package: '@probe/remote-addon', remote: true, serverUrl: `http://127.0.0.1:${port}` } as never)
  try {
    const response = await fetch(`${app.url}/rpc/probeRemote:doThing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rpcName: 'probeRemote:doThing', data: {} }),
    })
    assert.equal(response.status, 404)
    assert.equal(((await response.json()) as { message: string }).message, 'RPC function not found: probeRemote:doThing')
    assert.deepEqual(seen, [])
    const rpc: any = rpcService.getContextRPCService(app.services as never, {} as never, false)
    assert.deepEqual(await rpc.invoke('probeRemote:doThing', {}), { ok: true })
    assert.deepEqual(seen, ['/remote/rpc/doThing'])
  } finally {
    addons.delete('probeRemote')
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
