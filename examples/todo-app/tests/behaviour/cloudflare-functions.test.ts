// What docs/runtimes/cloudflare-functions.mdx says of @pikku/cloudflare that runs in Node.js: the app's Worker entry
// (src/runtimes/cloudflare.ts) given a WebSocket upgrade, and CloudflareQueueService given a stand-in producer
// binding. No Cloudflare service is reached.
import { after, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { getSingletonServices, pikkuState, setSingletonServices } from '@pikku/core/state'
import { stopSingletonServices } from '@pikku/core/utils'
import { CloudflareQueueService } from '@pikku/cloudflare/queue'
import { quiet, withWrappedFunction } from './harness/app.js'

after(() => stopSingletonServices())

test('cloudflare-upgrade-without-stub-426: an upgrade request to the Worker entry, which passes runFetch no Durable Object stub, answers 426 without reaching the routes', async () => {
  await import('./harness/core-cloudflare.js')
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  // Any path: the upgrade check comes before route matching, so even /health is refused.
  const response = await worker.fetch(new Request('http://localhost/health', { headers: { upgrade: 'websocket' } }), {})
  quiet(getSingletonServices() as never)
  assert.equal(response.status, 426)
  assert.equal(await response.text(), '')
  // The same path without the header reaches the route.
  const plain = await worker.fetch(new Request('http://localhost/health'), {})
  assert.equal(plain.status, 200)
})

test('cloudflare-queue-binding: CloudflareQueueService sends to the env binding named after the queue in upper snake case, with the delay rounded up to seconds; a missing binding throws, and getJob always throws', async () => {
  const sent: { message: any; options: any }[] = []
  const binding = { send: async (message: unknown, options: unknown) => void sent.push({ message, options }) }
  const queues = new CloudflareQueueService({ TODO_REMINDERS: binding })
  const id = await queues.add('todo-reminders', { todoId: 't1' }, { delay: 1500 })
  assert.equal(sent.length, 1)
  assert.deepEqual(sent[0].options, { delaySeconds: 2 })
  assert.deepEqual(sent[0].message, { id, queueName: 'todo-reminders', data: { todoId: 't1' }, pikkuUserId: undefined })
  await assert.rejects(new CloudflareQueueService({}).add('todo-reminders', {}), /Queue binding "TODO_REMINDERS" not found/)
  await assert.rejects(queues.getJob('todo-reminders', id), /does not support getJob/)
})

test('cloudflare-queue-unparsable-body-skipped: a message whose body is a string that is not JSON is logged and skipped, and the batch still resolves after running the jobs around it', async () => {
  await import('./harness/core-cloudflare.js')
  const { createCloudflareQueueHandler } = await import('@pikku/cloudflare/handler')
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  await worker.fetch(new Request('http://localhost/health'), {})
  const app = getSingletonServices()
  quiet(app as never)
  const Handler = createCloudflareQueueHandler({ createConfig: async () => ({}), createSingletonServices: async () => app })
  const handler = new Handler(undefined, {})
  Object.assign(handler, { env: {} })
  const { pikkuFuncId } = (pikkuState(null, 'queue', 'meta') as Record<string, { pikkuFuncId: string }>)['todo-reminders']!
  const ran: unknown[] = []
  const log = mock.method(console, 'log', () => {})
  const error = mock.method(console, 'error', () => {})
  try {
    await withWrappedFunction(pikkuFuncId, () => async (_services, data) => (ran.push(data), { reminded: false }), async () => {
      const job = (todoId: string) => ({ id: todoId, queueName: 'todo-reminders', data: { todoId } })
      await handler.queue({
        queue: 'todo-reminders',
        messages: [
          { id: 'm1', body: job('t1') },
          { id: 'm2', body: 'not json' },
          { id: 'm3', body: job('t3') },
        ],
      })
    })
    assert.deepEqual(ran, [{ todoId: 't1' }, { todoId: 't3' }])
    assert.ok(error.mock.calls.some((call) => call.arguments[0] === 'CF Queue: failed to parse message body' && call.arguments[1] === 'm2'))
  } finally {
    log.mock.restore()
    error.mock.restore()
    setSingletonServices(app)
  }
})

test('cloudflare-scheduled-failure-rejects: when the matched task throws, a skip() included, the Worker entry\'s scheduled handler rejects with that error', async () => {
  await import('./harness/core-cloudflare.js')
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  await worker.fetch(new Request('http://localhost/health'), {})
  quiet(getSingletonServices() as never)
  const { pikkuFuncId } = (pikkuState(null, 'scheduler', 'meta') as Record<string, { pikkuFuncId: string }>)['daily-digest']!
  await withWrappedFunction(pikkuFuncId, () => async (_services, _data, wire) => wire.scheduledTask.skip('probe'), async () => {
    await assert.rejects(worker.scheduled({ cron: '0 9 * * *', scheduledTime: Date.now() } as never, {}), {
      name: 'ScheduledTaskSkippedError',
      message: "Scheduled task 'daily-digest' was skipped: probe",
    })
  })
  await withWrappedFunction(pikkuFuncId, () => async () => {
    throw new Error('digest failed')
  }, async () => {
    await assert.rejects(worker.scheduled({ cron: '0 9 * * *', scheduledTime: Date.now() } as never, {}), { message: 'digest failed' })
  })
})
