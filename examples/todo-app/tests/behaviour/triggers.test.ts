// The team-inbox trigger (src/triggers/) on core's InMemoryTriggerService, as src/triggers/trigger-worker.ts runs
// it. The feed is a local HTTP server: the registered source's input is pointed at it instead of the tracker's
// address, and setInterval is mocked so that the minute between polls passes at once.
import { after, before, beforeEach, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { pikkuState } from '@pikku/core/state'
import { InMemoryTriggerService } from '@pikku/core/services'
import { wireTriggerSource } from '#pikku/trigger'
import { pollInbox } from '../../src/triggers/inbox.functions.js'
import { startExpressApp, type RunningApp } from './harness/app.js'
import { waitFor } from './harness/app.js'
import { inspectFiles } from './harness/inspector.js'

let app: RunningApp
let services: any
let feed: Server
let feedItems: unknown[] = []
let feedRequests = 0
const sources = pikkuState(null, 'trigger', 'triggerSources') as Map<string, any>
let wiredSource: any

before(async () => {
  app = await startExpressApp()
  services = app.services
  feed = createServer((_req, res) => {
    feedRequests++
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(feedItems))
  })
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve))
  const address = feed.address() as { port: number }
  wiredSource = sources.get('team-inbox')
  sources.set('team-inbox', { ...wiredSource, input: { ...wiredSource.input, url: `http://127.0.0.1:${address.port}/assigned.json` } })
})
after(async () => {
  mock.timers.reset()
  sources.set('team-inbox', wiredSource)
  feed.closeAllConnections()
  await new Promise((resolve) => feed.close(resolve))
  await app.stop()
})
beforeEach(() => {
  feedItems = []
  feedRequests = 0
  mock.timers.reset()
  mock.timers.enable({ apis: ['setInterval'] })
})

const todosOf = async (ownerId: string) => (await services.todoStore.list(ownerId)).map((t: any) => t.title).sort()

/** Collects what the app logs at one level while `body` runs. */
const logged = async (level: 'info' | 'error', body: (lines: string[]) => Promise<void>) => {
  const lines: string[] = []
  const original = services.logger[level]
  services.logger[level] = (...args: unknown[]) => lines.push(args.map(String).join(' '))
  try {
    await body(lines)
  } finally {
    services.logger[level] = original
  }
  return lines
}

test('start-polls-and-fires: start() opens the source, whose first poll turns each feed item into a to-do for its assignee, without a session', async () => {
  feedItems = [
    { itemId: 'i1', title: 'Review the design', assigneeId: 'trig-alice' },
    { itemId: 'i2', title: 'Fix the login bug', assigneeId: 'trig-bob', dueAt: '2026-12-01' },
  ]
  const triggers = new InMemoryTriggerService()
  try {
    await triggers.start()
    await waitFor(async () => (await todosOf('trig-alice')).length + (await todosOf('trig-bob')).length, (n) => n === 2)
    assert.deepEqual(await todosOf('trig-alice'), ['Review the design'])
    const [bobs] = await services.todoStore.list('trig-bob')
    assert.equal(bobs.dueAt, '2026-12-01')
    assert.equal(bobs.done, false)
  } finally {
    await triggers.stop()
  }
})

test('seen-items-skipped: the next poll, a minute later, fires only for items the source has not seen', async () => {
  feedItems = [{ itemId: 'j1', title: 'First item', assigneeId: 'trig-carol' }]
  const triggers = new InMemoryTriggerService()
  try {
    await triggers.start()
    await waitFor(() => todosOf('trig-carol'), (titles) => titles.length === 1)
    feedItems = [...feedItems, { itemId: 'j2', title: 'Second item', assigneeId: 'trig-carol' }]
    mock.timers.tick(60_000)
    await waitFor(() => todosOf('trig-carol'), (titles) => titles.length === 2)
    assert.deepEqual(await todosOf('trig-carol'), ['First item', 'Second item'])
    assert.equal(feedRequests, 2)
  } finally {
    await triggers.stop()
  }
})

test('stop-runs-teardown: stop() runs the source\'s teardown, so no poll follows', async () => {
  const triggers = new InMemoryTriggerService()
  const lines = await logged('info', async () => {
    await triggers.start()
    await waitFor(async () => feedRequests, (n) => n === 1)
    await triggers.stop()
  })
  assert.ok(lines.includes('Stopped trigger: team-inbox'), lines.join('\n'))
  mock.timers.tick(60_000 * 5)
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(feedRequests, 1)
})

test('target-error-logged: an event whose target throws is logged with the trigger\'s name, and the next event still runs', async () => {
  feedItems = [
    { itemId: 'k1', assigneeId: 'trig-dave' },
    { itemId: 'k2', title: 'Valid item', assigneeId: 'trig-dave' },
  ]
  const triggers = new InMemoryTriggerService()
  const errors = await logged('error', async (errors) => {
    await triggers.start()
    await waitFor(() => todosOf('trig-dave'), (titles) => titles.length === 1)
    await waitFor(async () => errors.filter((line) => line.startsWith('Error invoking')).length, (n) => n === 1)
    await triggers.stop()
  })
  assert.deepEqual(await todosOf('trig-dave'), ['Valid item'])
  const invoking = errors.find((line) => line.startsWith('Error invoking'))
  assert.equal(
    invoking,
    "Error invoking rpc 'createTodoFromInbox' from trigger 'team-inbox': UnprocessableContentError: Instance does not have required property \"title\".",
  )
})

test('two-services-fire-twice: a second trigger service opens its own subscription, so every item becomes two to-dos', async () => {
  feedItems = [{ itemId: 'm1', title: 'Duplicated', assigneeId: 'trig-erin' }]
  const first = new InMemoryTriggerService()
  const second = new InMemoryTriggerService()
  try {
    await first.start()
    await second.start()
    await waitFor(() => todosOf('trig-erin'), (titles) => titles.length === 2)
    assert.deepEqual(await todosOf('trig-erin'), ['Duplicated', 'Duplicated'])
  } finally {
    await first.stop()
    await second.stop()
  }
})

test('duplicate-source-name: a second wireTriggerSource with the same name throws "Trigger source already exists"', () => {
  assert.throws(
    () => wireTriggerSource({ name: 'team-inbox', func: pollInbox, input: { url: 'http://127.0.0.1:1/x.json', everySeconds: 60 } }),
    { message: 'Trigger source already exists: team-inbox' },
  )
})

test('source-without-target: a source whose name no wireTrigger has is skipped with a log line, and nothing is polled', async () => {
  const targets = pikkuState(null, 'trigger', 'triggers') as Map<string, unknown>
  const target = targets.get('team-inbox')
  targets.delete('team-inbox')
  const triggers = new InMemoryTriggerService()
  try {
    const lines = await logged('info', () => triggers.start())
    assert.ok(lines.includes("Trigger source 'team-inbox' has no targets, skipping"), lines.join('\n'))
    assert.equal(feedRequests, 0)
  } finally {
    targets.set('team-inbox', target)
    await triggers.stop()
  }
})

// Wraps the registered createWireServices so that each set it builds holds a service with close(), the kind a
// per-call database client would be (the app's own factory has none), and counts the sets built and closed.
const countWireServices = () => {
  const factories = pikkuState(null, 'package', 'factories') as any
  const original = factories.createWireServices
  const counts = { created: 0, closed: 0, restore: () => void (factories.createWireServices = original) }
  factories.createWireServices = async (...args: unknown[]) => {
    counts.created++
    return { ...(await original?.(...args)), probe: { close: async () => void counts.closed++ } }
  }
  return counts
}

test('event-wire-services-not-closed: the trigger service creates a set of wire services for each event\'s call to the target and never closes it', async () => {
  feedItems = [
    { itemId: 'w1', title: 'First event', assigneeId: 'trig-fay' },
    { itemId: 'w2', title: 'Second event', assigneeId: 'trig-fay' },
  ]
  const wireServices = countWireServices()
  const triggers = new InMemoryTriggerService()
  try {
    await triggers.start()
    await waitFor(() => todosOf('trig-fay'), (titles) => titles.length === 2)
    // One set for the source's own setup run, closed when that run returns; one per event (onTriggerFire), left open.
    assert.equal(wireServices.created, 3)
    assert.equal(wireServices.closed, 1)
  } finally {
    wireServices.restore()
    await triggers.stop()
  }
})

test('source-wire-services-closed-at-setup: the wire services handed to the trigger function are closed once it returns its teardown, while its poll keeps running', async () => {
  const wireServices = countWireServices()
  const triggers = new InMemoryTriggerService()
  try {
    // An empty feed: no event fires, so the only set built is the one for pollInbox's own run.
    await triggers.start()
    assert.equal(wireServices.created, 1)
    assert.equal(wireServices.closed, 1)
    // The interval pollInbox set up still polls, with the services of a run that has ended.
    mock.timers.tick(60_000)
    await waitFor(async () => feedRequests, (n) => n === 2)
  } finally {
    wireServices.restore()
    await triggers.stop()
  }
})

test('event-wire-services-throw-unhandled: when building the wire services for an event throws, nothing logs or catches it: the rejection is unhandled', async () => {
  feedItems = [{ itemId: 'x1', title: 'Never created', assigneeId: 'trig-gus' }]
  const factories = pikkuState(null, 'package', 'factories') as any
  const original = factories.createWireServices
  // The source's own run has `trigger` on its wire; an event's set is built with an empty wire.
  factories.createWireServices = async (services: unknown, wire: any) => {
    if (wire?.trigger) return await original?.(services, wire)
    throw new Error('no database connection')
  }
  // node:test fails the running test on an unhandled rejection, so its listeners step aside while this one records it.
  const listeners = process.listeners('unhandledRejection')
  const unhandled: unknown[] = []
  const record = (reason: unknown) => void unhandled.push(reason)
  process.removeAllListeners('unhandledRejection')
  process.on('unhandledRejection', record)
  const triggers = new InMemoryTriggerService()
  try {
    const errors = await logged('error', async () => {
      await triggers.start()
      await waitFor(async () => unhandled.length, (n) => n === 1)
    })
    assert.equal((unhandled[0] as Error).message, 'no database connection')
    assert.deepEqual(errors, [])
    assert.deepEqual(await todosOf('trig-gus'), [])
  } finally {
    process.off('unhandledRejection', record)
    for (const listener of listeners) process.on('unhandledRejection', listener)
    factories.createWireServices = original
    await triggers.stop()
  }
})

test('trigger-wiring-cli-codes: the inspector reports a wiring without func as PKU236, a wireTrigger name given by a constant as PKU118, and a wireTriggerSource name given by a constant not at all', async () => {
  const header = [
    "import { pikkuSessionlessFunc } from '@pikku/core'",
    "import { wireTrigger, wireTriggerSource, pikkuTriggerFunc } from '@pikku/core/trigger'",
    "export const target = pikkuSessionlessFunc<void, void>({ func: async () => {} })",
    'export const source = pikkuTriggerFunc<void, void>(async () => () => {})',
    "const NAME = 'by-constant'",
  ].join('\n')
  const wirings = [
    "wireTrigger({ name: 'no-func' })",
    "wireTriggerSource({ name: 'no-func' })",
    'wireTrigger({ name: NAME, func: target })',
    'wireTriggerSource({ name: NAME, func: source })',
    "wireTriggerSource({ name: 'by-literal', func: source })",
  ]
  // Each wiring is inspected on its own, so that every code is tied to the wiring that raised it.
  const codes: string[][] = []
  for (const wiring of wirings) {
    const { reported } = await inspectFiles('trigger-codes', { 'probe.ts': [header, wiring].join('\n') })
    codes.push(reported.map(({ code }) => code))
  }
  assert.deepEqual(codes, [['PKU236'], ['PKU236'], ['PKU118'], [], []])
})
