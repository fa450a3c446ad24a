// Channel behaviour of the to-do app's `todos` channel (src/wirings/todos.channel.ts) on @pikku/ws, started as
// src/runtimes/ws.ts starts it, talked to with a raw `ws` client and with the generated PikkuWebSocket client.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { WebSocket, WebSocketServer } from 'ws'
import { DEFAULT_WS_MAX_PAYLOAD, pikkuWebsocketHandler } from '@pikku/ws'
import { createServer } from 'node:http'
import { LocalEventHubService, PikkuLocalChannelHandler, runLocalChannel } from '@pikku/core/channel/local'
import { PgEventHubService } from '@pikku/kysely-postgres'
import { runChannelConnect, runChannelDisconnect, runChannelMessage } from '@pikku/core/channel/serverless'
import { registerProbe } from './harness/core-probes.js'
import { addChannelMiddleware, combineChannelMiddleware } from '@pikku/core/channel'
import { addHTTPMiddleware, fetch as pikkuFetch, fetchData, PikkuFetchHTTPRequest, PikkuFetchHTTPResponse } from '@pikku/core/http'
import { randomUUID } from 'node:crypto'
import { PikkuWebSocket } from '../../.pikku/pikku-websocket.gen.js'
import type { TodoTopics } from '../../src/todo-events.js'
import type { Todo } from '../../src/todo-store.js'
import { signOut } from '../../src/functions/session.functions.js'
import { RawClient, startWsApp, upgradeStatus, type RunningWsApp } from './harness/channels.js'
import { collectLogs, waitFor, withWrappedFunction, type RegisteredFunc } from './harness/app.js'
import { forgedToken } from './harness/http.js'
import { withEnv } from './harness/env.js'
import { directUpgrade } from './harness/channel-direct.js'
import { pikkuState } from '@pikku/core/state'
import { ForbiddenError } from '@pikku/core/errors'
import { addGlobalMiddleware, addTagMiddleware, authBearer } from '@pikku/core/middleware'
import { httpRouter } from '@pikku/core/http'
import { defineChannelRoutes, pikkuChannelFunc } from '#pikku/channel'
import { inspectFiles, codes } from './harness/inspector.js'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { runTempDir } from './harness/temp.js'
import { APP_DIR, compileScratch } from './harness/node-process.js'

let app: RunningWsApp
const open: RawClient[] = []
const client = async (headers: Record<string, string> = {}) => {
  const c = new RawClient(`${app.wsUrl}/todos/live`, headers)
  open.push(c)
  await c.opened
  return c
}
const signedIn = async (userId: string) => client({ authorization: `Bearer ${await app.token(userId)}` })

/** How many sockets are subscribed to a topic in the app's LocalEventHubService. */
const subscribers = (topic: string) =>
  ((app.services.eventHub as any).subscriptions as Map<string, Set<string>>).get(topic)?.size ?? 0

/** Waits until the topic has `count` subscribers, or fails after the deadline. */
const untilSubscribers = (topic: string, count: number, timeoutMs = 3000) =>
  waitFor(async () => subscribers(topic), (n) => n === count, timeoutMs)

before(async () => {
  app = await startWsApp()
})
after(async () => {
  await Promise.all(open.map((c) => c.close()))
  await app.stop()
})

// Runs before any socket opens: the runner combines each chain once and caches it, so middleware added after the first
// connect would never join the onConnect and onDisconnect chains. Both middleware below record only while the test runs
// and pass straight through afterwards, for the later tests whose cached chains keep them.
test('lifecycle-middleware-twice: global middleware runs twice around onConnect and onDisconnect and once per message; onConnect\'s own middleware runs twice on connect and once more on disconnect, onDisconnect\'s own only in the outer chain', async () => {
  const calls: string[] = []
  let recording = true
  const label = (wire: any) => (wire.http ? 'upgrade' : (wire.functionId ?? 'outside'))
  const counter = async (_services: unknown, wire: any, next: () => Promise<void>) => {
    if (recording) calls.push(`global:${label(wire)}`)
    await next()
  }
  const own = async (_services: unknown, wire: any, next: () => Promise<void>) => {
    if (recording) calls.push(`own:${label(wire)}`)
    await next()
  }
  const ownDisconnect = async (_services: unknown, wire: any, next: () => Promise<void>) => {
    if (recording) calls.push(`disconnect-own:${label(wire)}`)
    await next()
  }
  const globals = pikkuState(null, 'middleware', 'global') as unknown as unknown[]
  // The config object wireChannel registered for onConnect (greetSocket), given the `middleware` a
  // pikkuChannelConnectionFunc({ func, middleware }) config carries.
  const meta = (pikkuState(null, 'channel', 'meta') as any).todos
  const connectConfig = (pikkuState(null, 'function', 'functions') as Map<string, any>).get(meta.connect.pikkuFuncId)
  // The same for onDisconnect (forgetSocket), which the channel also passes straight, not as a { func, middleware } wrapper.
  const disconnectConfig = (pikkuState(null, 'function', 'functions') as Map<string, any>).get(meta.disconnect.pikkuFuncId)
  addGlobalMiddleware([counter])
  connectConfig.middleware = [own]
  disconnectConfig.middleware = [ownDisconnect]
  try {
    const c = await signedIn('lena')
    assert.deepEqual(await c.next((f) => f && typeof f === 'object' && 'signedIn' in f), { signedIn: true })
    // Once for the upgrade, then the chain around onConnect, then runPikkuFunc's own chain inside it.
    assert.deepEqual(calls, ['global:upgrade', 'global:outside', 'own:outside', 'global:greetSocket', 'own:greetSocket'])
    calls.length = 0
    assert.equal((await c.call('subscribeToChanges')).subscribed, true)
    assert.deepEqual(calls, ['global:subscribeToChanges'])
    calls.length = 0
    await c.close()
    await waitFor(async () => calls.length, (n) => n >= 4, 3000)
    // forgetSocket's own middleware runs only in the outer chain, which reads the config the channel was given; the
    // inner chain is the one cached for greetSocket.
    assert.deepEqual(calls, ['global:outside', 'disconnect-own:outside', 'global:forgetSocket', 'own:forgetSocket'])
  } finally {
    recording = false
    globals.splice(globals.indexOf(counter), 1)
    delete connectConfig.middleware
    delete disconnectConfig.middleware
  }
})

test("upgrade-runs-global-and-star-only: during the upgrade, global middleware and the '*' HTTP group run with the upgrade request as wire.http; a group registered for the channel's own path does not", async () => {
  // The runner combines the upgrade chain once and caches it; clearing the cache lets it pick up the groups added here.
  const { clearMiddlewareCache } = await import(new URL('../../node_modules/@pikku/core/dist/middleware-runner.js', import.meta.url).href)
  const groups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown>
  const star = groups['*']
  const calls: string[] = []
  const recorder = (label: string) => async (_services: unknown, wire: any, next: () => Promise<void>) => {
    calls.push(`${label}:${wire.http?.request?.path?.() ?? 'no http'}`)
    await next()
  }
  const globals = pikkuState(null, 'middleware', 'global') as unknown as unknown[]
  const globalRecorder = recorder('global')
  try {
    globals.push(globalRecorder)
    addHTTPMiddleware('*', [recorder('star') as any])
    addHTTPMiddleware('/todos/live', [recorder('path') as any])
    clearMiddlewareCache()
    const { handler } = await directUpgrade('/todos/live')
    assert.notEqual(handler, undefined)
    assert.deepEqual(calls.sort(), ['global:/todos/live', 'star:/todos/live'])
  } finally {
    globals.splice(globals.indexOf(globalRecorder), 1)
    groups['*'] = star
    delete groups['/todos/live']
    clearMiddlewareCache()
  }
})

// Runs before any other test sends listTodos or unsubscribeFromChanges: the runner combines each message route's
// middleware once and caches it.
test('channel-tags-middleware-not-run: tag middleware the inspector records for the channel itself never runs for a message; recorded on the route, it does', async () => {
  const calls: string[] = []
  addTagMiddleware('behaviour-channel-tag', [
    async (_services: unknown, _wire: unknown, next: () => Promise<void>) => {
      calls.push('tag')
      await next()
    },
  ])
  const meta = (pikkuState(null, 'channel', 'meta') as any).todos
  const channelMiddleware = meta.middleware
  const routeMeta = meta.messageWirings.action.unsubscribeFromChanges
  const routeMiddleware = routeMeta.middleware
  try {
    // What add-channel.ts writes for wireChannel({ tags: [...] }): the channel's own meta.middleware.
    meta.middleware = [{ type: 'tag', tag: 'behaviour-channel-tag' }]
    const c = await signedIn('tia')
    assert.equal((await c.call('listTodos')).action, 'listTodos')
    assert.deepEqual(calls, [])
    // What it writes for a route given as an object with its own tags: that route's meta.middleware.
    routeMeta.middleware = [{ type: 'tag', tag: 'behaviour-channel-tag' }]
    assert.equal((await c.call('unsubscribeFromChanges')).action, 'unsubscribeFromChanges')
    assert.deepEqual(calls, ['tag'])
  } finally {
    meta.middleware = channelMiddleware
    routeMeta.middleware = routeMiddleware
  }
})

test('channel-tags-lifecycle-and-channel-middleware: for a channel\'s tags the inspector writes tag middleware and channel middleware into the channel\'s metadata and none into onConnect\'s or onDisconnect\'s; at run time the channel middleware registered for the tag wraps a handler\'s sends, and the tag middleware runs around neither onConnect nor onDisconnect', async () => {
  const { state } = await inspectFiles('channel-tags', {
    'probe.ts': [
      "import { wireChannel, addChannelMiddleware, pikkuChannelConnectionFunc, pikkuChannelDisconnectionFunc } from '@pikku/core/channel'",
      "import { addTagMiddleware, pikkuChannelMiddleware, pikkuMiddleware } from '@pikku/core/middleware'",
      'export const mw = pikkuMiddleware(async (_services, _wire, next) => next())',
      'export const cmw = pikkuChannelMiddleware(async (_services, event, next) => next(event))',
      "addTagMiddleware('audited', [mw])",
      "addChannelMiddleware('audited', [cmw])",
      'export const hello = pikkuChannelConnectionFunc<{ hi: boolean }>(async () => ({ hi: true }))',
      'export const bye = pikkuChannelDisconnectionFunc(async () => {})',
      "wireChannel({ name: 'room', route: '/room', onConnect: hello, onDisconnect: bye, tags: ['audited'], auth: false })",
    ].join('\n'),
  })
  const inspected = (state as any).channels.meta.room
  assert.deepEqual(inspected.middleware, [{ type: 'tag', tag: 'audited' }])
  assert.deepEqual(inspected.channelMiddleware, [{ type: 'tag', tag: 'audited' }])
  assert.ok(inspected.connect.pikkuFuncId && inspected.disconnect.pikkuFuncId)
  assert.equal(inspected.connect.middleware, undefined)
  assert.equal(inspected.disconnect.middleware, undefined)

  // At run time, on the todos channel given that metadata. Chains are cached once combined: clearing the cache lets the
  // lifecycle chains be rebuilt from it, and clearing it again afterwards drops the recorders.
  const { clearMiddlewareCache } = await import(new URL('../../node_modules/@pikku/core/dist/middleware-runner.js', import.meta.url).href)
  const tag = 'behaviour-channel-tags-run'
  const calls: string[] = []
  let recording = true
  addTagMiddleware(tag, [
    async (_services: unknown, wire: any, next: () => Promise<void>) => {
      if (recording) calls.push(`tag:${wire.functionId ?? 'outside'}`)
      await next()
    },
  ])
  addChannelMiddleware(tag, [
    async (_services: unknown, event: unknown, next: (event: unknown) => Promise<void>) => {
      if (recording) calls.push(`channel:${JSON.stringify(event)}`)
      return next(event)
    },
  ] as never)
  const meta = (pikkuState(null, 'channel', 'meta') as any).todos
  const saved = { middleware: meta.middleware, channelMiddleware: meta.channelMiddleware }
  const routes = (pikkuState(null, 'channel', 'channels').get('todos') as any).onMessageWiring.action
  registerProbe('probeTagSend', { func: async (_services: unknown, _data: unknown, wire: any) => (await wire.channel.send({ sent: 1 }), { ok: true }) }, { sessionless: true })
  try {
    clearMiddlewareCache()
    meta.middleware = [{ type: 'tag', tag }]
    meta.channelMiddleware = [{ type: 'tag', tag }]
    routes.probeTagSend = { func: { func: async () => {} }, auth: false }
    meta.messageWirings.action.probeTagSend = { pikkuFuncId: 'probeTagSend' }
    await withWrappedFunction(meta.disconnect.pikkuFuncId, (original) => async (...args) => (calls.push('onDisconnect'), original(...args)), async () => {
      const c = await signedIn('tagrun')
      assert.deepEqual(await c.next((f) => f && typeof f === 'object' && 'signedIn' in f), { signedIn: true })
      assert.deepEqual(calls, [])
      await c.call('probeTagSend')
      assert.ok(c.frames.some((f: any) => f && f.sent === 1))
      await c.close()
      await waitFor(async () => (calls as string[]).includes('onDisconnect'), (done) => done, 3000)
    })
    assert.deepEqual(calls, ['channel:{"sent":1}', 'onDisconnect'])
  } finally {
    recording = false
    meta.middleware = saved.middleware
    meta.channelMiddleware = saved.channelMiddleware
    delete routes.probeTagSend
    delete meta.messageWirings.action.probeTagSend
    forgetProbes('probeTagSend')
    clearMiddlewareCache()
  }
})

test('channel-tag-middleware-replaced: a second addChannelMiddleware call for the same tag replaces the first call\'s list, where addTagMiddleware adds to it', () => {
  const tag = 'behaviour-channel-replace'
  const first = async (_services: unknown, event: unknown, next: (event: unknown) => Promise<void>) => next(event)
  const second = async (_services: unknown, event: unknown, next: (event: unknown) => Promise<void>) => next(event)
  try {
    addChannelMiddleware(tag, [first] as never)
    addChannelMiddleware(tag, [second] as never)
    // What the function runner builds for a message handler whose metadata carries the tag.
    const combined = combineChannelMiddleware('channel', 'behaviour-channel-replace-probe', {
      wireInheritedChannelMiddleware: [{ type: 'tag', tag }],
    })
    assert.deepEqual([...combined], [second])
    // The same two calls with addTagMiddleware leave both lists in the tag's group.
    const plainFirst = async (_services: unknown, _wire: unknown, next: () => Promise<void>) => next()
    const plainSecond = async (_services: unknown, _wire: unknown, next: () => Promise<void>) => next()
    addTagMiddleware(tag, [plainFirst] as never)
    addTagMiddleware(tag, [plainSecond] as never)
    assert.deepEqual((pikkuState(null, 'middleware', 'tagGroup') as Record<string, unknown>)[tag], [plainFirst, plainSecond])
  } finally {
    delete (pikkuState(null, 'channelMiddleware', 'tagGroup') as Record<string, unknown>)[tag]
    delete (pikkuState(null, 'middleware', 'tagGroup') as Record<string, unknown>)[tag]
  }
})

test('auth-bearer-skips-without-http: authBearer, the app\'s global middleware, goes straight to next() when the wire has no http, as around onConnect', async () => {
  let nextCalls = 0
  let setCalls = 0
  const middleware = authBearer({}) as any
  await middleware(app.services, { setSession: () => void setCalls++ }, async () => void nextCalls++)
  assert.deepEqual({ nextCalls, setCalls }, { nextCalls: 1, setCalls: 0 })
})

test('upgrade-without-session-opens: a socket with no credential still opens', async () => {
  assert.equal(await upgradeStatus(`${app.wsUrl}/todos/live`), 101)
})

/** Takes functions registered with registerProbe out of core's registry again. */
const forgetProbes = (...names: string[]) => {
  for (const name of names) {
    pikkuState(null, 'function', 'functions').delete(name)
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>)[name]
  }
}

/** The serverless runner (core's runChannelConnect and runChannelMessage, as Lambda and Cloudflare call it) on the todos
 * channel, with an in-memory channel store and local channel handlers that record what is sent. */
const serverless = () => {
  const stored = new Map<string, { channelName: string; openingData: unknown; pikkuUserId?: string }>()
  const sent: unknown[] = []
  let stateWritten: (state: unknown) => void = () => {}
  const channelStore = {
    addChannel: async ({ channelId, channelName, openingData }: any) => void stored.set(channelId, { channelName, openingData }),
    setPikkuUserId: async (channelId: string, pikkuUserId: string) => void (stored.get(channelId)!.pikkuUserId = pikkuUserId),
    getChannel: async (channelId: string) => stored.get(channelId)!,
    removeChannels: async (ids: string[]) => ids.forEach((id) => stored.delete(id)),
    setState: async (_channelId: string, state: unknown) => stateWritten(state),
    getState: async () => undefined,
    clearState: async () => {},
  }
  const channelHandlerFactory = (channelId: string, channelName: string, openingData: unknown) => {
    const handler = new PikkuLocalChannelHandler(channelId, channelName, openingData)
    handler.registerOnSend((message) => void sent.push(message))
    handler.registerOnSendBinary((data) => void sent.push(data))
    return handler
  }
  const params = (channelId: string) => ({ channelId, channelStore: channelStore as never, channelHandlerFactory: channelHandlerFactory as never })
  return {
    stored,
    sent,
    /** Called with each state the runner hands the channel store's setState. */
    onSetState: (record: (state: unknown) => void) => void (stateWritten = record),
    connect: (channelId: string) => runChannelConnect({ ...params(channelId), route: '/todos/live' } as never),
    message: (channelId: string, data: unknown) => runChannelMessage(params(channelId) as never, data),
    disconnect: (channelId: string) => runChannelDisconnect(params(channelId) as never),
  }
}

test('on-connect-reply: the value onConnect returns is the first frame, with the session the upgrade set', async () => {
  const anonymous = await client()
  assert.deepEqual(await anonymous.next(() => true), { signedIn: false })
  const member = await signedIn('ann')
  assert.deepEqual(await member.next(() => true), { signedIn: true })
})

test('serverless-connect-result-discarded: the serverless runner sends nothing of what onConnect returns', async () => {
  const runner = serverless()
  let returned: unknown
  await withWrappedFunction('greetSocket', (original) => async (services, data, wire) => (returned = await original(services, data, wire)), async () => {
    assert.equal(await runner.connect('sl-greet'), undefined)
  })
  assert.deepEqual(returned, { signedIn: false })
  assert.ok(runner.stored.has('sl-greet'))
  assert.deepEqual(runner.sent, [])
})

test('serverless-lifecycle-two-chains: the serverless runner also runs global middleware twice around onConnect and twice around onDisconnect, in the outer chain and in the function runner\'s, with no upgrade run before them', async () => {
  // Chains are cached once combined; clearing the cache lets them pick up the recorder, and clearing it again drops it.
  const { clearMiddlewareCache } = await import(new URL('../../node_modules/@pikku/core/dist/middleware-runner.js', import.meta.url).href)
  const calls: string[] = []
  let recording = true
  const counter = async (_services: unknown, wire: any, next: () => Promise<void>) => {
    if (recording) calls.push(wire.http ? 'upgrade' : (wire.functionId ?? 'outside'))
    await next()
  }
  const globals = pikkuState(null, 'middleware', 'global') as unknown as unknown[]
  const runner = serverless()
  try {
    clearMiddlewareCache()
    globals.push(counter)
    await runner.connect('sl-chains')
    assert.deepEqual(calls, ['outside', 'greetSocket'])
    calls.length = 0
    await runner.disconnect('sl-chains')
    assert.deepEqual(calls, ['outside', 'forgetSocket'])
  } finally {
    recording = false
    globals.splice(globals.indexOf(counter), 1)
    clearMiddlewareCache()
  }
})

test('on-connect-not-awaited: @pikku/ws handles a message while onConnect is still running, so a slow onConnect\'s frame comes after that reply', async () => {
  // greetSocket is made to wait 300 ms for this test only.
  const slow = (original: RegisteredFunc): RegisteredFunc => async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    return original(...args)
  }
  await withWrappedFunction('greetSocket', slow, async () => {
    const c = await signedIn('slowgreet')
    c.send({ action: 'listTodos' })
    await c.next((f) => typeof f === 'object' && f !== null && 'signedIn' in f)
    assert.deepEqual(c.frames, [{ todos: [], action: 'listTodos' }, { signedIn: true }])
  })
})

test("upgrade-cookie-and-api-key: the '*' middleware group sets the socket's session from a cookie or an x-api-key header", async () => {
  const token = await app.token('ann')
  const byCookie = await client({ cookie: `todo_session=${token}` })
  assert.deepEqual(await byCookie.next(() => true), { signedIn: true })
  const byKey = await client({ 'x-api-key': token })
  assert.deepEqual(await byKey.next(() => true), { signedIn: true })
  assert.equal((await byKey.call('listTodos')).action, 'listTodos')
})

test("serverless-connect-ignores-credentials: on Lambda, connectWebsocket does not sign a socket in from a bearer header or a session cookie that @pikku/ws accepts", async () => {
  const { connectWebsocket } = await import('@pikku/lambda/websocket')
  const token = await app.token('slc')
  const userIds: string[] = []
  const channelStore = {
    addChannel: async () => {},
    setPikkuUserId: async (_channelId: string, pikkuUserId: string) => void userIds.push(pikkuUserId),
    removeChannels: async () => {},
  }
  const sessions: unknown[] = []
  const credentials: Record<string, string>[] = [{ authorization: `Bearer ${token}` }, { cookie: `todo_session=${token}` }]
  await withWrappedFunction('greetSocket', (original) => async (services, data, wire) => (sessions.push(wire.session), original(services, data, wire)), async () => {
    for (const [n, headers] of credentials.entries()) {
      const event = {
        path: '/todos/live',
        httpMethod: 'GET',
        headers: { host: 'localhost', ...headers },
        queryStringParameters: null,
        body: null,
        isBase64Encoded: false,
        requestContext: { connectionId: `c-cred-${n}`, domainName: 'ws.example.com', stage: 'prod' },
      } as never
      assert.equal((await connectWebsocket(event, { channelStore: channelStore as never })).statusCode, 200)
    }
  })
  assert.deepEqual(sessions, [undefined, undefined])
  assert.deepEqual(userIds, [])
  // The same credentials sign a @pikku/ws socket in.
  for (const headers of credentials) assert.deepEqual(await (await client(headers)).next(() => true), { signedIn: true })
})

test('unauthorized-text-then-echo: a message to a session route without a session gets the text, then the bare echo', async () => {
  const c = await client()
  await c.next((f) => 'signedIn' in f)
  c.send({ action: 'getTodo', todoId: 't1' })
  const first = await c.next(() => true, 3000, 1)
  assert.equal(first, "Unauthorized for route 'action:getTodo'")
  const second = await c.next(() => true, 3000, 2)
  assert.deepEqual(second, { action: 'getTodo' })
})

test('wiring-middleware-skips-lifecycle: the wiring\'s middleware wraps a message handler but runs neither while onConnect runs nor while onDisconnect runs', async () => {
  // Chains are cached once combined; clearing the cache first lets a chain that did include the wiring's middleware
  // show it, and clearing it again afterwards drops the recorder from the chains built here.
  const { clearMiddlewareCache } = await import(new URL('../../node_modules/@pikku/core/dist/middleware-runner.js', import.meta.url).href)
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const disconnectId = (pikkuState(null, 'channel', 'meta') as any).todos.disconnect.pikkuFuncId as string
  const channelMiddleware = config.middleware
  const calls: string[] = []
  let recording = true
  try {
    clearMiddlewareCache()
    config.middleware = [
      async (_services: unknown, wire: any, next: () => Promise<void>) => {
        if (recording) calls.push(`wiring:${wire.functionId ?? 'unknown'}`)
        await next()
      },
    ]
    await withWrappedFunction(disconnectId, (original) => async (...args) => {
      calls.push('onDisconnect')
      return original(...args)
    }, async () => {
      const c = await signedIn('wiremw')
      assert.deepEqual(await c.next((f) => f && typeof f === 'object' && 'signedIn' in f), { signedIn: true })
      assert.deepEqual(calls, [])
      await c.call('listTodos')
      assert.equal(calls.length, 1)
      assert.match(calls[0]!, /^wiring:/)
      await c.close()
      await waitFor(async () => (calls as string[]).includes('onDisconnect'), (done) => done, 3000)
    })
    assert.equal(calls.length, 2)
    assert.equal(calls[1], 'onDisconnect')
  } finally {
    recording = false
    config.middleware = channelMiddleware
    clearMiddlewareCache()
  }
})

test('refused-message-skips-middleware: a message refused for want of a session runs neither the channel\'s middleware nor the route\'s own; a signed-in socket runs both', async () => {
  // A fresh route name gets a fresh cached chain, so the middleware set here is the one combined for it.
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const routeMeta = (pikkuState(null, 'channel', 'meta') as any).todos.messageWirings.action
  const routes = config.onMessageWiring.action
  const calls: string[] = []
  const record = (label: string) => async (_services: unknown, _wire: unknown, next: () => Promise<void>) => {
    calls.push(label)
    await next()
  }
  const channelMiddleware = config.middleware
  try {
    config.middleware = [record('channel')]
    routes.probeListTodos = { func: routes.listTodos, middleware: [record('route')] }
    routeMeta.probeListTodos = routeMeta.listTodos
    const anonymous = await client()
    await anonymous.next((f) => 'signedIn' in f)
    anonymous.send({ action: 'probeListTodos' })
    assert.equal(await anonymous.next(() => true, 3000, 1), "Unauthorized for route 'action:probeListTodos'")
    assert.deepEqual(await anonymous.next(() => true, 3000, 2), { action: 'probeListTodos' })
    assert.deepEqual(calls, [])
    const member = await signedIn('mid')
    assert.equal((await member.call('probeListTodos')).action, 'probeListTodos')
    assert.deepEqual(calls, ['channel', 'route'])
  } finally {
    config.middleware = channelMiddleware
    delete routes.probeListTodos
    delete routeMeta.probeListTodos
  }
})

test('reply-echoes-action: a routed message runs the function and its reply carries the routing key', async () => {
  const c = await signedIn('ann')
  const created = await c.call<Todo & { action: string }>('createTodo', { title: 'Ship docs' })
  assert.equal(created.action, 'createTodo')
  assert.equal(created.title, 'Ship docs')
  assert.equal(created.ownerId, 'ann')
  const fetched = await c.call('getTodo', { todoId: created.todoId })
  assert.deepEqual(fetched, { ...created, action: 'getTodo' })
})

test('routing-key-removed: the handler receives the message without its routing key', async () => {
  const c = await signedIn('rkr')
  const seen: unknown[] = []
  await withWrappedFunction('getTodo', () => async (_services, data) => (seen.push(data), { found: false }), async () => {
    assert.deepEqual(await c.call('getTodo', { todoId: 't1' }), { found: false, action: 'getTodo' })
  })
  assert.deepEqual(seen, [{ todoId: 't1' }])
})

test('define-channel-routes-identity: defineChannelRoutes returns the very object it is given', () => {
  const routes = { listTodos: {} }
  assert.equal(defineChannelRoutes(routes), routes)
})

test('reply-shapes: a routed function that returns nothing is answered with the bare key, a primitive (a number or a string) with the key and result, an array with the bare array', async () => {
  const c = await signedIn('rosa')
  const returning = (value: unknown) => (): RegisteredFunc => async () => value
  await withWrappedFunction('listTodos', returning(undefined), async () => {
    assert.deepEqual(await c.call('listTodos'), { action: 'listTodos' })
  })
  await withWrappedFunction('listTodos', returning(3), async () => {
    assert.deepEqual(await c.call('listTodos'), { action: 'listTodos', result: 3 })
  })
  await withWrappedFunction('listTodos', returning('done'), async () => {
    assert.deepEqual(await c.call('listTodos'), { action: 'listTodos', result: 'done' })
  })
  await withWrappedFunction('listTodos', returning(['a', 'b']), async () => {
    const from = c.frames.length
    c.send({ action: 'listTodos' })
    assert.deepEqual(await c.next(Array.isArray, 3000, from), ['a', 'b'])
  })
})

test('default-on-message-result-sent: the channel\'s default onMessage has its result sent as it is, with no routing key: an object as JSON, a string as plain text, null as null; undefined sends nothing', async () => {
  // The todos channel has no default onMessage; for this test it gets a probe that returns what the message asks for.
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const meta = (pikkuState(null, 'channel', 'meta') as any).todos
  registerProbe('probeDefaultOnMessage', { func: async (_services: unknown, data: any) => (data.give === 'nothing' ? undefined : data.give) }, { sessionless: true })
  const originalMessage = meta.message
  try {
    config.onMessage = { func: { func: async () => {} }, auth: false }
    meta.message = { pikkuFuncId: 'probeDefaultOnMessage' }
    const c = await signedIn('defmsg')
    await c.next((f) => f && typeof f === 'object' && 'signedIn' in f)
    const raw: string[] = []
    c.ws.on('message', (data) => raw.push(data.toString()))
    for (const give of [{ a: 1 }, 'plain', null, 'nothing', 'last']) {
      const from = c.frames.length
      c.send({ give })
      if (give !== 'nothing') await c.next(() => true, 3000, from)
    }
    // The frame for 'nothing' would have come before the one for 'last'.
    assert.deepEqual(raw, ['{"a":1}', 'plain', 'null', 'last'])
  } finally {
    delete config.onMessage
    meta.message = originalMessage
    forgetProbes('probeDefaultOnMessage')
  }
})

test('reply-key-sticks: the routing key is merged into the object the function returned, so the app’s stored to-do keeps it', async () => {
  const c = await signedIn('kim')
  const created = await c.call('createTodo', { title: 'keyed' })
  // InMemoryTodoStore returns its own record; the runner's Object.assign added `action` to it.
  const response = await fetch(`${app.url}/todos/${created.todoId}`, { headers: { authorization: `Bearer ${await app.token('kim')}` } })
  assert.equal(response.status, 200)
  assert.equal((await response.json()).action, 'createTodo')
})

test('handler-error-reply: a handler that throws answers { error, errorName } without the action key', async () => {
  const c = await signedIn('ann')
  c.send({ action: 'getTodo', todoId: 'missing' })
  const reply = await c.next((f) => 'error' in f)
  // The text is the error class's public message, not the one getTodo threw ('No to-do with id missing').
  assert.deepEqual(reply, { error: 'The server cannot find the requested resource.', errorName: 'NotFoundError' })
})

test('handler-error-socket-stays-open: on @pikku/ws the socket stays open after a handler error and keeps answering', async () => {
  const c = await signedIn('otto')
  await c.call('subscribeToChanges')
  c.send({ action: 'getTodo', todoId: 'missing' })
  await c.next((f) => typeof f === 'object' && 'error' in f)
  // The runner closes the channel 200 ms after the error; its onDisconnect (forgetSocket) unsubscribes the socket.
  await untilSubscribers('todos:otto', 0)
  assert.equal(c.ws.readyState, WebSocket.OPEN)
  const listed = await c.call('listTodos')
  assert.equal(listed.action, 'listTodos')
})

test('handler-error-production: with NODE_ENV=production the error reply leaves out errorName, and an unregistered error says Internal server error', async () => {
  const c = await signedIn('prod')
  await withEnv({ NODE_ENV: 'production' }, async () => {
    c.send({ action: 'getTodo', todoId: 'missing' })
    assert.deepEqual(await c.next((f) => typeof f === 'object' && 'error' in f), { error: 'The server cannot find the requested resource.' })
    await withWrappedFunction('listTodos', () => async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.5:5432')
    }, async () => {
      const from = c.frames.length
      c.send({ action: 'listTodos' })
      assert.deepEqual(await c.next((f) => typeof f === 'object' && 'error' in f, 3000, from), { error: 'Internal server error' })
    })
  })
})

test('lifecycle-error-reply: an error in onConnect is sent as { error, errorName } and the channel stays open; one in onDisconnect is sent while the channel closes, so on @pikku/ws it reaches a socket the runner closed after a handler error', async () => {
  let connected: any
  const c = await withWrappedFunction('greetSocket', () => async (_services, _data, wire) => {
    connected = wire.channel
    throw new Error('greeting failed')
  }, () => signedIn('lce'))
  assert.deepEqual(await c.next(() => true), { error: 'greeting failed', errorName: 'Error' })
  assert.equal((await c.call('listTodos')).action, 'listTodos')
  assert.equal(connected.state, 'open')
  await withWrappedFunction('forgetSocket', () => async () => {
    throw new Error('goodbye failed')
  }, async () => {
    const from = c.frames.length
    c.send({ action: 'getTodo', todoId: 'missing' })
    assert.equal((await c.next((f) => typeof f === 'object' && 'error' in f, 3000, from)).errorName, 'NotFoundError')
    assert.deepEqual(await c.next((f) => typeof f === 'object' && f.error === 'goodbye failed', 3000, from), { error: 'goodbye failed', errorName: 'Error' })
  })
  assert.equal(connected.state, 'closed')
})

test('validation-error: a message that fails the input schema answers an error and the function does not run', async () => {
  const c = await signedIn('val')
  c.send({ action: 'createTodo' })
  const reply = await c.next((f) => 'error' in f)
  assert.equal(reply.errorName, 'UnprocessableContentError')
  const listed = await c.call('listTodos')
  assert.deepEqual(listed.todos, [])
})

test('validation-error-generic-message: the reply to a message that fails the input schema carries the error class\'s generic text, not which field was wrong', async () => {
  const c = await signedIn('vgm')
  c.send({ action: 'createTodo', title: 42 })
  const reply = await c.next((f) => 'error' in f)
  // UnprocessableContentError's registered message (@pikku/core errors.ts); HTTP would name "title".
  assert.deepEqual(reply, {
    error:
      'The server understood the content type of the request content, and the syntax of the request content was correct, but it was unable to process the contained instructions..',
    errorName: 'UnprocessableContentError',
  })
})

test('permission-denied: another member cannot read a to-do over the channel', async () => {
  const ann = await signedIn('ann')
  const todo = await ann.call('createTodo', { title: 'private' })
  const bob = await signedIn('bob')
  bob.send({ action: 'getTodo', todoId: todo.todoId })
  const reply = await bob.next((f) => 'error' in f)
  assert.deepEqual(reply, {
    error: 'The client does not have permission to access the requested resource.',
    errorName: 'ForbiddenError',
  })
})

// Runs before any other test sends updateTodo: the runner combines each message route's middleware once and caches it,
// so the middleware below stays in that chain and passes straight through once the test is over.
test('message-middleware-no-next: on a routed message, a middleware that returns without calling next() stops the function, and the client gets the bare echo as from a function that returns nothing', async () => {
  let skipping = true
  const skip = async (_services: unknown, _wire: unknown, next: () => Promise<void>) => {
    if (!skipping) await next()
  }
  const meta = (pikkuState(null, 'channel', 'meta') as any).todos
  const config = (pikkuState(null, 'function', 'functions') as Map<string, any>).get(meta.messageWirings.action.updateTodo.pikkuFuncId)
  const before = config.middleware
  config.middleware = [skip]
  try {
    const c = await signedIn('uma')
    const todo = await c.call('createTodo', { title: 'stays open' })
    assert.deepEqual(await c.call('updateTodo', { todoId: todo.todoId, done: true }), { action: 'updateTodo' })
    assert.equal((await c.call('getTodo', { todoId: todo.todoId })).done, false)
  } finally {
    skipping = false
    config.middleware = before
  }
})

test('update-permission-denied: another member cannot change a to-do over the channel: updateTodo is refused and nothing changes', async () => {
  const ann = await signedIn('ann')
  const todo = await ann.call('createTodo', { title: 'ann only' })
  const bob = await signedIn('bob')
  bob.send({ action: 'updateTodo', todoId: todo.todoId, done: true })
  const reply = await bob.next((f) => 'error' in f)
  assert.deepEqual(reply, {
    error: 'The client does not have permission to access the requested resource.',
    errorName: 'ForbiddenError',
  })
  assert.equal((await ann.call('getTodo', { todoId: todo.todoId })).done, false)
})

test('refusal-closes-channel: a message refused by a permission guard or by the input schema closes the channel as a handler error does, so onDisconnect takes the socket off its topic', async () => {
  const owner = await signedIn('pia')
  const todo = await owner.call('createTodo', { title: 'pia only' })
  const other = await signedIn('quin')
  await other.call('subscribeToChanges')
  assert.equal(subscribers('todos:quin'), 1)
  other.send({ action: 'getTodo', todoId: todo.todoId })
  assert.equal((await other.next((f) => 'error' in f)).errorName, 'ForbiddenError')
  // forgetSocket runs only from the runner's channel.close(), about 200 ms after the error reply.
  await untilSubscribers('todos:quin', 0)
  const invalid = await signedIn('rey')
  await invalid.call('subscribeToChanges')
  assert.equal(subscribers('todos:rey'), 1)
  invalid.send({ action: 'createTodo' })
  assert.equal((await invalid.next((f) => 'error' in f)).errorName, 'UnprocessableContentError')
  await untilSubscribers('todos:rey', 0)
})

test('channel-func-session-typed-required: the generated pikkuChannelFunc types session as present, so session.userId compiles unchecked, while codegen records a channel function as sessionless and a route with auth: false runs it for a socket without a session', async () => {
  // Compiled strictly with the other behaviour tests (scripts/code-samples.mjs): no check before session.userId.
  const readsUser = pikkuChannelFunc<void, { userId: string }>(async (_services, _data, { session }) => ({ userId: session.userId }))
  const meta = pikkuState(null, 'function', 'meta') as Record<string, any>
  assert.equal(meta.subscribeToChanges.sessionless, true)
  const routes = (pikkuState(null, 'channel', 'channels') as Map<string, any>).get('todos').onMessageWiring.action
  const routeMeta = (pikkuState(null, 'channel', 'meta') as any).todos.messageWirings.action
  registerProbe('probeReadsUser', readsUser, { sessionless: true })
  routes.probeReadsUser = { func: readsUser, auth: false }
  routeMeta.probeReadsUser = { pikkuFuncId: 'probeReadsUser' }
  try {
    const c = await client()
    await c.next((f) => 'signedIn' in f)
    c.send({ action: 'probeReadsUser' })
    const reply = await c.next((f) => typeof f === 'object' && 'error' in f)
    assert.equal(reply.errorName, 'TypeError')
    assert.match(reply.error, /reading 'userId'/)
  } finally {
    delete routes.probeReadsUser
    delete routeMeta.probeReadsUser
    forgetProbes('probeReadsUser')
  }
})

test('route-auth-false-session-func-forbidden: a route that sets auth: false but runs a pikkuFunc passes the channel\'s check, and the function runner refuses a socket without a session with a ForbiddenError reply, not the Unauthorized text', async () => {
  const routes = (pikkuState(null, 'channel', 'channels') as Map<string, any>).get('todos').onMessageWiring.action
  const getTodo = routes.getTodo
  // What onMessageWiring: { action: { getTodo: { func: getTodo, auth: false } } } hands the runner.
  routes.getTodo = { func: getTodo, auth: false }
  try {
    const c = await client()
    c.send({ action: 'getTodo', todoId: 'any' })
    assert.deepEqual(await c.next((f) => f && typeof f === 'object' && 'error' in f), {
      error: 'The client does not have permission to access the requested resource.',
      errorName: 'ForbiddenError',
    })
    assert.equal(c.frames.filter((f) => typeof f === 'string').length, 0)
  } finally {
    routes.getTodo = getTodo
  }
})

test('signed-out-socket-keeps-session-on-auth-false-route: after a message runs signOut (clearSession), a later message to a route with auth: false still runs with the old session in wire.session; a route that keeps the default auth is refused', async () => {
  const channel = (pikkuState(null, 'channel', 'channels') as Map<string, any>).get('todos')
  const routes = channel.onMessageWiring.action
  const routeMeta = (pikkuState(null, 'channel', 'meta') as Record<string, any>).todos.messageWirings.action
  const getTodo = routes.getTodo
  // The app's signOut (src/functions/session.functions.ts), wired on the channel as one more action.
  routes.signOut = signOut
  routeMeta.signOut = { pikkuFuncId: 'signOut' }
  try {
    const c = await signedIn('sam')
    const created = await c.call<Todo>('createTodo', { title: 'Before sign-out' })
    await c.call('signOut')
    // A route with the default auth: the channel's check reads getSession(), now empty, and refuses.
    const from = c.frames.length
    c.send({ action: 'getTodo', todoId: created.todoId })
    assert.equal(await c.next((f) => typeof f === 'string', 3000, from), "Unauthorized for route 'action:getTodo'")
    // The same route with auth: false: the function runner checks wire.session, still sam's, and the to-do comes back.
    routes.getTodo = { func: getTodo, auth: false }
    const fetched = await c.call<Todo>('getTodo', { todoId: created.todoId })
    assert.equal(fetched.ownerId, 'sam')
    assert.equal(fetched.todoId, created.todoId)
  } finally {
    routes.getTodo = getTodo
    delete routes.signOut
    delete routeMeta.signOut
  }
})

test('second-set-session-keeps-wire-session: on @pikku/ws a session set by a message becomes wire.session for later messages on a socket that had none, scopes included; on a socket signed in at the upgrade, getSession() returns the new one but wire.session and the scope check keep the first', async () => {
  const routes = (pikkuState(null, 'channel', 'channels') as Map<string, any>).get('todos').onMessageWiring.action
  const routeMeta = (pikkuState(null, 'channel', 'meta') as any).todos.messageWirings.action
  const names = ['probeSwitch', 'probeWhoNow', 'probeScoped']
  registerProbe('probeSwitch', { func: async (_services: unknown, _data: unknown, wire: any) => (await wire.setSession({ userId: 'switched', role: 'member', scopes: ['todos:export'] }), { ok: true }) }, { sessionless: true })
  registerProbe('probeWhoNow', { func: async (_services: unknown, _data: unknown, wire: any) => ({ who: wire.session?.userId ?? null, current: (await wire.getSession())?.userId ?? null }) }, { sessionless: true })
  registerProbe('probeScoped', { func: async () => ({ ok: true }), scopes: ['todos:export'] } as never)
  try {
    for (const name of names) {
      routes[name] = { func: { func: async () => {} }, auth: name === 'probeScoped' }
      routeMeta[name] = { pikkuFuncId: name }
    }
    const fresh = await client()
    await fresh.next((f) => 'signedIn' in f)
    await fresh.call('probeSwitch')
    assert.deepEqual(await fresh.call('probeWhoNow'), { who: 'switched', current: 'switched', action: 'probeWhoNow' })
    assert.deepEqual(await fresh.call('probeScoped'), { ok: true, action: 'probeScoped' })
    const c = await signedIn('sara')
    await c.call('probeSwitch')
    assert.deepEqual(await c.call('probeWhoNow'), { who: 'sara', current: 'switched', action: 'probeWhoNow' })
    const from = c.frames.length
    c.send({ action: 'probeScoped' })
    assert.equal((await c.next((f) => typeof f === 'object' && 'error' in f, 3000, from)).errorName, 'MissingScopeError')
  } finally {
    for (const name of names) {
      delete routes[name]
      delete routeMeta[name]
    }
    forgetProbes(...names)
  }
})

test('serverless-message-session-not-kept: a session set by one message on the serverless runner is gone at the next, on a socket that connected without one; on @pikku/ws the next message has it', async () => {
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const routes = config.onMessageWiring.action
  const routeMeta = (pikkuState(null, 'channel', 'meta') as any).todos.messageWirings.action
  registerProbe('probeSignIn', { func: async (_services: unknown, _data: unknown, wire: any) => (await wire.setSession({ userId: 'sl-user', role: 'member' }), { ok: true }) }, { sessionless: true })
  registerProbe('probeWho', { func: async (_services: unknown, _data: unknown, wire: any) => ({ who: wire.session?.userId ?? null }) }, { sessionless: true })
  try {
    routes.probeSignIn = { func: { func: async () => {} }, auth: false }
    routes.probeWho = { func: { func: async () => {} }, auth: false }
    routeMeta.probeSignIn = { pikkuFuncId: 'probeSignIn' }
    routeMeta.probeWho = { pikkuFuncId: 'probeWho' }
    const runner = serverless()
    await runner.connect('sl-session')
    assert.deepEqual(await runner.message('sl-session', JSON.stringify({ action: 'probeSignIn' })), { ok: true, action: 'probeSignIn' })
    assert.deepEqual(await runner.message('sl-session', JSON.stringify({ action: 'probeWho' })), { who: null, action: 'probeWho' })
    const local = await client()
    await local.next((f) => 'signedIn' in f)
    await local.call('probeSignIn')
    assert.deepEqual(await local.call('probeWho'), { who: 'sl-user', action: 'probeWho' })
  } finally {
    delete routes.probeSignIn
    delete routes.probeWho
    delete routeMeta.probeSignIn
    delete routeMeta.probeWho
    forgetProbes('probeSignIn', 'probeWho')
  }
})

test('channel-state-kept-per-runner: with the local runner getState returns the very object setState stored, across messages; the serverless runner hands it to the channel store', async () => {
  const stored = { at: new Date(0), note: undefined }
  const reads: unknown[] = []
  // The first call stores the state, the second reads it.
  const keep = (): RegisteredFunc => async (_services, _data, wire) => {
    const state = await wire.channel.getState()
    if (state === undefined) await wire.channel.setState(stored)
    else reads.push(state)
    return { ok: true }
  }
  const c = await signedIn('state')
  await withWrappedFunction('listTodos', keep, async () => {
    await c.call('listTodos')
    await c.call('listTodos')
  })
  assert.equal(reads.length, 1)
  assert.equal(reads[0], stored)
  // The serverless runner: setState goes to the channel store the runtime was given.
  const runner = serverless()
  const written: unknown[] = []
  await runner.connect('sl-state')
  const routes = (pikkuState(null, 'channel', 'channels').get('todos') as any).onMessageWiring.action
  const routeMeta = (pikkuState(null, 'channel', 'meta') as any).todos.messageWirings.action
  registerProbe('probeSetState', { func: async (_services: unknown, _data: unknown, wire: any) => (await wire.channel.setState(stored), { ok: true }) }, { sessionless: true })
  runner.onSetState((state) => written.push(state))
  try {
    routes.probeSetState = { func: { func: async () => {} }, auth: false }
    routeMeta.probeSetState = { pikkuFuncId: 'probeSetState' }
    await runner.message('sl-state', JSON.stringify({ action: 'probeSetState' }))
    assert.deepEqual(written, [stored])
  } finally {
    delete routes.probeSetState
    delete routeMeta.probeSetState
    forgetProbes('probeSetState')
  }
})

test('unmatched-message-ignored: a non-JSON frame or an unknown action gets no answer when there is no onMessage', async () => {
  const c = await signedIn('ann')
  const errors = collectLogs(app.services, 'error')
  try {
    c.send('not json')
    c.send({ action: 'noSuchAction' })
    await waitFor(async () => errors.lines.length, (n) => n >= 4, 3000)
  } finally {
    errors.restore()
  }
  // Each unmatched frame logs the channel's name and the frame.
  assert.equal(errors.lines.filter((line) => line.startsWith('No handler found for message in channel todos')).length, 2)
  const listed = await c.call('listTodos')
  assert.equal(listed.action, 'listTodos')
  // Only the greeting and the listTodos reply arrived.
  assert.deepEqual(c.frames, [{ signedIn: true }, listed])
})

test('inherited-key-routes-to-error: an action naming an Object.prototype member, such as toString, is taken for a route and answers an error instead of being ignored (Unauthorized on a socket without a session)', async () => {
  const c = await signedIn('proto')
  await c.call('subscribeToChanges')
  c.send({ action: 'toString' })
  const reply = await c.next((f) => typeof f === 'object' && f !== null && 'error' in f)
  // routes['toString'] is inherited from Object.prototype, so the runner looks up a function with no id and fails; the
  // error closes the channel 200 ms later, whose onDisconnect (forgetSocket) takes the socket off its topic.
  assert.deepEqual(reply, { error: "Cannot read properties of undefined (reading 'lastIndexOf')", errorName: 'TypeError' })
  await untilSubscribers('todos:proto', 0)
  // Without a session the channel's auth check comes first, so the route is refused like any other.
  const anonymous = await client()
  await anonymous.next((f) => 'signedIn' in f)
  anonymous.send({ action: 'toString' })
  assert.equal(await anonymous.next(() => true, 3000, 1), "Unauthorized for route 'action:toString'")
  assert.deepEqual(await anonymous.next(() => true, 3000, 2), { action: 'toString' })
})

test('on-message-raw-text: onMessage gets a JSON frame parsed on a channel with onMessageWiring, and the frame\'s text on a channel without it', async () => {
  // The todos channel has no onMessage; for this test it gets createTodo as one, then loses its onMessageWiring.
  // Both are read when a message arrives, so an open socket sees each change; both are put back in `finally`.
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const meta = pikkuState(null, 'channel', 'meta').todos as any
  const { onMessageWiring } = config
  const originalMessage = meta.message
  try {
    config.onMessage = onMessageWiring.action.createTodo
    meta.message = meta.messageWirings.action.createTodo
    const c = await signedIn('rawtext')
    c.send({ title: 'parsed' })
    const created = await c.next((f) => typeof f === 'object' && f !== null && 'todoId' in f)
    assert.equal(created.title, 'parsed')
    delete config.onMessageWiring
    c.send({ title: 'as text' })
    // createTodo receives the string '{"title":"as text"}', which its input schema refuses.
    const reply = await c.next((f) => typeof f === 'object' && f !== null && 'error' in f)
    assert.equal(reply.errorName, 'UnprocessableContentError')
  } finally {
    config.onMessageWiring = onMessageWiring
    delete config.onMessage
    meta.message = originalMessage
  }
})

test('binary-message-auth: onBinaryMessage follows the channel\'s auth: without a session it does not run, an error is logged and nothing is sent back; with one its result comes back as binary', async () => {
  // processMessageHandlers reads onBinaryMessage when a socket opens, so only sockets opened inside the try see it.
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const calls: number[] = []
  const errors = collectLogs(app.services, 'error')
  try {
    config.onBinaryMessage = async (_services: unknown, data: Uint8Array) => (calls.push(data.length), Uint8Array.from([...data].reverse()))
    const anonymous = await client()
    await anonymous.next((f) => 'signedIn' in f)
    anonymous.ws.send(Uint8Array.from([1, 2, 3]), { binary: true })
    await waitFor(async () => errors.lines.length, (n) => n > 0, 3000)
    assert.match(errors.lines[0]!, /requires a session for binary message/)
    // A later text reply proves nothing came back for the binary frame.
    anonymous.send({ action: 'listTodos' })
    assert.equal(await anonymous.next(() => true, 3000, 1), "Unauthorized for route 'action:listTodos'")
    assert.deepEqual(await anonymous.next(() => true, 3000, 2), { action: 'listTodos' })
    assert.equal(anonymous.frames.filter((f) => Buffer.isBuffer(f)).length, 0)
    assert.deepEqual(calls, [])
    const member = await signedIn('bin')
    member.ws.send(Uint8Array.from([1, 2, 3]), { binary: true })
    const echoed = await member.next((f) => Buffer.isBuffer(f))
    assert.deepEqual([...echoed], [3, 2, 1])
    assert.deepEqual(calls, [3])
  } finally {
    errors.restore()
    delete config.onBinaryMessage
  }
})

test('serverless-binary-to-on-message: the serverless runner hands a binary frame to onMessage and never calls onBinaryMessage', async () => {
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const meta = (pikkuState(null, 'channel', 'meta') as any).todos
  const received: unknown[] = []
  const binaryCalls: unknown[] = []
  registerProbe('probeChannelOnMessage', { func: async (_services: unknown, data: unknown) => void received.push(data) }, { sessionless: true })
  const originalMessage = meta.message
  try {
    config.onMessage = { func: { func: async () => {} }, auth: false }
    config.onBinaryMessage = async (_services: unknown, data: unknown) => void binaryCalls.push(data)
    meta.message = { pikkuFuncId: 'probeChannelOnMessage' }
    const runner = serverless()
    await runner.connect('sl-binary')
    const bytes = Uint8Array.from([1, 2, 3])
    await runner.message('sl-binary', bytes)
    assert.deepEqual(received, [bytes])
    assert.deepEqual(binaryCalls, [])
  } finally {
    delete config.onMessage
    delete config.onBinaryMessage
    meta.message = originalMessage
    forgetProbes('probeChannelOnMessage')
  }
})

test('serverless-handlers-binary-and-close: the Lambda and Cloudflare channel handlers throw on sendBinary and on send with isBinary; Lambda JSON-encodes a string it sends; close() called by a message marks the channel closed: no onDisconnect, nothing sent, the socket left open', async () => {
  const lambdaModule = await import(new URL('../../node_modules/@pikku/lambda/dist/websocket/lambda-channel-handler.js', import.meta.url).href)
  const cloudflareModule = await import(new URL('../../node_modules/@pikku/cloudflare/dist/cloudflare-channel-handler-factory.js', import.meta.url).href)
  const posted: { ConnectionId: string; Data: string }[] = []
  const callbackAPI = { send: async (command: { input: { ConnectionId: string; Data: string } }) => void posted.push(command.input) }
  const cfSent: unknown[] = []
  let cfClosed = false
  const websocket = { send: (data: unknown) => void cfSent.push(data), close: () => void (cfClosed = true) }
  const factories = {
    lambda: lambdaModule.createLambdaChannelHandlerFactory(app.services.logger, {}, callbackAPI),
    cloudflare: cloudflareModule.createCloudflareChannelHandlerFactory(app.services.logger, {}, websocket),
  }
  for (const [name, factory] of Object.entries(factories)) {
    const handler = factory(`${name}-binary`, 'todos', undefined)
    assert.throws(() => handler.sendBinary(Uint8Array.from([1])), /^Error: Binary data is not supported on serverless/, name)
    await assert.rejects(handler.send(Uint8Array.from([1]), true), /^Error: Binary data is not supported on serverless/, name)
  }
  await factories.lambda('lambda-text', 'todos', undefined).send("Unauthorized for route 'action:getTodo'")
  assert.deepEqual(posted, [{ ConnectionId: 'lambda-text', Data: '"Unauthorized for route \'action:getTodo\'"' }])
  posted.length = 0

  // A route whose function closes its channel, run by the serverless runner on each adapter's handler.
  const stored = new Map<string, any>()
  const channelStore = {
    addChannel: async ({ channelId, channelName, openingData }: any) => void stored.set(channelId, { channelName, openingData }),
    setPikkuUserId: async () => {},
    getChannel: async (channelId: string) => stored.get(channelId)!,
    removeChannels: async () => {},
  }
  const routes = (pikkuState(null, 'channel', 'channels').get('todos') as any).onMessageWiring.action
  const routeMeta = (pikkuState(null, 'channel', 'meta') as any).todos.messageWirings.action
  const disconnectId = (pikkuState(null, 'channel', 'meta') as any).todos.disconnect.pikkuFuncId as string
  const states: string[] = []
  const disconnects: string[] = []
  registerProbe('probeCloseChannel', { func: async (_services: unknown, _data: unknown, wire: any) => (await wire.channel.close(), states.push(wire.channel.state), { closed: true }) }, { sessionless: true })
  try {
    routes.probeCloseChannel = { func: { func: async () => {} }, auth: false }
    routeMeta.probeCloseChannel = { pikkuFuncId: 'probeCloseChannel' }
    await withWrappedFunction(disconnectId, (original) => async (...args) => (disconnects.push('onDisconnect'), original(...args)), async () => {
      for (const [name, factory] of Object.entries(factories)) {
        const params = { channelId: `${name}-close`, channelStore: channelStore as never, channelHandlerFactory: factory as never }
        await runChannelConnect({ ...params, route: '/todos/live' } as never)
        // The runner hands the reply back to the adapter rather than sending it.
        assert.deepEqual(await runChannelMessage(params as never, JSON.stringify({ action: 'probeCloseChannel' })), { closed: true, action: 'probeCloseChannel' })
      }
    })
    assert.deepEqual(states, ['closed', 'closed'])
    assert.deepEqual(disconnects, [])
    assert.equal(cfClosed, false)
    // Nothing went out on either runtime: no message and no call that would end the connection.
    assert.deepEqual(posted, [])
    assert.deepEqual(cfSent, [])
  } finally {
    delete routes.probeCloseChannel
    delete routeMeta.probeCloseChannel
    forgetProbes('probeCloseChannel')
  }
})

test('serverless-close-fails-pending-remote: on the Lambda and Cloudflare channel handlers, close() also fails a remote(...) call still waiting for its answer, with "Deployment service stopped"', async () => {
  const lambdaModule = await import(new URL('../../node_modules/@pikku/lambda/dist/websocket/lambda-channel-handler.js', import.meta.url).href)
  const cloudflareModule = await import(new URL('../../node_modules/@pikku/cloudflare/dist/cloudflare-channel-handler-factory.js', import.meta.url).href)
  const posted: unknown[] = []
  const callbackAPI = { send: async (command: { input: { Data: string } }) => void posted.push(JSON.parse(command.input.Data)) }
  const cfSent: unknown[] = []
  const websocket = { send: (data: string) => void cfSent.push(JSON.parse(data)), close: () => {} }
  const runtimes = [
    { name: 'lambda', factory: lambdaModule.createLambdaChannelHandlerFactory(app.services.logger, {}, callbackAPI), sent: posted },
    { name: 'cloudflare', factory: cloudflareModule.createCloudflareChannelHandlerFactory(app.services.logger, {}, websocket), sent: cfSent },
  ]
  for (const { name, factory, sent } of runtimes) {
    const handler = factory(`${name}-remote-${randomUUID()}`, 'todos', undefined)
    const channel = handler.getChannel()
    const pending = channel.remote('probeUnansweredCapability', { n: 1 })
    // Close only once the request has gone out, so the call is registered and waiting for the client's answer.
    await waitFor(async () => sent.length, (n) => n === 1)
    assert.equal((sent[0] as { funcName?: string }).funcName, 'probeUnansweredCapability', name)
    handler.close()
    await assert.rejects(pending, { name: 'ChannelRPCError', message: 'Deployment service stopped' }, name)
    assert.equal(channel.state, 'closed', name)
  }
})

test('upgrade-unknown-path-404: an upgrade on a path no channel has is refused with 404', async () => {
  assert.equal(await upgradeStatus(`${app.wsUrl}/no-such-channel`), 404)
})

test('route-meta-mismatch-404: when the generated meta holds another route text than the wiring (what codegen records for a route written as a constant), the upgrade on the real path is refused with 404', async () => {
  // Codegen records a constant's identifier text as the route (inspector getPropertyValue); this sets that text
  // on the todos channel's meta for the length of the test, since running pikku here is not allowed.
  const meta = pikkuState(null, 'channel', 'meta').todos!
  const route = meta.route
  try {
    meta.route = 'LIVE_ROUTE'
    assert.equal(await upgradeStatus(`${app.wsUrl}/todos/live`), 404)
  } finally {
    meta.route = route
  }
  assert.equal(await upgradeStatus(`${app.wsUrl}/todos/live`), 101)
})

test('channel-param-route-422: a channel route with a :param is refused with 422 No data expected, since the param joins the opening data and the inspector records no input for a channel', async () => {
  const { state } = await inspectFiles('channel-param', {
    'probe.ts': [
      "import { wireChannel, pikkuChannelConnectionFunc } from '@pikku/core/channel'",
      'export const hello = pikkuChannelConnectionFunc<{ hi: boolean }, { roomId: string }>(async () => ({ hi: true }))',
      "wireChannel({ name: 'rooms', route: '/rooms/:roomId', onConnect: hello, auth: false })",
    ].join('\n'),
  })
  const inspected = (state as any).channels.meta.rooms
  assert.equal(inspected.input, null)
  assert.deepEqual(inspected.params, ['roomId'])
  const meta = pikkuState(null, 'channel', 'meta') as any
  const channels = pikkuState(null, 'channel', 'channels')
  try {
    meta.rooms = { name: 'rooms', route: '/rooms/:roomId', input: null, params: ['roomId'], messageWirings: {} }
    channels.set('rooms', { name: 'rooms', route: '/rooms/:roomId', auth: false } as never)
    httpRouter.reset()
    const { handler, response } = await directUpgrade('/rooms/r1')
    assert.equal(handler, undefined)
    const answer = response.toResponse()
    assert.equal(answer.status, 422)
    assert.equal((await answer.json()).message, 'No data expected')
  } finally {
    delete meta.rooms
    channels.delete('rooms')
    httpRouter.reset()
  }
  assert.notEqual((await directUpgrade('/todos/live')).handler, undefined)
})

test('channel-route-constant-and-variable: the inspector records a route written as a constant under the constant\'s name and reports nothing, and records no channel for a wireChannel call given a variable', async () => {
  const header = [
    "import { wireChannel, pikkuChannelConnectionFunc } from '@pikku/core/channel'",
    'export const hello = pikkuChannelConnectionFunc<{ hi: boolean }>(async () => ({ hi: true }))',
    "const LIVE_ROUTE = '/live'",
  ].join('\n')
  const constant = await inspectFiles('channel-constant', {
    'probe.ts': `${header}\nwireChannel({ name: 'live', route: LIVE_ROUTE, onConnect: hello, auth: false })`,
  })
  assert.deepEqual(codes(constant.reported), [])
  assert.equal((constant.state as any).channels.meta.live.route, 'LIVE_ROUTE')
  const variable = await inspectFiles('channel-variable', {
    'probe.ts': `${header}\nconst config = { name: 'live', route: '/live', onConnect: hello, auth: false }\nwireChannel(config)`,
  })
  assert.deepEqual(Object.keys((variable.state as any).channels.meta), [])
  // The name, by contrast, is checked: a constant there is reported.
  const named = await inspectFiles('channel-named', {
    'probe.ts': `${header}\nconst NAME = 'live'\nwireChannel({ name: NAME, route: '/live', onConnect: hello, auth: false })`,
  })
  assert.deepEqual(codes(named.reported), ['PKU118 critical'])
})

test('upgrade-query-without-input-422: the todos channel declares no opening data, so any query parameter on the upgrade is refused with 422', async () => {
  // channelMeta.input is null for this channel (its onConnect takes no input); openChannel hands the query to
  // validateSchema, which answers 'No data expected' for data without a schema.
  assert.equal(await upgradeStatus(`${app.wsUrl}/todos/live?token=abc`), 422)
  const plain = await client()
  assert.equal((await plain.call('listTodos')).action, 'listTodos')
})

test('upgrade-query-without-schema-service: without a schema service the opening data is not checked, so the same query opens the channel', async () => {
  const services = app.services as any
  const schema = services.schema
  try {
    delete services.schema
    assert.notEqual((await directUpgrade('/todos/live?token=abc')).handler, undefined)
  } finally {
    services.schema = schema
  }
  assert.equal((await directUpgrade('/todos/live?token=abc')).handler, undefined)
})

test('upgrade-middleware-error-no-status: a malformed or invalid bearer credential drops the upgrade with no HTTP status', async () => {
  // authBearer throws InvalidSessionError (401) for 'Basic …' and jose rejects a bad token, but the runner has no
  // response to write to when upgrade middleware throws: @pikku/ws destroys the socket and the client sees a hang-up.
  await assert.rejects(upgradeStatus(`${app.wsUrl}/todos/live`, { authorization: 'Basic abc' }), /socket hang up/)
  await assert.rejects(upgradeStatus(`${app.wsUrl}/todos/live`, { authorization: 'Bearer not.a.jwt' }), /socket hang up/)
  // A well-formed token signed with a key the app does not hold (the same kid, another secret) fails to verify.
  const forged = await forgedToken({ userId: 'ann', role: 'member' })
  await assert.rejects(upgradeStatus(`${app.wsUrl}/todos/live`, { authorization: `Bearer ${forged}` }), /socket hang up/)
})

test('upgrade-middleware-error-status-200: called directly, runLocalChannel writes nothing when upgrade middleware throws, so the response still says 200', async () => {
  const upgrade = async (path: string, headers: Record<string, string> = {}) => {
    const { handler, response } = await directUpgrade(path, headers)
    return { opened: handler !== undefined, status: response.statusCode }
  }
  assert.deepEqual(await upgrade('/todos/live', { authorization: 'Basic abc' }), { opened: false, status: 200 })
  // A refusal the runner does answer sets the status on the same kind of response.
  assert.deepEqual(await upgrade('/no-such-channel'), { opened: false, status: 404 })
})

test('upgrade-refusal-json-body: called directly, runLocalChannel writes the 404 or the 422 No data expected, with a JSON body, to the response it was given', async () => {
  const refuse = async (path: string) => {
    const { handler, response } = await directUpgrade(path)
    assert.equal(handler, undefined)
    const answer = response.toResponse()
    return { status: answer.status, type: answer.headers.get('content-type'), body: await answer.json() }
  }
  const missing = await refuse('/no-such-channel')
  assert.equal(missing.status, 404)
  assert.equal(missing.type, 'application/json')
  assert.equal(missing.body.name, 'NotFoundError')
  const query = await refuse('/todos/live?token=abc')
  assert.equal(query.status, 422)
  assert.equal(query.type, 'application/json')
  assert.equal(query.body.name, 'UnprocessableContentError')
  assert.equal(query.body.message, 'No data expected')
})

test('upgrade-skip-user-session-ignored: skipUserSession: true changes nothing, as the upgrade middleware still runs: a bad credential is still refused and a bearer token still signs the socket in', async () => {
  const refused = await directUpgrade('/todos/live', { authorization: 'Basic abc' }, { skipUserSession: true })
  assert.equal(refused.handler, undefined)
  const { handler } = await directUpgrade('/todos/live', { authorization: `Bearer ${await app.token('skip')}` }, { skipUserSession: true })
  const sent: unknown[] = []
  handler!.registerOnSend((message) => void sent.push(message))
  await handler!.open()
  assert.deepEqual(sent, [{ signedIn: true }])
  await handler!.close()
})

test('upgrade-route-without-request: given a route and no request, runLocalChannel opens the channel with no session and no opening data; an unknown route resolves with nothing and writes nothing to the response, which still says 200', async () => {
  const response = new PikkuFetchHTTPResponse()
  const handler = await runLocalChannel({ channelId: randomUUID(), route: '/todos/live', response })
  assert.ok(handler)
  const sent: unknown[] = []
  handler.registerOnSend((message) => void sent.push(message))
  try {
    await handler.open()
    assert.deepEqual(sent, [{ signedIn: false }])
    assert.equal(handler.getChannel().openingData, undefined)
  } finally {
    await handler.close()
  }
  const missing = new PikkuFetchHTTPResponse()
  assert.equal(await runLocalChannel({ channelId: randomUUID(), route: '/no-such-channel', response: missing }), undefined)
  assert.equal(missing.statusCode, 200)
  // The same unknown path handed over as a request is answered with 404.
  assert.equal((await directUpgrade('/no-such-channel')).response.statusCode, 404)
})

test('upgrade-respond-with-404-option: respondWith404 defaults to true, which writes 404 for an unknown path; with false the runner writes nothing and the response still says 200', async () => {
  const byDefault = await directUpgrade('/no-such-channel')
  assert.equal(byDefault.response.statusCode, 404)
  const quiet = await directUpgrade('/no-such-channel', {}, { respondWith404: false })
  assert.equal(quiet.handler, undefined)
  assert.equal(quiet.response.statusCode, 200)
})

test('max-payload-1009: a frame over DEFAULT_WS_MAX_PAYLOAD (1 MiB) closes that socket with 1009; with the error listener the server carries on', async () => {
  assert.equal(DEFAULT_WS_MAX_PAYLOAD, 1024 * 1024)
  const c = await signedIn('ann')
  c.ws.on('error', () => {})
  c.send({ action: 'createTodo', title: 'x'.repeat(DEFAULT_WS_MAX_PAYLOAD) })
  const { code } = await c.closed
  assert.equal(code, 1009)
  const after = await signedIn('ann')
  assert.equal((await after.call('listTodos')).action, 'listTodos')
})

/**
 * Starts a server in a child process (the harness file prints `{ port }` once it listens), sends one frame over
 * DEFAULT_WS_MAX_PAYLOAD on /todos/live, and checks that the socket closes with 1009 and the process ends with
 * ws's unhandled 'error' event.
 */
const oversizedFrameEndsChild = async (harnessFile: string) => {
  const child = spawn(process.execPath, ['--import', 'tsx', harnessFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG: '' },
  })
  try {
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(JSON.parse(String(d)).port))
      exited.then(() => reject(new Error(`child exited early:\n${stderr}`)))
    })
    const ws = new WebSocket(`ws://127.0.0.1:${port}/todos/live`)
    ws.on('error', () => {})
    await new Promise((resolve) => ws.once('open', resolve))
    const closed = new Promise<number>((resolve) => ws.once('close', resolve))
    ws.send('x'.repeat(DEFAULT_WS_MAX_PAYLOAD + 1))
    assert.equal(await closed, 1009)
    assert.equal(await exited, 1)
    assert.match(stderr, /Unhandled 'error' event/)
    assert.match(stderr, /RangeError: Max payload size exceeded/)
  } finally {
    if (child.exitCode === null) child.kill()
  }
}

test('ws-default-max-payload: a ws WebSocketServer created without maxPayload has a maxPayload of 100 MiB (104,857,600 bytes)', () => {
  const wss = new WebSocketServer({ noServer: true })
  try {
    assert.equal(wss.options.maxPayload, 100 * 1024 * 1024)
  } finally {
    wss.close()
  }
})

test('ws-handler-sets-no-cap: pikkuWebsocketHandler leaves the maxPayload of the WebSocketServer it is given as it was: 100 MiB when none was set', () => {
  const wss = new WebSocketServer({ noServer: true })
  try {
    pikkuWebsocketHandler({ server: createServer(), wss, logger: app.services.logger })
    assert.equal(wss.options.maxPayload, 100 * 1024 * 1024)
  } finally {
    wss.close()
  }
})

test('max-payload-crash-without-listener: without an error listener on accepted sockets, one oversized frame ends the server process', () =>
  oversizedFrameEndsChild('tests/behaviour/harness/ws-child.ts'))

test('dev-server-max-payload-crash: the Node.js server that pikku dev and pikku serve run has no error listener on its sockets either, so one oversized message ends it', () =>
  oversizedFrameEndsChild('tests/behaviour/harness/dev-server-child.ts'))

test('event-hub-fan-out: completeTodo reaches the owner’s other subscribed sockets, not the sender', async () => {
  const a1 = await signedIn('eve')
  const a2 = await signedIn('eve')
  const other = await signedIn('mallory')
  assert.deepEqual(await a1.call('subscribeToChanges'), { subscribed: true, action: 'subscribeToChanges' })
  await a2.call('subscribeToChanges')
  await other.call('subscribeToChanges')
  const todo = await a1.call('createTodo', { title: 'fan out' })
  const reply = await a1.call('completeTodo', { todoId: todo.todoId })
  assert.equal(reply.done, true)
  const pushed = await a2.next((f) => f.topic === 'todos:eve')
  assert.deepEqual(pushed, { topic: 'todos:eve', data: { ...todo, done: true } })
  // Replies on one socket come after anything pushed to it before: a later reply proves nothing was pushed.
  await a1.call('listTodos')
  await other.call('listTodos')
  assert.equal(a1.frames.filter((f: any) => f.topic).length, 0)
  assert.equal(other.frames.filter((f: any) => f.topic).length, 0)
})

test('unsubscribe-stops-pushes: after unsubscribeFromChanges a socket gets no more pushes', async () => {
  const quitter = await signedIn('uma')
  const stayer = await signedIn('uma')
  const actor = await signedIn('uma')
  await quitter.call('subscribeToChanges')
  await stayer.call('subscribeToChanges')
  assert.deepEqual(await quitter.call('unsubscribeFromChanges'), { subscribed: false, action: 'unsubscribeFromChanges' })
  const todo = await actor.call('createTodo', { title: 'quiet' })
  await actor.call('completeTodo', { todoId: todo.todoId })
  await stayer.next((f) => f.topic === 'todos:uma')
  await quitter.call('listTodos')
  assert.equal(quitter.frames.filter((f: any) => f.topic).length, 0)
})

test('handler-error-runs-on-disconnect: after a handler error the open socket has had onDisconnect run and gets no pushes until it subscribes again', async () => {
  const failing = await signedIn('ivy')
  const watcher = await signedIn('ivy')
  const actor = await signedIn('ivy')
  await failing.call('subscribeToChanges')
  await watcher.call('subscribeToChanges')
  failing.send({ action: 'getTodo', todoId: 'missing' })
  await failing.next((f) => 'error' in f)
  // The runner's close timer (200 ms) ran channel.close(), hence onDisconnect (forgetSocket); the socket stayed open.
  await untilSubscribers('todos:ivy', 1)
  assert.equal(failing.ws.readyState, WebSocket.OPEN)
  const todo = await actor.call('createTodo', { title: 'after the error' })
  await actor.call('completeTodo', { todoId: todo.todoId })
  await watcher.next((f) => f.topic === 'todos:ivy')
  await failing.call('listTodos')
  assert.equal(failing.frames.filter((f: any) => f.topic).length, 0)
  // Subscribing again on the same socket brings the pushes back.
  await failing.call('subscribeToChanges')
  const second = await actor.call('createTodo', { title: 'after subscribing again' })
  await actor.call('completeTodo', { todoId: second.todoId })
  assert.deepEqual(await failing.next((f) => f.topic === 'todos:ivy'), { topic: 'todos:ivy', data: { ...second, done: true } })
})

test('handler-error-close-delay-keeps-subscriptions: the runner closes the channel about 200 ms after the error reply, onDisconnect sees it closed, and the close alone leaves the socket subscribed', async () => {
  const failing = await signedIn('hcd')
  const actor = await signedIn('hcd')
  await failing.call('subscribeToChanges')
  let replyAt = 0
  let disconnect: { at: number; state: string } | undefined
  // forgetSocket replaced by one that only records: nothing unsubscribes the socket.
  await withWrappedFunction('forgetSocket', () => async (_services, _data, wire) => {
    disconnect = { at: Date.now(), state: wire.channel.state }
  }, async () => {
    failing.send({ action: 'getTodo', todoId: 'missing' })
    await failing.next((f) => typeof f === 'object' && 'error' in f)
    replyAt = Date.now()
    await waitFor(async () => disconnect, (d) => d !== undefined, 3000)
  })
  assert.equal(disconnect!.state, 'closed')
  const delay = disconnect!.at - replyAt
  assert.ok(delay >= 150 && delay < 1000, `onDisconnect ran ${delay} ms after the error reply`)
  assert.equal(subscribers('todos:hcd'), 1)
  const todo = await actor.call('createTodo', { title: 'still pushed' })
  await actor.call('completeTodo', { todoId: todo.todoId })
  assert.deepEqual(await failing.next((f) => f.topic === 'todos:hcd'), { topic: 'todos:hcd', data: { ...todo, done: true } })
  await failing.call('unsubscribeFromChanges')
})

test('upgrade-bubble-errors: with bubbleErrors: true runLocalChannel rejects with the refusal it wrote (404 for an unknown path), with an upgrade middleware error it wrote nothing for, and with a createWireServices error; an unknown path with respondWith404: false still resolves with nothing', async () => {
  const missing = new PikkuFetchHTTPResponse()
  await assert.rejects(
    runLocalChannel({
      channelId: randomUUID(),
      request: new PikkuFetchHTTPRequest(new Request('http://localhost/no-such-channel')),
      response: missing,
      bubbleErrors: true,
    }),
    { name: 'NotFoundError' }
  )
  assert.equal(missing.statusCode, 404)
  const badAuth = new PikkuFetchHTTPResponse()
  await assert.rejects(
    runLocalChannel({
      channelId: randomUUID(),
      request: new PikkuFetchHTTPRequest(new Request('http://localhost/todos/live', { headers: { authorization: 'Basic abc' } })),
      response: badAuth,
      bubbleErrors: true,
    })
  )
  assert.equal(badAuth.statusCode, 200)
  const quiet = await directUpgrade('/no-such-channel', {}, { respondWith404: false, bubbleErrors: true })
  assert.equal(quiet.handler, undefined)
  assert.equal(quiet.response.statusCode, 200)
  // A createWireServices failure, which otherwise resolves with a handler, rejects too.
  const factories = pikkuState(null, 'package', 'factories') as any
  const createWireServices = factories.createWireServices
  try {
    factories.createWireServices = async () => {
      throw new Error('wire services failed')
    }
    await assert.rejects(directUpgrade('/todos/live', {}, { bubbleErrors: true }), { message: 'wire services failed' })
  } finally {
    factories.createWireServices = createWireServices
  }
})

test('upgrade-wire-services-error-returns-handler: when createWireServices throws during the upgrade, runLocalChannel writes the error\'s status to the response (500 for an unregistered error, 403 for a ForbiddenError) and still resolves with a handler, whose open() then sends nothing', async () => {
  const factories = pikkuState(null, 'package', 'factories') as any
  const createWireServices = factories.createWireServices
  try {
    factories.createWireServices = async () => {
      throw new Error('wire services failed')
    }
    const { handler, response } = await directUpgrade('/todos/live')
    assert.ok(handler instanceof PikkuLocalChannelHandler)
    assert.equal(response.statusCode, 500)
    const sent: unknown[] = []
    handler.registerOnSend((message) => void sent.push(message))
    await handler.open()
    assert.deepEqual(sent, [])
    await handler.close()
    // A registered error keeps its own status; the handler is still returned.
    factories.createWireServices = async () => {
      throw new ForbiddenError('no wire services')
    }
    const forbidden = await directUpgrade('/todos/live')
    assert.ok(forbidden.handler instanceof PikkuLocalChannelHandler)
    assert.equal(forbidden.response.statusCode, 403)
    await forbidden.handler.close()
  } finally {
    factories.createWireServices = createWireServices
  }
})

test('direct-close-once: close() on the handler runLocalChannel returns runs onDisconnect and the close callbacks, then closes the wire services; a second close() does nothing', async () => {
  const factories = pikkuState(null, 'package', 'factories') as any
  const createWireServices = factories.createWireServices
  let servicesClosed = 0
  let disconnects = 0
  const order: string[] = []
  try {
    factories.createWireServices = async () => ({ probe: { close: async () => (servicesClosed++, order.push('services')) } })
    await withWrappedFunction('forgetSocket', () => async () => void (disconnects++, order.push('onDisconnect')), async () => {
      const { handler } = await directUpgrade('/todos/live')
      handler!.registerOnSend(() => {})
      let callbacks = 0
      handler!.registerOnClose(() => void callbacks++)
      await handler!.open()
      await handler!.close()
      await handler!.close()
      assert.deepEqual({ disconnects, callbacks, servicesClosed }, { disconnects: 1, callbacks: 1, servicesClosed: 1 })
      assert.deepEqual(order, ['onDisconnect', 'services'])
    })
  } finally {
    factories.createWireServices = createWireServices
  }
})

test('handler-error-runs-close-callbacks: when a text message\'s handler throws, the runner closes the channel after the error reply and runs the callbacks given to registerOnClose', async () => {
  const { handler } = await directUpgrade('/todos/live', { authorization: `Bearer ${await app.token('cb')}` })
  const sent: any[] = []
  handler!.registerOnSend((message) => void sent.push(message))
  let closedAt = 0
  handler!.registerOnClose(() => void (closedAt = Date.now()))
  await handler!.open()
  await handler!.message(JSON.stringify({ action: 'getTodo', todoId: 'missing' }))
  const repliedAt = Date.now()
  assert.equal(sent.at(-1).errorName, 'NotFoundError')
  await waitFor(async () => closedAt, (at) => at > 0, 3000)
  assert.equal(handler!.getChannel().state, 'closed')
  assert.ok(closedAt - repliedAt >= 150, `closed ${closedAt - repliedAt} ms after the reply`)
})

test('binary-handler-error-logged: an error thrown by onBinaryMessage is only logged: nothing is sent back and the channel stays open', async () => {
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const errors = collectLogs(app.services, 'error')
  try {
    config.onBinaryMessage = async () => {
      throw new Error('bad bytes')
    }
    const { handler } = await directUpgrade('/todos/live', { authorization: `Bearer ${await app.token('binerr')}` })
    const sent: unknown[] = []
    handler!.registerOnSend((message) => void sent.push(message))
    handler!.registerOnSendBinary((data) => void sent.push(data))
    await handler!.open()
    sent.length = 0
    await handler!.binaryMessage(Uint8Array.from([1]))
    assert.match(errors.lines.join('\n'), /Error handling binary message: bad bytes/)
    assert.deepEqual(sent, [])
    assert.equal(handler!.getChannel().state, 'open')
    await handler!.message(JSON.stringify({ action: 'listTodos' }))
    assert.equal((sent[0] as any).action, 'listTodos')
    await handler!.close()
  } finally {
    errors.restore()
    delete config.onBinaryMessage
  }
})

test('close-drops-subscriptions: when a subscribed socket closes, its subscriptions leave the event hub', async () => {
  const c = await signedIn('cleo')
  await c.call('subscribeToChanges')
  assert.equal(subscribers('todos:cleo'), 1)
  await c.close()
  // The server handles the close after the client sees it.
  await untilSubscribers('todos:cleo', 0)
})

test('socket-close-runs-on-disconnect: when a subscribed socket closes, the channel\'s onDisconnect (forgetSocket) runs', async () => {
  const hub = app.services.eventHub as any
  const unsubscribe = hub.unsubscribe
  const calls: string[] = []
  // Only forgetSocket and unsubscribeFromChanges call unsubscribe; the hub's own onChannelClosed does not.
  hub.unsubscribe = function (topic: string, channelId: string) {
    calls.push(topic)
    return unsubscribe.call(this, topic, channelId)
  }
  try {
    const c = await signedIn('dora')
    await c.call('subscribeToChanges')
    assert.deepEqual(calls, [])
    await c.close()
    await waitFor(async () => calls.length, (n) => n > 0, 3000)
    assert.deepEqual(calls, ['todos:dora'])
  } finally {
    hub.unsubscribe = unsubscribe
  }
})

test('channel-middleware-wraps-handler-sends: channel middleware sees what a handler sends with wire.channel.send and can change it, fan it out or drop it; the reply built from the return value and event hub pushes pass it by', async () => {
  const config = pikkuState(null, 'channel', 'channels').get('todos') as any
  const seen: unknown[] = []
  const c = await signedIn('cmw')
  const actor = await signedIn('cmw')
  await c.call('subscribeToChanges')
  try {
    config.channelMiddleware = [
      async (_services: unknown, event: any, next: (event: unknown) => Promise<void>) => {
        seen.push(event)
        if (event?.drop) return next(null)
        return next([{ ...event, via: 'middleware' }, { extra: true }])
      },
    ]
    await withWrappedFunction('listTodos', (original) => async (services, data, wire) => {
      await wire.channel.send({ drop: true })
      await wire.channel.send({ pushed: 1 })
      return original(services, data, wire)
    }, async () => {
      const from = c.frames.length
      const reply = await c.call('listTodos')
      assert.equal(reply.via, undefined)
      assert.deepEqual(c.frames.slice(from, from + 2), [{ pushed: 1, via: 'middleware' }, { extra: true }])
    })
    const todo = await actor.call('createTodo', { title: 'hub push' })
    await actor.call('completeTodo', { todoId: todo.todoId })
    assert.deepEqual(await c.next((f) => f.topic === 'todos:cmw'), { topic: 'todos:cmw', data: { ...todo, done: true } })
    assert.deepEqual(seen, [{ drop: true }, { pushed: 1 }])
  } finally {
    delete config.channelMiddleware
  }
})

test("http-get-on-channel-path-500: a plain HTTP GET on the channel's path fails with a TypeError (500), shadowing GET /todos/:todoId", async () => {
  const headers = { authorization: `Bearer ${await app.token('ann')}` }
  const response = await fetch(`${app.url}/todos/live`, { headers })
  assert.equal(response.status, 500)
  assert.match(await response.text(), /Cannot read properties of undefined \(reading &#39;route&#39;\)/)
  // Any other id reaches getTodo.
  assert.equal((await fetch(`${app.url}/todos/no-such-id`, { headers })).status, 404)
})

test("core-fetch-channel-path-rejects: core's fetch and fetchData reject with a TypeError on a plain GET of the channel's path", async () => {
  const request = () => new Request('http://localhost/todos/live')
  await assert.rejects(pikkuFetch(request()), (error: unknown) => error instanceof TypeError && /reading 'route'/.test(error.message))
  await assert.rejects(fetchData(request(), new PikkuFetchHTTPResponse()), TypeError)
})

test('generated-client-unauthorized-text: the generated client hands the Unauthorized text to subscribe callbacks as a string', async () => {
  const socket = new WebSocket(`${app.wsUrl}/todos/live`)
  const received: unknown[] = []
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const echoed = new Promise((resolve) => live.getRoute('action').subscribe('listTodos', resolve))
  live.subscribe((message) => received.push(message))
  await new Promise((resolve) => socket.once('open', resolve))
  live.getRoute('action').send('listTodos', {})
  assert.deepEqual(await echoed, { action: 'listTodos' })
  assert.deepEqual(received, [{ signedIn: false }, "Unauthorized for route 'action:listTodos'", { action: 'listTodos' }])
  socket.close()
})

test('generated-client: PikkuWebSocket sends routed messages, matches replies and event hub topics', async () => {
  const socket = new WebSocket(`${app.wsUrl}/todos/live`, { headers: { authorization: `Bearer ${await app.token('gen')}` } })
  const opened = new Promise((resolve) => socket.once('open', resolve))
  const peer = await signedIn('gen')
  await opened
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const actions = live.getRoute('action')
  const subscribed = new Promise((resolve) => actions.subscribe('subscribeToChanges', resolve))
  actions.send('subscribeToChanges', undefined)
  assert.deepEqual(await subscribed, { subscribed: true, action: 'subscribeToChanges' })
  const changed = new Promise<any>((resolve) => live.subscribeToEventHub('todos:gen', resolve))
  const todo = await peer.call('createTodo', { title: 'from peer' })
  await peer.call('completeTodo', { todoId: todo.todoId })
  assert.deepEqual(await changed, { topic: 'todos:gen', data: { ...todo, done: true } })
  socket.close()
})

/** A stand-in socket for the generated client: it records what is sent, and `deliver` plays an incoming text frame. */
const fakeSocket = () => {
  const socket = { binaryType: '', sent: [] as string[], onmessage: null as null | ((event: { data: unknown }) => void) }
  const send = (data: string) => void socket.sent.push(data)
  const deliver = (message: unknown) => socket.onmessage!({ data: JSON.stringify(message) })
  return { socket: Object.assign(socket, { send }), deliver }
}

test('generated-client-callback-throws: a callback that throws is swallowed, and the callbacks after it miss that frame', async () => {
  const { socket, deliver } = fakeSocket()
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const plain: unknown[] = []
  const heard: unknown[] = []
  live.getRoute('action').subscribe('getTodo', () => {
    throw new Error('bug in a callback')
  })
  live.subscribe((message) => plain.push(message))
  live.subscribeToEventHub('todos:t', (message) => heard.push(message))
  // No exception reaches the caller: the client catches it around the whole dispatch of the frame.
  assert.doesNotThrow(() => deliver({ action: 'getTodo', todoId: 't1' }))
  assert.deepEqual(plain, [])
  // A frame that no throwing callback matches still reaches every plain and event-hub callback.
  deliver({ topic: 'todos:t', data: { todoId: 't1' } })
  assert.deepEqual(plain, [{ topic: 'todos:t', data: { todoId: 't1' } }])
  assert.deepEqual(heard, [{ topic: 'todos:t', data: { todoId: 't1' } }])
})

test('generated-client-text-callback-throws: on a text frame that is not JSON, a plain callback\'s error is not swallowed', async () => {
  const { socket } = fakeSocket()
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const plain: unknown[] = []
  live.subscribe(() => {
    throw new Error('bug in a callback')
  })
  live.subscribe((message) => plain.push(message))
  // Such a frame, like the Unauthorized text, is handed to the plain callbacks outside the client's try.
  assert.throws(() => socket.onmessage!({ data: "Unauthorized for route 'action:listTodos'" }), /^Error: bug in a callback$/)
  assert.deepEqual(plain, [])
})

test('generated-client-event-hub-unsubscribe: unsubscribe(callback) does not remove a subscribeToEventHub callback; unsubscribe() removes it with every plain one', async () => {
  const { socket, deliver } = fakeSocket()
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const heard: unknown[] = []
  const plain: unknown[] = []
  const onChange = (message: unknown) => void heard.push(message)
  live.subscribeToEventHub('todos:t', onChange)
  live.subscribe((message) => plain.push(message))
  live.unsubscribe(onChange)
  deliver({ topic: 'todos:t', data: 1 })
  assert.equal(heard.length, 1)
  live.unsubscribe()
  deliver({ topic: 'todos:t', data: 2 })
  assert.equal(heard.length, 1)
  assert.equal(plain.length, 1)
})

test('generated-client-null-frame: a text frame holding JSON null reaches plain callbacks only while the client has no route handle', async () => {
  const { socket, deliver } = fakeSocket()
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const plain: unknown[] = []
  live.subscribe((message) => plain.push(message))
  deliver(null)
  assert.deepEqual(plain, [null])
  live.getRoute('action')
  // Reading the routing key from null throws inside the client's try, which drops the frame without a word.
  assert.doesNotThrow(() => deliver(null))
  deliver({ signedIn: false })
  assert.deepEqual(plain, [null, { signedIn: false }])
})

test('generated-client-matches-by-key: a route callback takes any reply that echoes its key, whichever request it answers; an array reply, which has no key, reaches only plain callbacks', () => {
  const { socket, deliver } = fakeSocket()
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  const actions = live.getRoute('action')
  const replies: any[] = []
  const plain: unknown[] = []
  actions.subscribe('getTodo', (reply: any) => replies.push(reply))
  actions.subscribe('listTodos', (reply: any) => replies.push(reply))
  live.subscribe((message) => plain.push(message))
  actions.send('getTodo', { todoId: 'a' })
  actions.send('getTodo', { todoId: 'b' })
  assert.deepEqual(socket.sent.map((m) => JSON.parse(m)), [{ action: 'getTodo', todoId: 'a' }, { action: 'getTodo', todoId: 'b' }])
  deliver({ action: 'getTodo', todoId: 'b' })
  assert.deepEqual(replies, [{ action: 'getTodo', todoId: 'b' }])
  deliver([{ todoId: 'a' }])
  assert.equal(replies.length, 1)
  assert.deepEqual(plain.at(-1), [{ todoId: 'a' }])
})

test('generated-client-send-before-open-throws: a WHATWG WebSocket (Node\'s global, as in a browser) throws when the client sends while it is still connecting', async () => {
  const socket = new globalThis.WebSocket(`${app.wsUrl}/todos/live`)
  try {
    const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
    assert.equal(socket.readyState, globalThis.WebSocket.CONNECTING)
    assert.throws(() => live.getRoute('action').send('listTodos', {}), { name: 'InvalidStateError' })
    await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }))
  } finally {
    socket.close()
  }
})

test('generated-client-no-reconnect: PikkuWebSocket only sets binaryType and onmessage on the socket it is given and never listens for close, so it cannot reconnect', () => {
  const touched: string[] = []
  const target = { send: () => {}, binaryType: '', onmessage: null as unknown }
  const socket = new Proxy(target, {
    set: (t, key, value) => (touched.push(`set ${String(key)}`), Reflect.set(t, key, value)),
    get: (t, key) => (touched.push(`get ${String(key)}`), Reflect.get(t, key)),
  })
  const live = new PikkuWebSocket<'todos', TodoTopics>(socket as any)
  live.getRoute('action')
  live.subscribe(() => {})
  assert.deepEqual(touched, ['set binaryType', 'set onmessage', 'get send'])
})

test('websocket-command-needs-channel-map: the pikku websocket command writes only the client file, which imports the channel map that the default pikku run writes; where that map was never written, the client fails to compile with TS2307', async () => {
  const command = join(APP_DIR, 'node_modules', '@pikku', 'cli', 'dist', 'src', 'functions', 'runtimes', 'websocket', 'pikku-command-websocket-typed.js')
  const { pikkuWebSocketTyped } = await import(command)
  const dir = runTempDir('websocket-command')
  try {
    const websocketFile = join(dir, '.pikku', 'pikku-websocket.gen.ts')
    const channelsMapDeclarationFile = join(dir, '.pikku', 'channel', 'pikku-channels-map.gen.d.ts')
    const logger = new Proxy({}, { get: () => () => {} })
    const config = { clientFiles: { websocketFile }, channelsMapDeclarationFile, packageMappings: {} }
    await pikkuWebSocketTyped.func({ logger, config } as never, undefined as never, {} as never)
    assert.deepEqual(readdirSync(join(dir, '.pikku'), { recursive: true }), ['pikku-websocket.gen.ts'])
    const client = readFileSync(websocketFile, 'utf8')
    assert.match(client, /from '\.\/channel\/pikku-channels-map\.gen\.d\.js'/)
    const { code, output } = await compileScratch('websocket-command', { 'pikku-websocket.gen.ts': client })
    assert.notEqual(code, 0)
    assert.match(output, /error TS2307: Cannot find module '\.\/channel\/pikku-channels-map\.gen\.d\.js'/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('ws-drops-unheard-message: a ws server socket drops a message that arrives before it has a message listener', async () => {
  // The custom runtime page's bridge registers its listeners before open() because of this.
  const { createServer } = await import('node:http')
  const { WebSocketServer } = await import('ws')
  const server = createServer()
  const wss = new WebSocketServer({ noServer: true })
  const heard: string[] = []
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, async (ws) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      ws.on('message', (data) => void heard.push(data.toString()))
      ws.send('listening')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const c = new WebSocket(`ws://127.0.0.1:${(server.address() as { port: number }).port}`)
  try {
    await new Promise((resolve) => c.once('open', resolve))
    const listening = new Promise((resolve) => c.once('message', resolve))
    c.send('early')
    // The server says when its listener is attached; a message sent after that is heard.
    await listening
    c.send('late')
    await waitFor(async () => heard.length, (n) => n > 0)
    assert.deepEqual(heard, ['late'])
  } finally {
    c.terminate()
    for (const client of wss.clients) client.terminate()
    await new Promise<void>((resolve) => wss.close(() => resolve()))
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

/** The realtime client that `@pikku/cli` writes when `clientFiles.realtimeFile` and `fetchFile` are set, generated
 * here from the installed CLI next to the app's fetch client, with a stand-in for the browser's `WebSocket`. */
const withRealtimeClient = async (run: (PikkuRealtime: any, sockets: any[]) => Promise<void>) => {
  const { serializeRealtimeClient } = await import('../../node_modules/@pikku/cli/dist/src/functions/wirings/realtime/serialize-realtime-client.js')
  const { writeFileSync, rmSync } = await import('node:fs')
  const file = new URL(`../../.pikku/realtime-probe-${randomUUID()}.gen.ts`, import.meta.url)
  writeFileSync(file, serializeRealtimeClient(undefined, './pikku-fetch.gen.js'))
  const sockets: any[] = []
  class StandInSocket {
    static OPEN = 1
    readyState = 0
    sent: string[] = []
    onopen?: () => void
    onmessage?: (event: { data: unknown }) => void
    onclose?: () => void
    onerror?: () => void
    constructor(public url: string) {
      sockets.push(this)
    }
    send(data: string) {
      this.sent.push(data)
    }
    close() {}
  }
  const saved = (globalThis as any).WebSocket
  ;(globalThis as any).WebSocket = StandInSocket
  try {
    const { PikkuRealtime } = await import(file.href)
    await run(PikkuRealtime, sockets)
  } finally {
    ;(globalThis as any).WebSocket = saved
    rmSync(file, { force: true })
  }
}

test('realtime-client-handler-shapes: PikkuRealtime.subscribe hands its handler the message\'s data, subscribeToTopic the whole { topic, data } event', async () => {
  await withRealtimeClient(async (PikkuRealtime, sockets) => {
    const realtime = new PikkuRealtime({ reconnect: false })
    realtime.setServerUrl('http://localhost:3000')
    const overSocket: unknown[] = []
    realtime.subscribe('todos:rt', (data: unknown) => overSocket.push(data))
    const socket = sockets[0]
    assert.equal(socket.url, 'ws://localhost:3000/events')
    socket.readyState = 1
    socket.onopen()
    assert.deepEqual(socket.sent, ['{"action":"subscribe","topic":"todos:rt"}'])
    socket.onmessage({ data: JSON.stringify({ topic: 'todos:rt', data: { n: 1 } }) })
    // A message with no topic field reaches no handler.
    socket.onmessage({ data: JSON.stringify({ n: 2 }) })
    assert.deepEqual(overSocket, [{ n: 1 }])

    const paths: string[] = []
    realtime.pikkuFetch.fetch = async (path: string) => {
      paths.push(path)
      return new Response('data: {"topic":"todos:rt","data":{"n":1}}\n\n')
    }
    const overStream: unknown[] = []
    const stream = realtime.subscribeToTopic('todos:rt', (event: unknown) => overStream.push(event))
    await waitFor(async () => overStream.length, (n) => n === 1)
    stream.close()
    assert.deepEqual(paths, ['/events/todos%3Art'])
    assert.deepEqual(overStream, [{ topic: 'todos:rt', data: { n: 1 } }])
    realtime.close()
  })
})

test('realtime-client-close-final: after close(), PikkuRealtime.subscribe opens no socket and sends nothing', async () => {
  await withRealtimeClient(async (PikkuRealtime, sockets) => {
    const realtime = new PikkuRealtime()
    realtime.setServerUrl('http://localhost:3000')
    const off = realtime.subscribe('todos:a', () => {})
    assert.equal(sockets.length, 1)
    off()
    realtime.close()
    realtime.subscribe('todos:b', () => {})
    assert.equal(sockets.length, 1)
    assert.deepEqual(sockets[0].sent, [])
  })
})

test('realtime-client-handler-throws: an error thrown by a PikkuRealtime.subscribe handler leaves the socket\'s message handler, and the topic\'s later handlers miss that message', async () => {
  await withRealtimeClient(async (PikkuRealtime, sockets) => {
    const realtime = new PikkuRealtime({ reconnect: false })
    realtime.setServerUrl('http://localhost:3000')
    const heard: unknown[] = []
    realtime.subscribe('todos:rt', () => {
      throw new Error('bug in a handler')
    })
    realtime.subscribe('todos:rt', (data: unknown) => heard.push(data))
    const socket = sockets[0]
    assert.throws(() => socket.onmessage({ data: JSON.stringify({ topic: 'todos:rt', data: 1 }) }), /^Error: bug in a handler$/)
    assert.deepEqual(heard, [])
    realtime.close()
  })
})

test('realtime-client-reconnects-silently: when its socket fails, PikkuRealtime opens a new one after the delay and replays its topics, and nothing reaches the caller', async () => {
  await withRealtimeClient(async (PikkuRealtime, sockets) => {
    const realtime = new PikkuRealtime({ reconnectDelayMs: 5 })
    // Closed in finally: a failed assertion would otherwise leave it reconnecting, with the real WebSocket once
    // withRealtimeClient has put it back.
    try {
      realtime.setServerUrl('http://localhost:3000')
      realtime.subscribe('todos:rt', () => {})
      // A refused upgrade, such as a 404 on a project without the events scaffold, shows up as error then close.
      assert.doesNotThrow(() => {
        sockets[0].onerror()
        sockets[0].onclose()
      })
      await waitFor(async () => sockets.length, (n) => n === 2)
      sockets[1].readyState = 1
      sockets[1].onopen()
      assert.deepEqual(sockets[1].sent, ['{"action":"subscribe","topic":"todos:rt"}'])
    } finally {
      realtime.close()
    }
  })
})

/**
 * Connects a client to /todos/live on `port`, calls `server.stop()`, runs `whileHeld` with the client still connected
 * and checks that stop() has not finished, then closes the client and checks that stop() finishes.
 */
const stopWithClientConnected = async (
  port: number,
  server: { stop: () => Promise<void> },
  whileHeld: (c: RawClient) => Promise<void>,
) => {
  const c = new RawClient(`ws://127.0.0.1:${port}/todos/live`)
  let finished = false
  let stopped: Promise<void> | undefined
  try {
    await c.opened
    stopped = server.stop().then(() => {
      finished = true
    })
    await whileHeld(c)
    assert.equal(finished, false)
    await c.close()
    await stopped
    assert.equal(finished, true)
  } finally {
    if (!finished) {
      await c.close()
      await (stopped ?? server.stop())
    }
  }
}

test('dev-server-stop-waits-for-sockets: the Node.js server that pikku dev and pikku serve run does not finish stop() while a WebSocket client stays connected, past its shutdown grace period, and finishes once the client leaves', async () => {
  // The CLI's own runner, as dev.ts and serve.ts build it; its stop() awaits wss.close() before the HTTP server's drain.
  const { NodeServerRunner } = await import('../../node_modules/@pikku/cli/dist/src/server/node-server-runner.js')
  const { freePort } = await import('./harness/services.js')
  const services = app.services as any
  const port = await freePort()
  const server = new NodeServerRunner().createServer(
    { ...services.config, port, hostname: '127.0.0.1', shutdownGracePeriodMs: 200 },
    services.logger,
  )
  await server.init()
  await server.start()
  await stopWithClientConnected(port, server, async (c) => {
    // stop() is held at wss.close(): the HTTP server, whose drain holds the grace timer, still answers, so that timer
    // has not even started, and the socket still carries a round trip.
    assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200)
    assert.equal((await c.call('listTodos')).action, 'listTodos')
  })
})

test('ws-handler-upgrades-only: pikkuWebsocketHandler listens only for the server\'s upgrade event and adds no request listener, so plain HTTP requests need a handler of their own', () => {
  const server = createServer()
  const wss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_WS_MAX_PAYLOAD })
  try {
    pikkuWebsocketHandler({ server, wss, logger: app.services.logger })
    assert.equal(server.listenerCount('request'), 0)
    assert.equal(server.listenerCount('upgrade'), 1)
  } finally {
    wss.close()
  }
})

test('ws-private-hub: pikkuWebsocketHandler reads the eventHub singleton when it is called; with a PgEventHubService there, with none, or before the singleton services exist, it delivers through a hub of its own, which publishes from functions never reach', async () => {
  const services = app.services as any
  const appHub = services.eventHub
  /** A second http.Server with pikkuWebsocketHandler attached while `prepare` holds; `undo` runs right after the call. */
  const attach = async (prepare: () => void, undo: () => void) => {
    const server = createServer()
    const wss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_WS_MAX_PAYLOAD })
    prepare()
    try {
      pikkuWebsocketHandler({ server, wss, logger: app.services.logger })
    } finally {
      undo()
    }
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const sockets: RawClient[] = []
    return {
      socket: async (userId: string) => {
        const c = new RawClient(`ws://127.0.0.1:${port}/todos/live`, { authorization: `Bearer ${await app.token(userId)}` })
        sockets.push(c)
        await c.opened
        return c
      },
      stop: async () => {
        await Promise.all(sockets.map((c) => c.close()))
        await new Promise<void>((resolve) => wss.close(() => resolve()))
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      },
    }
  }
  const pushes = (c: RawClient) => c.frames.filter((f: any) => f && typeof f === 'object' && f.topic).length

  // A PgEventHubService as the singleton, never init()ed, so its publish fans out in this process only.
  const pg = new PgEventHubService<Record<string, unknown>>('postgres://unused@127.0.0.1:1/none')
  assert.equal((pg as unknown) instanceof LocalEventHubService, false)
  const withPg = await attach(() => void (services.eventHub = pg), () => {})
  try {
    const c = await withPg.socket('pghub')
    await c.call('subscribeToChanges')
    // The function subscribed the socket in the Pg hub...
    assert.equal((pg as any).local.subscriptions.get('todos:pghub')?.size, 1)
    await pg.publish('todos:pghub', null, { topic: 'todos:pghub', data: 'ping' })
    // ...but the handler never registered its sockets there, so nothing arrives before the next reply.
    await c.call('listTodos')
    assert.equal(pushes(c), 0)
  } finally {
    services.eventHub = appHub
    await withPg.stop()
  }

  // Called while no singleton services are registered, or while they have no eventHub: its hub is private, even though
  // the app's LocalEventHubService is back in place by the first upgrade.
  const state = (...args: unknown[]) => (pikkuState as any)(null, 'package', 'singletonServices', ...args)
  const registered = state()
  const setups = {
    // pikkuState ignores undefined as a value; null reads as unset to getSingletonServices.
    noservices: [() => state(null), () => state(registered)],
    noeventhub: [() => void (services.eventHub = undefined), () => void (services.eventHub = appHub)],
  } as const
  for (const [name, [prepare, undo]] of Object.entries(setups)) {
    const topic = `todos:${name}`
    const early = await attach(prepare, undo)
    try {
      const c = await early.socket(name)
      const shared = await signedIn(name)
      await c.call('subscribeToChanges')
      await shared.call('subscribeToChanges')
      assert.equal(subscribers(topic), 2, name)
      await appHub.publish(topic, null, { topic, data: 'ping' })
      // The socket on the app's own handler gets the push; the one on the early handler does not.
      await shared.next((f) => f && typeof f === 'object' && f.topic === topic)
      await c.call('listTodos')
      assert.equal(pushes(c), 0, name)
    } finally {
      undo()
      await early.stop()
    }
  }
})

test('ws-handler-takes-every-upgrade: pikkuWebsocketHandler answers every upgrade on its server, so a second WebSocket endpoint on the same http.Server has its sockets destroyed once Pikku finds no channel there', async () => {
  const { createServer } = await import('node:http')
  const { WebSocketServer } = await import('ws')
  const { pikkuWebsocketHandler } = await import('@pikku/ws')
  const server = createServer()
  const pikkuWss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_WS_MAX_PAYLOAD })
  pikkuWebsocketHandler({ server, wss: pikkuWss, logger: app.services.logger })
  // Another endpoint on the same server, which only takes its own path.
  const otherWss = new WebSocketServer({ noServer: true })
  const otherSockets: WebSocket[] = []
  otherWss.on('connection', (ws) => {
    otherSockets.push(ws)
    ws.on('error', () => {})
    ws.send('hello from /other')
  })
  server.on('upgrade', (req, socket, head) => {
    if (req.url === '/other') otherWss.handleUpgrade(req, socket, head, (ws) => otherWss.emit('connection', ws, req))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const c = new WebSocket(`ws://127.0.0.1:${(server.address() as { port: number }).port}/other`)
  c.on('error', () => {})
  try {
    const outcome = await new Promise<string>((resolve) => {
      c.once('message', (data) => resolve(`message: ${data}`))
      c.once('close', (code) => resolve(`close: ${code}`))
      c.once('unexpected-response', (_req, res) => resolve(`status: ${res.statusCode}`))
    })
    // The other endpoint's handshake completes and its first frame arrives; then Pikku, finding no channel on /other,
    // writes its 404 onto the same socket and destroys it, so the client sees an abnormal close.
    assert.equal(outcome, 'message: hello from /other')
    const closed = await new Promise<number>((resolve) => c.once('close', resolve))
    assert.equal(closed, 1006)
  } finally {
    c.terminate()
    for (const ws of otherSockets) ws.terminate()
    await new Promise<void>((resolve) => otherWss.close(() => resolve()))
    await new Promise<void>((resolve) => pikkuWss.close(() => resolve()))
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

test('node-http-server-stop-waits-for-sockets: PikkuNodeHTTPServer.stop() with @pikku/ws attached, as the standalone deploy entry builds it, does not finish while a WebSocket client stays connected, even after the grace period force-closes connections', async () => {
  const { PikkuNodeHTTPServer } = await import('@pikku/node-http-server')
  const { WebSocketServer } = await import('ws')
  const { pikkuWebsocketHandler } = await import('@pikku/ws')
  const { freePort } = await import('./harness/services.js')
  const services = app.services as any
  const port = await freePort()
  const wss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_WS_MAX_PAYLOAD })
  // The server's logger, with its info() also reporting the line the grace timer logs before closeAllConnections().
  let forced!: () => void
  const forceClosed = new Promise<void>((resolve) => (forced = resolve))
  const logger = Object.create(services.logger, {
    info: {
      value: (message: string, ...rest: unknown[]) => {
        if (String(message).includes('force-closing in-flight connections')) forced()
        return services.logger.info(message, ...rest)
      },
    },
  })
  const server = new PikkuNodeHTTPServer({ ...services.config, port, hostname: '127.0.0.1', shutdownGracePeriodMs: 200 }, logger, {
    configureServer: (httpServer) => pikkuWebsocketHandler({ server: httpServer, wss, logger: services.logger }),
  })
  await server.init()
  await server.start()
  try {
    await stopWithClientConnected(port, server, async (c) => {
      // The grace period has passed and closeAllConnections() has run; the upgraded socket still carries a round trip.
      await forceClosed
      assert.equal((await c.call('listTodos')).action, 'listTodos')
    })
  } finally {
    await new Promise<void>((resolve) => wss.close(() => resolve()))
  }
})
