// The Slack gateway (src/gateways/) with the real SlackGatewayAdapter of @pikku/gateway-slack: requests signed in
// the test with the signing secret, as Slack signs them. The app's services are created once and served by two
// runtimes: @pikku/express (the harness's server, src/start.ts) and @pikku/node-http-server on a second port, since
// the two hand the adapter different raw bodies. The one stand-in is the Slack Web API client of the workspace, put
// in the adapter's per-team client cache so that replies are recorded instead of posted to slack.com.
import { after, before, beforeEach, test } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { PikkuNodeHTTPServer } from '@pikku/node-http-server'
import { freePort } from './harness/services.js'
import { startSessionApp, type SessionApp } from './harness/workflows.js'
import { slackAdapter } from '../../src/gateways/slack.adapter.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { removeListenerGateways, removeWebhookGateway, setAsideGlobalMiddleware } from './harness/gateways.js'
import { collectLogs } from './harness/app.js'

const SIGNING_SECRET = 'behaviour-suite-slack-signing-secret'
const TEAM = 'T0TODO'
let app: SessionApp
let services: any
let nodeServer: PikkuNodeHTTPServer
/** The app on @pikku/node-http-server, where every test but the Express one sends. */
let nodeUrl: string
const posted: Array<Record<string, unknown>> = []

before(async () => {
  process.env.SLACK_SIGNING_SECRET = SIGNING_SECRET
  process.env.SLACK_BOT_TOKEN = 'xoxb-behaviour-suite'
  app = await startSessionApp()
  services = app.services
  const port = await freePort()
  nodeServer = new PikkuNodeHTTPServer({ ...services.config, port, hostname: '127.0.0.1' }, services.logger)
  await nodeServer.init()
  await nodeServer.start()
  nodeUrl = `http://127.0.0.1:${port}`
})
after(async () => {
  nodeServer.server.closeAllConnections()
  await new Promise((resolve) => nodeServer.server.close(resolve))
  await app.stop()
})
beforeEach(() => (posted.length = 0))

/** POSTs a body to /webhooks/slack, signed as Slack signs it (v0, HMAC-SHA256 over "v0:<timestamp>:<body>"). */
const sendToSlackRoute = (payload: unknown, { secret = SIGNING_SECRET, ageSeconds = 0, signed = true, url = nodeUrl } = {}) => {
  const body = JSON.stringify(payload)
  const timestamp = String(Math.floor(Date.now() / 1000) - ageSeconds)
  const signature = 'v0=' + createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')
  return fetch(`${url}/webhooks/slack`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signed ? { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp } : {}),
    },
    body,
  })
}

const messageEvent = (event: Record<string, unknown>) => ({
  type: 'event_callback',
  team_id: TEAM,
  event: { type: 'message', channel: 'C0TEAM', ts: '1700000000.000100', ...event },
})

/** The name and message of the error a response carries. */
const errorOf = async (response: Response) => {
  const { name, message } = await response.json()
  return { name, message }
}

/** After the adapter exists (built on the gateway's first request), record what the workspace client posts. */
const recordReplies = async () => {
  const adapter: any = await slackAdapter(services)
  adapter.clientCache.set(TEAM, { chat: { postMessage: async (options: Record<string, unknown>) => void posted.push(options) } })
}

test('url-verification-challenge: a signed url_verification request is answered with its challenge', async () => {
  const response = await sendToSlackRoute({ type: 'url_verification', challenge: 'challenge-123' })
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { challenge: 'challenge-123' })
})

test('wrong-secret-401: a request signed with another secret answers 401', async () => {
  const response = await sendToSlackRoute(messageEvent({ user: 'U1', text: 'todos' }), { secret: 'not-the-secret' })
  assert.equal(response.status, 401)
  assert.deepEqual(await errorOf(response), { name: 'UnauthorizedError', message: 'Invalid Slack request signature' })
})

test('missing-signature-401: a request without Slack\'s signature headers answers 401', async () => {
  const response = await sendToSlackRoute({ type: 'url_verification', challenge: 'x' }, { signed: false })
  assert.equal(response.status, 401)
  assert.deepEqual(await errorOf(response), { name: 'UnauthorizedError', message: 'Missing Slack signature headers' })
})

test('stale-request-401: a correctly signed request more than five minutes old answers 401', async () => {
  const fresh = await sendToSlackRoute({ type: 'url_verification', challenge: 'ok' }, { ageSeconds: 290 })
  assert.equal(fresh.status, 200)
  const stale = await sendToSlackRoute({ type: 'url_verification', challenge: 'late' }, { ageSeconds: 301 })
  assert.equal(stale.status, 401)
  assert.deepEqual(await errorOf(stale), { name: 'UnauthorizedError', message: 'Invalid Slack request signature' })
})

test('future-request-401: a correctly signed request dated more than five minutes ahead of the server\'s clock answers 401 too', async () => {
  const near = await sendToSlackRoute({ type: 'url_verification', challenge: 'ok' }, { ageSeconds: -290 })
  assert.equal(near.status, 200)
  // Well past the limit: time spent before the server reads its clock shrinks how far ahead the request looks.
  const ahead = await sendToSlackRoute({ type: 'url_verification', challenge: 'early' }, { ageSeconds: -330 })
  assert.equal(ahead.status, 401)
  assert.deepEqual(await errorOf(ahead), { name: 'UnauthorizedError', message: 'Invalid Slack request signature' })
})

test('global-bearer-middleware-500: a message that reaches the function answers 500, because the app\'s global authBearer reads secrets the gateway took away', async () => {
  await recordReplies()
  const response = await sendToSlackRoute(messageEvent({ user: 'U0ALICE', text: 'todos' }))
  assert.equal(response.status, 500)
  const body = await response.json()
  assert.match(body.message, /^'secrets' is not available inside a pikku function\./)
  // The body carries the SecretAccessDeniedError's message, not its name.
  assert.equal(body.name, undefined)
  assert.match(body.stack, /auth-bearer\.js/)
  assert.deepEqual(posted, [])
})

test('ignored-events: bot messages, edits, deletes, other event types and events without a user or text are acknowledged with { ok: true } and never reach the function', async () => {
  await recordReplies()
  const ignored = [
    messageEvent({ user: 'U0ALICE', text: 'todos', bot_id: 'B1' }),
    messageEvent({ user: 'U0ALICE', text: 'todos', subtype: 'message_changed' }),
    messageEvent({ user: 'U0ALICE', text: 'todos', subtype: 'message_deleted' }),
    messageEvent({ user: 'U0ALICE' }),
    messageEvent({ text: 'todos' }),
    { type: 'event_callback', team_id: TEAM, event: { type: 'reaction_added', user: 'U0ALICE' } },
  ]
  for (const payload of ignored) {
    const response = await sendToSlackRoute(payload)
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { ok: true })
  }
  assert.deepEqual(posted, [])
  // A thread_broadcast is the one subtype that gets through to the function (and so to the 500 above).
  const broadcast = await sendToSlackRoute(messageEvent({ user: 'U0NOBODY', text: 'todos', subtype: 'thread_broadcast' }))
  assert.equal(broadcast.status, 500)
  // So does an app_mention event from a user.
  const mention = await sendToSlackRoute({ type: 'event_callback', team_id: TEAM, event: { type: 'app_mention', user: 'U0ALICE', text: '<@B0BOT> todos', channel: 'C0TEAM', ts: '1700000000.000200' } })
  assert.equal(mention.status, 500)
})

test('slack-send-posts-nothing: the Slack adapter\'s send(senderId, message) resolves without posting anything to the workspace', async () => {
  await sendToSlackRoute({ type: 'url_verification', challenge: 'build-the-adapter' })
  await recordReplies()
  const adapter: any = await slackAdapter(services)
  await adapter.send('U0ALICE', { text: 'a reply the function returned' })
  assert.deepEqual(posted, [])
})

test('get-route-401: GET /webhooks/slack exists and, unsigned, answers 401', async () => {
  const response = await fetch(`${nodeUrl}/webhooks/slack`)
  assert.equal(response.status, 401)
})

test('express-json-body-401: on @pikku/express a correctly signed JSON request answers 401, as the adapter gets an empty raw body', async () => {
  const response = await sendToSlackRoute({ type: 'url_verification', challenge: 'challenge-123' }, { url: app.url })
  assert.equal(response.status, 401)
  assert.equal((await errorOf(response)).name, 'UnauthorizedError')
  // The same request on @pikku/node-http-server passes.
  const passed = await sendToSlackRoute({ type: 'url_verification', challenge: 'challenge-123' })
  assert.equal(passed.status, 200)
})

/** A hand-written gateway adapter that records what parse receives and lets nothing through; `more` adds methods. */
const recordingAdapter = (parsed: unknown[], more: Record<string, unknown> = {}) => ({
  name: 'probe',
  parse: (data: unknown) => (parsed.push(data), null),
  send: async () => {},
  init: async () => {},
  close: async () => {},
  ...more,
})

test('verify-result-on-post: on POST, a verifyWebhook result of { verified: false } lets the event on to parse, and { verified: true } answers with its response in place of the event', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const parsed: unknown[] = []
  let verdict: { verified: false } | { verified: true; response: unknown } = { verified: false }
  const name = 'verify-probe'
  const route = '/webhooks/verify-probe'
  const funcIds = [`gateway__${name}__post`, `gateway__${name}__verify`, `gateway__${name}__handler`]
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  try {
    // A hand-written adapter that reports a bad signature by returning { verified: false }, as the type allows.
    wireGateway({
      name,
      type: 'webhook',
      route,
      adapter: recordingAdapter(parsed, { verifyWebhook: async () => verdict }),
      func: { func: async () => {} },
    } as any)
    // The metadata `pikku` would have generated for the route and its function.
    httpMeta.post[route] = { pikkuFuncId: funcIds[0], route, method: 'post', requiresSession: false }
    funcMeta[funcIds[0]] = { pikkuFuncId: funcIds[0], inputSchemaName: null, outputSchemaName: null, sessionless: true }
    const post = () => fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"forged":true}' })

    const failed = await post()
    assert.equal(failed.status, 200)
    assert.deepEqual(await failed.json(), { ok: true })
    assert.deepEqual(parsed, [{ forged: true }])

    verdict = { verified: true, response: { checked: true } }
    const passed = await post()
    assert.equal(passed.status, 200)
    assert.deepEqual(await passed.json(), { checked: true })
    assert.equal(parsed.length, 1)
  } finally {
    await removeWebhookGateway(name, route, funcIds)
  }
})

test('webhook-global-middleware-twice: on a webhook gateway the global middleware runs twice per message that reaches the function, once around the route before verifyWebhook and again around the function, with the gateway\'s own middleware between; once for a request that verifyWebhook answers or whose event parse drops', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const order: string[] = []
  const name = 'global-twice-probe'
  const route = '/webhooks/global-twice-probe'
  // The adapter has verifyWebhook, so wireGateway also registers a GET route and its verify function: all are removed below.
  const funcIds = [`gateway__${name}__post`, `gateway__${name}__verify`, `gateway__${name}__handler`]
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  // The app's globals read secrets, which the inner run lacks (see global-bearer-middleware-500): one probe stands in.
  const restoreGlobals = await setAsideGlobalMiddleware()
  ;(pikkuState(null, 'middleware', 'global') as any[]).push(async (_services: unknown, _wire: unknown, next: () => Promise<void>) => {
    order.push('global')
    await next()
  })
  try {
    wireGateway({
      name,
      type: 'webhook',
      route,
      adapter: {
        name: 'probe',
        // An event the adapter does not handle comes back from parse as null.
        parse: (data: any) => (data?.skip ? null : { senderId: 'U1', text: 'hi', raw: data }),
        send: async () => {},
        init: async () => {},
        close: async () => {},
        // A challenge is answered by verifyWebhook itself.
        verifyWebhook: async (data: any) => (order.push('verifyWebhook'), data?.challenge ? { verified: true, response: { challenge: data.challenge } } : { verified: false }),
      },
      middleware: [async (_services: unknown, _wire: unknown, next: () => Promise<void>) => {
        order.push('gateway middleware')
        await next()
      }],
      func: { func: async () => void order.push('function') },
    } as any)
    // The metadata `pikku` would have generated for the route and its function.
    httpMeta.post[route] = { pikkuFuncId: funcIds[0], route, method: 'post', requiresSession: false }
    funcMeta[funcIds[0]] = { pikkuFuncId: funcIds[0], inputSchemaName: null, outputSchemaName: null, sessionless: true }

    const response = await fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    assert.equal(response.status, 200)
    assert.deepEqual(order, ['global', 'verifyWebhook', 'gateway middleware', 'global', 'function'])
    // A request whose event parse drops never reaches the function: the global middleware runs once, for the route.
    order.length = 0
    const dropped = await fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"skip":true}' })
    assert.equal(dropped.status, 200)
    assert.deepEqual(order, ['global', 'verifyWebhook'])
    // Nor does one that verifyWebhook answers itself.
    order.length = 0
    const challenge = await fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"challenge":"c1"}' })
    assert.deepEqual(await challenge.json(), { challenge: 'c1' })
    assert.deepEqual(order, ['global', 'verifyWebhook'])
  } finally {
    restoreGlobals()
    await removeWebhookGateway(name, route, funcIds)
  }
})

test('listener-errors-not-caught: LocalGatewayService.start() rejects when a listener adapter\'s init throws, and starts no listener after it; an error from the function rejects the adapter\'s onMessage promise, unlogged', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { LocalGatewayService } = await import('@pikku/core/services')
  const { pikkuState } = await import('@pikku/core/state')
  const names = ['listener-probe-broken', 'listener-probe-later']
  const inits: string[] = []
  let onMessage: ((data: unknown) => Promise<void>) | undefined
  const gateways = new LocalGatewayService()
  // The app's globals run on this path too; they are set aside so that only the function can throw.
  const restoreGlobals = await setAsideGlobalMiddleware()
  const errors: string[] = []
  const originalError = services.logger.error
  services.logger.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
  const listener = (name: string, init: (handler: (data: unknown) => Promise<void>) => Promise<void>) =>
    wireGateway({
      name,
      type: 'listener',
      adapter: { name: 'probe', parse: (data: unknown) => ({ senderId: 'U1', text: String(data), raw: data }), send: async () => {}, init, close: async () => {} },
      func: { func: async () => { throw new Error('the function failed') } },
    } as any)
  try {
    listener(names[0], async () => {
      inits.push(names[0])
      throw new Error('cannot connect')
    })
    listener(names[1], async (handler) => {
      inits.push(names[1])
      onMessage = handler
    })
    await assert.rejects(gateways.start(), { message: 'cannot connect' })
    assert.deepEqual(inits, [names[0]])

    // With the broken one gone, the other starts; its function's error comes back to the adapter.
    pikkuState(null, 'gateway', 'gateways').delete(names[0])
    await gateways.start()
    await assert.rejects(onMessage!('hello'), { message: 'the function failed' })
    assert.deepEqual(errors, [])
  } finally {
    services.logger.error = originalError
    restoreGlobals()
    await removeListenerGateways(gateways, names)
  }
})

test('listener-lifecycle: a listener gateway adds no HTTP route or channel; LocalGatewayService.start() calls its adapter factory with the singleton services (secrets readable) and init(onMessage), stop() calls close(); a returned message goes to the adapter\'s send', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { LocalGatewayService } = await import('@pikku/core/services')
  const { pikkuState } = await import('@pikku/core/state')
  const name = 'listener-lifecycle-probe'
  const events: string[] = []
  const sent: Array<[string, unknown]> = []
  let onMessage: ((data: unknown) => Promise<void>) | undefined
  const routes = pikkuState(null, 'http', 'routes')
  const countRoutes = () => [...routes.values()].reduce((n, m) => n + m.size, 0)
  const routesBefore = countRoutes()
  const channelsBefore = pikkuState(null, 'channel', 'channels').size
  const gateways = new LocalGatewayService()
  const restoreGlobals = await setAsideGlobalMiddleware()
  try {
    wireGateway({
      name,
      type: 'listener',
      adapter: (factoryServices: any) => {
        events.push(factoryServices.secrets === services.secrets ? 'factory: singleton secrets' : 'factory: other services')
        return {
          name: 'probe',
          parse: (data: unknown) => ({ senderId: 'U1', text: String(data), raw: data }),
          send: async (senderId: string, message: unknown) => void sent.push([senderId, message]),
          init: async (handler: (data: unknown) => Promise<void>) => void (events.push('init'), (onMessage = handler)),
          close: async () => void events.push('close'),
        }
      },
      func: { func: async (_services: unknown, data: any) => ({ text: `echo ${data.text}` }) },
    } as any)
    assert.equal(countRoutes(), routesBefore)
    assert.equal(pikkuState(null, 'channel', 'channels').size, channelsBefore)
    assert.deepEqual(events, [])
    await gateways.start()
    assert.deepEqual(events, ['factory: singleton secrets', 'init'])
    await onMessage!('hello')
    assert.deepEqual(sent, [['U1', { text: 'echo hello' }]])
    await gateways.stop()
    assert.deepEqual(events, ['factory: singleton secrets', 'init', 'close'])
  } finally {
    restoreGlobals()
    await removeListenerGateways(gateways, [name])
  }
})

/** A listener adapter for probes: every message comes from `U0ALICE` with its text as is; `take` gets the handler. */
const aliceListenerAdapter = (take: (handler: (data: unknown) => Promise<void>) => void) => ({
  name: 'probe',
  parse: (data: unknown) => ({ senderId: 'U0ALICE', text: String(data), raw: data }),
  send: async () => {},
  init: async (handler: (data: unknown) => Promise<void>) => take(handler),
  close: async () => {},
})

test('listener-wire-no-set-session: a listener gateway\'s middleware gets a wire without setSession; a session it assigns to wire.session reaches a gateway with auth: true', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { LocalGatewayService } = await import('@pikku/core/services')
  const { pikkuState } = await import('@pikku/core/state')
  const name = 'listener-session-probe'
  const seen: unknown[] = []
  let onMessage: ((data: unknown) => Promise<void>) | undefined
  let assign = false
  const gateways = new LocalGatewayService()
  // The app's globals run on this path too; they are set aside so that only the probe's middleware acts.
  const restoreGlobals = await setAsideGlobalMiddleware()
  try {
    wireGateway({
      name,
      type: 'listener',
      auth: true,
      adapter: aliceListenerAdapter((handler) => void (onMessage = handler)),
      middleware: [async (_services: unknown, wire: any, next: () => Promise<void>) => {
        seen.push(typeof wire.setSession)
        if (assign) wire.session = { userId: wire.gateway.senderId }
        await next()
      }],
      func: { func: async (_services: unknown, _data: unknown, wire: any) => void seen.push(wire.session) },
    } as any)
    await gateways.start()
    await assert.rejects(onMessage!('todos'), { name: 'ForbiddenError' })
    assign = true
    await onMessage!('todos')
    assert.deepEqual(seen, ['undefined', 'undefined', { userId: 'U0ALICE' }])
  } finally {
    restoreGlobals()
    await removeListenerGateways(gateways, [name])
  }
})

test('gateway-auth-false-not-open: a gateway with auth: false whose function is declared as a pikkuFunc still refuses a message without a session with ForbiddenError, and logs the "auth was explicitly disabled" warning', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { LocalGatewayService } = await import('@pikku/core/services')
  const { pikkuState } = await import('@pikku/core/state')
  const name = 'auth-false-probe'
  const declaredId = 'authFalseProbeFunc'
  // The metadata `pikku` writes for a gateway whose func is a pikkuFunc: the gateway names it, and it needs a session.
  const gatewayMeta = pikkuState(null, 'gateway', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  gatewayMeta[name] = { name, type: 'listener', pikkuFuncId: declaredId }
  funcMeta[declaredId] = { pikkuFuncId: declaredId, inputSchemaName: null, outputSchemaName: null, sessionless: false }
  const ran: unknown[] = []
  const { lines: warnings, restore: restoreWarn } = collectLogs(services, 'warn')
  let onMessage: ((data: unknown) => Promise<void>) | undefined
  const gateways = new LocalGatewayService()
  const restoreGlobals = await setAsideGlobalMiddleware()
  try {
    wireGateway({
      name,
      type: 'listener',
      auth: false,
      adapter: aliceListenerAdapter((handler) => void (onMessage = handler)),
      func: { func: async () => void ran.push('ran') },
    } as any)
    await gateways.start()
    await assert.rejects(onMessage!('todos'), { name: 'ForbiddenError', message: 'Authentication required' })
    assert.deepEqual(ran, [])
    assert.ok(warnings.some((w) => w.includes('requires a session but auth was explicitly disabled')), warnings.join('\n'))
  } finally {
    restoreWarn()
    restoreGlobals()
    delete gatewayMeta[name]
    delete funcMeta[declaredId]
    await removeListenerGateways(gateways, [name])
  }
})

test('webhook-wire-services-from-route: a webhook gateway\'s function gets the wire services built for its route\'s handler, before wire.gateway is set and before the function\'s own session check', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const name = 'wire-services-probe'
  const route = '/webhooks/wire-services-probe'
  const funcIds = [`gateway__${name}__post`, `gateway__${name}__handler`]
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  const factories = pikkuState(null, 'package', 'factories') as any
  const originalFactory = factories.createWireServices
  const built: Array<{ gatewaySet: boolean }> = []
  factories.createWireServices = async (services: unknown, wire: any) => {
    const probe = { gatewaySet: wire?.gateway !== undefined }
    built.push(probe)
    return { ...(await originalFactory?.(services, wire)), probe }
  }
  // The app's globals read secrets, which the function's run lacks (see global-bearer-middleware-500).
  const restoreGlobals = await setAsideGlobalMiddleware()
  const received: unknown[] = []
  const config: any = {
    name,
    type: 'webhook',
    route,
    auth: true,
    adapter: { name: 'probe', parse: (data: unknown) => ({ senderId: 'U1', text: 'hi', raw: data }), send: async () => {}, init: async () => {}, close: async () => {} },
    func: { func: async ({ probe }: any) => void received.push(probe) },
  }
  try {
    wireGateway(config)
    // The metadata `pikku` would have generated for the route and its function.
    httpMeta.post[route] = { pikkuFuncId: funcIds[0], route, method: 'post', requiresSession: false }
    funcMeta[funcIds[0]] = { pikkuFuncId: funcIds[0], inputSchemaName: null, outputSchemaName: null, sessionless: true }
    const post = () => fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })

    // auth: true and no session: the function is refused, after the route's wire services were built.
    const refused = await post()
    assert.equal(refused.status, 403)
    assert.deepEqual(await errorOf(refused), { name: 'ForbiddenError', message: 'Authentication required' })
    assert.deepEqual(built, [{ gatewaySet: false }])

    config.auth = undefined
    const accepted = await post()
    assert.equal(accepted.status, 200)
    assert.equal(built.length, 2)
    assert.equal(received[0], built[1])
    assert.deepEqual(received, [{ gatewaySet: false }])
  } finally {
    factories.createWireServices = originalFactory
    restoreGlobals()
    await removeWebhookGateway(name, route, funcIds)
  }
})

test('webhook-route-constant-500: a webhook gateway whose route pikku recorded under the constant\'s name, as it does for `route: SOME_CONSTANT`, answers every POST on the real path with 500 before the adapter runs', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const parsed: unknown[] = []
  const name = 'constant-route-probe'
  const route = '/webhooks/constant-route-probe'
  const funcIds = [`gateway__${name}__post`, `gateway__${name}__handler`]
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  try {
    wireGateway({
      name,
      type: 'webhook',
      route,
      adapter: recordingAdapter(parsed),
      func: { func: async () => {} },
    } as any)
    // What `pikku` generates for `route: PROBE_ROUTE`: the route's metadata keyed by the constant's name.
    httpMeta.post.PROBE_ROUTE = { pikkuFuncId: funcIds[0], route: 'PROBE_ROUTE', method: 'post' }
    funcMeta[funcIds[0]] = { pikkuFuncId: funcIds[0], inputSchemaName: null, outputSchemaName: null }
    const response = await fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":1}' })
    // The gateway set its route without the metadata check a plain wireHTTP route gets (which skips the route with a
    // warning, so it answers 404); the runner then reads the missing metadata and throws.
    assert.equal(response.status, 500)
    assert.equal((await response.json()).message, "Cannot read properties of undefined (reading 'headersSchemaName')")
    assert.deepEqual(parsed, [])
  } finally {
    delete httpMeta.post.PROBE_ROUTE
    await removeWebhookGateway(name, route, funcIds)
  }
})

test('adapter-factory-cached: a webhook gateway keeps the first promise its adapter factory gives, a rejected one too, so later messages fail without a second call; a factory that throws before it returns a promise is called again', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  const calls = { rejecting: 0, throwing: 0 }
  const factories = {
    // An async factory: its failure is a rejected promise, which the gateway keeps.
    rejecting: async () => {
      calls.rejecting++
      if (calls.rejecting === 1) throw new Error('first build fails')
      return recordingAdapter([])
    },
    // A plain function that throws: no promise is made, so nothing is kept.
    throwing: () => {
      calls.throwing++
      if (calls.throwing === 1) throw new Error('first build fails')
      return recordingAdapter([])
    },
  }
  const wired: Array<[string, string, string[]]> = []
  try {
    for (const kind of ['rejecting', 'throwing'] as const) {
      const name = `factory-${kind}-probe`
      const route = `/webhooks/factory-${kind}-probe`
      // A factory adapter also gets a GET route and its verify function: all are removed below.
      const funcIds = [`gateway__${name}__post`, `gateway__${name}__verify`, `gateway__${name}__handler`]
      wired.push([name, route, funcIds])
      wireGateway({ name, type: 'webhook', route, adapter: factories[kind], func: { func: async () => {} } } as any)
      // The metadata `pikku` would have generated for the route and its function.
      httpMeta.post[route] = { pikkuFuncId: funcIds[0], route, method: 'post', requiresSession: false }
      funcMeta[funcIds[0]] = { pikkuFuncId: funcIds[0], inputSchemaName: null, outputSchemaName: null, sessionless: true }
    }
    const post = (kind: string) =>
      fetch(`${nodeUrl}/webhooks/factory-${kind}-probe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })

    // Both answers carry the first build's error: the second POST gets the kept rejected promise.
    for (let i = 0; i < 2; i++) {
      const failed = await post('rejecting')
      assert.equal(failed.status, 500)
      assert.equal((await failed.json()).message, 'first build fails')
    }
    assert.equal(calls.rejecting, 1)

    const thrown = await post('throwing')
    assert.equal(thrown.status, 500)
    assert.equal((await thrown.json()).message, 'first build fails')
    const second = await post('throwing')
    assert.equal(second.status, 200)
    assert.deepEqual(await second.json(), { ok: true })
    assert.equal(calls.throwing, 2)
  } finally {
    for (const [name, route, funcIds] of wired) await removeWebhookGateway(name, route, funcIds)
  }
})

test('webhook-factory-secretless-reply-sent: a webhook gateway calls its adapter factory on the first request with services that lack secrets; GET answers 404 when the adapter has no verifyWebhook; a returned message with text goes to the adapter\'s send, other results do not', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  const name = 'factory-services-probe'
  const route = '/webhooks/factory-services-probe'
  const funcIds = [`gateway__${name}__post`, `gateway__${name}__verify`, `gateway__${name}__handler`]
  // The app's globals read secrets, which the function's run lacks (see global-bearer-middleware-500).
  const restoreGlobals = await setAsideGlobalMiddleware()
  const factoryCalls: string[] = []
  const sent: Array<[string, unknown]> = []
  let reply: unknown = { text: 'done' }
  try {
    wireGateway({
      name,
      type: 'webhook',
      route,
      adapter: (factoryServices: any) => {
        try {
          void factoryServices.secrets.getSecret
          factoryCalls.push('secrets readable')
        } catch (e: any) {
          factoryCalls.push(e.name)
        }
        return {
          name: 'probe',
          parse: (data: any) => ({ senderId: data.from, text: 'hi', raw: data }),
          send: async (senderId: string, message: unknown) => void sent.push([senderId, message]),
          init: async () => {},
          close: async () => {},
        }
      },
      func: { func: async () => reply },
    } as any)
    // The metadata `pikku` would have generated for the routes and the function.
    httpMeta.post[route] = { pikkuFuncId: funcIds[0], route, method: 'post', requiresSession: false }
    httpMeta.get[route] = { pikkuFuncId: funcIds[1], route, method: 'get', requiresSession: false }
    for (const id of funcIds.slice(0, 2)) funcMeta[id] = { pikkuFuncId: id, inputSchemaName: null, outputSchemaName: null, sessionless: true }
    const post = () => fetch(`${nodeUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"from":"U1"}' })

    assert.deepEqual(factoryCalls, [])
    const first = await post()
    assert.equal(first.status, 200)
    assert.deepEqual(await first.json(), { ok: true })
    assert.deepEqual(factoryCalls, ['SecretAccessDeniedError'])
    assert.deepEqual(sent, [['U1', { text: 'done' }]])

    // richContent or attachments alone count as a reply too; a result without any of the three is not sent.
    reply = { richContent: { blocks: [] } }
    assert.equal((await post()).status, 200)
    reply = { attachments: [{ url: 'https://example.com/a.png' }] }
    assert.equal((await post()).status, 200)
    reply = { status: 'quiet' }
    assert.equal((await post()).status, 200)
    assert.deepEqual(sent.map(([, message]) => message), [{ text: 'done' }, { richContent: { blocks: [] } }, { attachments: [{ url: 'https://example.com/a.png' }] }])

    // The factory's adapter has no verifyWebhook: the GET route exists but answers 404.
    const get = await fetch(`${nodeUrl}${route}`)
    assert.equal(get.status, 404)
    assert.equal((await errorOf(get)).name, 'NotFoundError')
    assert.deepEqual(factoryCalls, ['SecretAccessDeniedError'])
  } finally {
    restoreGlobals()
    delete httpMeta.get[route]
    await removeWebhookGateway(name, route, funcIds)
  }
})

test('gateway-requires-route: wireGateway throws for a webhook or websocket gateway wired without route', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { pikkuState } = await import('@pikku/core/state')
  const adapter = recordingAdapter([])
  try {
    assert.throws(() => wireGateway({ name: 'slack-no-route', type: 'webhook', adapter, func: { func: async () => {} } } as any), {
      message: "Webhook gateway 'slack-no-route' requires a route",
    })
    assert.throws(() => wireGateway({ name: 'ws-no-route', type: 'websocket', adapter, func: { func: async () => {} } } as any), {
      message: "WebSocket gateway 'ws-no-route' requires a route",
    })
  } finally {
    for (const name of ['slack-no-route', 'ws-no-route']) pikkuState(null, 'gateway', 'gateways').delete(name)
  }
})

test('gateway-cli-codes: the inspector reports a wireGateway object literal without func as a critical PKU236, skips a call whose argument is not an object literal, records a webhook route held in a constant under the constant\'s name without a report, and reports wireGateway in an addon as a critical PKU920', async () => {
  const head = [
    "import { wireGateway } from '@pikku/core/gateway'",
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    'const adapter = {} as any',
    'const handle = pikkuSessionlessFunc<void, void>({ func: async () => {} })',
    '',
  ].join('\n')
  const run = async (name: string, body: string, isAddon = false) =>
    codes((await inspectFiles(name, { 'probe.ts': head + body }, { isAddon })).reported).filter((c) => /^PKU(236|920) /.test(c))
  assert.deepEqual(await run('gateway-no-func', "wireGateway({ name: 'g', type: 'listener', adapter })\n"), ['PKU236 critical'])
  // An object cast with `as` is not an object literal to the inspector either.
  assert.deepEqual(await run('gateway-cast', "wireGateway({ name: 'g', type: 'listener', adapter } as any)\n"), [])
  assert.deepEqual(await run('gateway-variable', "const config = { name: 'g', type: 'listener', adapter } as any\nwireGateway(config)\n"), [])
  assert.deepEqual(await run('gateway-with-func', "wireGateway({ name: 'g', type: 'listener', adapter, func: handle })\n"), [])
  // A route held in a constant: the webhook's route metadata is keyed by the constant's name, and nothing is reported.
  const constant = await inspectFiles('gateway-route-constant', {
    'probe.ts': head + "const PROBE_ROUTE = '/webhooks/probe'\nwireGateway({ name: 'g', type: 'webhook', route: PROBE_ROUTE, adapter, func: handle })\n",
  })
  assert.deepEqual(codes(constant.reported), [])
  assert.deepEqual(Object.keys((constant.state as any).http.meta.post), ['PROBE_ROUTE'])
  assert.equal((constant.state as any).http.meta.post.PROBE_ROUTE.route, 'PROBE_ROUTE')
  assert.deepEqual(await run('gateway-in-addon', "wireGateway({ name: 'g', type: 'listener', adapter, func: handle })\n", true), ['PKU920 critical'])
})
