// The to-do app on Fastify 5 through @pikku/fastify-plugin, set up as src/runtimes/fastify-plugin.ts does: a Fastify
// route of the app's own next to the plugin's catch-all, maxBodySize 2 MiB. Sessions from the app's jwt service.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { spawn } from 'node:child_process'
import type { JWTService } from '@pikku/core/services'
import { PikkuFastifyServer } from '@pikku/fastify'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import pikkuFastifyPlugin from '@pikku/fastify-plugin'
import { startFastifyApp } from './harness/fastify.js'
import { assertLoggerStartupOnly, assertStopWaitsForStream, type RunningApp } from './harness/app.js'
import { APP_DIR } from './harness/node-process.js'
import { withProbeRoute, withRawBytesRoute } from './harness/core-probes.js'
import { freePort } from './harness/services.js'
import { bearer, createTestJWT } from './harness/http.js'

let app: RunningApp
let jwt: JWTService
let alice: Record<string, string>
before(async () => {
  jwt = await createTestJWT()
  app = await startFastifyApp({ jwt })
  alice = await bearer(jwt, 'alice')
})
after(() => app.stop())

const json = { 'content-type': 'application/json' }

/**
 * A second Fastify instance beside the app's server, with the plugin registered on it (`prefix` beside the `pikku`
 * key, which gets the app's logger plus `pikku`); `prepare` runs before the plugin is registered, and the instance
 * is closed after `use`.
 */
const withPlugin = async (
  setup: {
    fastify?: FastifyServerOptions
    pikku?: Record<string, unknown>
    prefix?: string
    prepare?: (instance: FastifyInstance) => void
  },
  use: (instance: FastifyInstance) => Promise<void>,
) => {
  const instance = Fastify(setup.fastify)
  setup.prepare?.(instance)
  await instance.register(pikkuFastifyPlugin, {
    ...(setup.prefix ? { prefix: setup.prefix } : {}),
    pikku: { logger: app.services.logger, ...setup.pikku },
  })
  try {
    await use(instance)
  } finally {
    await instance.close()
  }
}

test('own-route: a Fastify route of the app\'s own answers next to the plugin\'s catch-all', async () => {
  const response = await fetch(`${app.url}/legacy/ping`)
  assert.equal(response.status, 200)
  assert.equal(await response.text(), 'pong')
})

test('catch-all-route: the plugin adds one Fastify route, /*, for every method', async () => {
  await withPlugin({}, async (second) => {
    await second.ready()
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const) {
      assert.equal(second.hasRoute({ method, url: '/*' }), true, method)
    }
    assert.equal(second.hasRoute({ method: 'GET', url: '/todos' }), false)
  })
})

test('health-200: GET /health is answered by Pikku with 200', async () => {
  const response = await fetch(`${app.url}/health`)
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { status: 'ok' })
})

test('session-required-403: POST /todos without a credential answers 403 ForbiddenError', async () => {
  const response = await fetch(`${app.url}/todos`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'Water the plants' }) })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Authentication required')
})

test('create-200: with a bearer token or the session cookie, POST /todos answers 200 with the new to-do', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'Water the plants' }),
  })
  assert.equal(response.status, 200)
  assert.equal((await response.json()).title, 'Water the plants')
  // The session cookie that authCookie (src/auth.ts) reads works here too.
  const token = await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'alice', role: 'member' })
  const withCookie = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { cookie: `todo_session=${token}`, ...json },
    body: JSON.stringify({ title: 'From a cookie session' }),
  })
  assert.equal(withCookie.status, 200)
  assert.equal((await withCookie.json()).ownerId, 'alice')
})

test('title-number-422: with a bearer token, POST /todos with a numeric title answers 422 UnprocessableContentError', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 42 }),
  })
  assert.equal(response.status, 422)
  assert.equal((await response.json()).name, 'UnprocessableContentError')
})

test('conflicting-keys-422-no-schema: the plugin\'s request reader refuses a key sent with different values in the path and the body with 422, with the app\'s schema service and without one', async () => {
  const created = await fetch(`${app.url}/todos`, { method: 'POST', headers: { ...alice, ...json }, body: JSON.stringify({ title: 'Conflict' }) })
  assert.equal(created.status, 200)
  const { todoId } = await created.json()
  const patch = async () => {
    const response = await fetch(`${app.url}/todos/${todoId}`, {
      method: 'PATCH',
      headers: { ...alice, ...json },
      body: JSON.stringify({ todoId: 'another-id', done: true }),
    })
    assert.equal(response.status, 422)
    assert.match((await response.json()).message, /^Conflicting values for key "todoId"/)
  }
  await patch()
  const services = app.services as { schema?: unknown }
  const schema = services.schema
  assert.ok(schema)
  delete services.schema
  try {
    await patch()
  } finally {
    services.schema = schema
  }
})

test('unknown-route-404: a path no wiring matches answers Pikku\'s JSON 404', async () => {
  const response = await fetch(`${app.url}/no-such-route`)
  assert.equal(response.status, 404)
  assert.equal((await response.json()).name, 'NotFoundError')
})

test("channel-path-500: a plain GET on the todos channel's path is not answered by Pikku, and Fastify's default error handler answers 500", async () => {
  const response = await fetch(`${app.url}/todos/live`)
  assert.equal(response.status, 500)
  const body = await response.json()
  assert.equal(body.name, undefined)
  assert.match(body.message, /reading 'route'/)
})

test('cors-preflight-204: a preflight for a path with no OPTIONS route answers 204 with the CORS headers', async () => {
  const response = await fetch(`${app.url}/todos/t1`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' },
  })
  assert.equal(response.status, 204)
  assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  assert.equal(response.headers.get('access-control-allow-credentials'), 'true')
  assert.equal(response.headers.get('access-control-max-age'), '86400')
  assert.equal(response.headers.get('vary'), 'Origin')
})

test('cors-preflight-unknown-path-204: a preflight for a path no wiring matches still answers 204 with the CORS headers; the real request then gets a 404 without them', async () => {
  const origin = 'http://localhost:5173'
  const preflight = await fetch(`${app.url}/no-such-route`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET' },
  })
  assert.equal(preflight.status, 204)
  assert.equal(preflight.headers.get('access-control-allow-origin'), origin)
  const response = await fetch(`${app.url}/no-such-route`, { headers: { origin } })
  assert.equal(response.status, 404)
  assert.equal(response.headers.get('access-control-allow-origin'), null)
})

test('query-boolean-422: ?done=false against done?: boolean answers 422 here too', async () => {
  const response = await fetch(`${app.url}/todos?done=false`, { headers: alice })
  assert.equal(response.status, 422)
  assert.equal((await response.json()).name, 'UnprocessableContentError')
})

test('max-body-size: with maxBodySize 2 MiB a 1.5 MB body is accepted, and a 3 MB one gets Fastify\'s own 413', async () => {
  const accepted = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'x'.repeat(1_500_000) }),
  })
  assert.equal(accepted.status, 200)
  const refused = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'x'.repeat(3_000_000) }),
  })
  assert.equal(refused.status, 413)
  assert.equal((await refused.json()).code, 'FST_ERR_CTP_BODY_TOO_LARGE')
})

test('instance-body-limit: without maxBodySize, the catch-all route keeps the Fastify instance\'s own bodyLimit, 1 MiB when the instance sets none', async () => {
  await withPlugin({ fastify: { bodyLimit: 1000 } }, async (second) => {
    const response = await second.inject({
      method: 'POST',
      url: '/todos',
      headers: { ...alice, ...json },
      payload: JSON.stringify({ title: 'x'.repeat(2000) }),
    })
    assert.equal(response.statusCode, 413)
    assert.equal(response.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  })
  // With no bodyLimit of its own, the instance keeps Fastify's default of 1 MiB.
  await withPlugin({}, async (second) => {
    const post = (length: number) =>
      second.inject({
        method: 'POST',
        url: '/todos',
        headers: { ...alice, ...json },
        payload: JSON.stringify({ title: 'x'.repeat(length) }),
      })
    assert.equal((await post(1_000_000)).statusCode, 200)
    const refused = await post(1_100_000)
    assert.equal(refused.statusCode, 413)
    assert.equal(refused.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  })
})

test('instance-body-limit-above-pikku-cap: with an instance bodyLimit above 10 MiB and no maxBodySize, Pikku still refuses a body over 10 MiB with its own 413', async () => {
  await withPlugin({ fastify: { bodyLimit: 16 * 1024 * 1024 } }, async (second) => {
    const response = await second.inject({
      method: 'POST',
      url: '/todos',
      headers: { ...alice, ...json },
      payload: JSON.stringify({ title: 'x'.repeat(11_000_000) }),
    })
    // Fastify let the body through; the plugin's request object applies core's DEFAULT_MAX_BODY_SIZE.
    assert.equal(response.statusCode, 413)
    assert.equal(response.json().name, 'PayloadTooLargeError')
  })
})

test('instance-body-limit-chunked-passes-pikku-cap: with an instance bodyLimit above 10 MiB and no maxBodySize, a JSON body over 10 MiB sent without Content-Length gets past Pikku\'s check', async () => {
  await withPlugin({ fastify: { bodyLimit: 16 * 1024 * 1024 } }, async (second) => {
    const body = JSON.stringify({ title: 'x'.repeat(11_000_000) })
    const response = await second.inject({
      method: 'POST',
      url: '/todos',
      headers: { ...alice, ...json, 'transfer-encoding': 'chunked' },
      payload: Readable.from([body]),
    })
    // Fastify parsed the body into an object; the plugin's check only measures a declared Content-Length or a raw body.
    assert.equal(response.statusCode, 200)
    assert.equal(response.json().title.length, 11_000_000)
  })
})

test('own-route-hides-pikku-route: an exact Fastify GET /todos, even registered after the plugin, answers instead of Pikku; POST /todos still reaches Pikku', async () => {
  await withPlugin({}, async (second) => {
    second.get('/todos', async () => 'old list')
    const listed = await second.inject({ method: 'GET', url: '/todos', headers: alice })
    assert.equal(listed.statusCode, 200)
    assert.equal(listed.body, 'old list')
    const created = await second.inject({
      method: 'POST',
      url: '/todos',
      headers: { ...alice, ...json },
      payload: JSON.stringify({ title: 'Still Pikku' }),
    })
    assert.equal(created.statusCode, 200)
    assert.equal(created.json().title, 'Still Pikku')
  })
})

test('bubble-errors-fastify-answers: with bubbleErrors the error goes to Fastify\'s error handler (its default one answers 500), and Pikku\'s own error response is not sent', async () => {
  const prepare = (second: FastifyInstance) =>
    second.setErrorHandler((error, _request, reply) => {
      void reply.status(409).send({ caught: (error as Error).name })
    })
  await withPlugin({ prepare, pikku: { bubbleErrors: true } }, async (second) => {
    const response = await second.inject({ method: 'GET', url: '/todos/t_42', headers: alice })
    assert.equal(response.statusCode, 409)
    assert.deepEqual(response.json(), { caught: 'NotFoundError' })
  })
  // With no error handler of the app's own, Fastify's default one answers: a 500, not Pikku's 404.
  await withPlugin({ pikku: { bubbleErrors: true } }, async (third) => {
    const response = await third.inject({ method: 'GET', url: '/todos/t_42', headers: alice })
    assert.equal(response.statusCode, 500)
    assert.equal(response.json().statusCode, 500)
  })
})

test('prefix-ignored: registered with prefix /api, the plugin still serves the wired paths and nothing under /api', async () => {
  await withPlugin({ prefix: '/api' }, async (second) => {
    assert.equal((await second.inject({ method: 'GET', url: '/health' })).statusCode, 200)
    const prefixed = await second.inject({ method: 'GET', url: '/api/health' })
    assert.equal(prefixed.statusCode, 404)
    assert.equal(prefixed.json().name, 'NotFoundError')
  })
})

test('form-body-415: a form-encoded body is refused by Fastify with 415 before Pikku reads it', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'title=From+a+form',
  })
  assert.equal(response.status, 415)
  assert.equal((await response.json()).code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
})

test('no-content-type-415: a POST body with no Content-Type is refused by Fastify with 415 FST_ERR_CTP_INVALID_MEDIA_TYPE', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: alice,
    body: new TextEncoder().encode(JSON.stringify({ title: 'x' })),
  })
  assert.equal(response.status, 415)
  assert.equal((await response.json()).code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
})

test('server-enable-cors-throws: PikkuFastifyServer.enableCors throws "Method not implemented."', () => {
  const server = new PikkuFastifyServer({ port: 0, hostname: '127.0.0.1' }, app.services.logger)
  assert.throws(() => server.enableCors({}), /Method not implemented\./)
})

test('server-health-check: PikkuFastifyServer.init() adds GET /health-check (or the config\'s healthCheckPath) answering {"status":"ok"}, and registers the plugin, which serves GET /health', async () => {
  for (const [config, path] of [[{}, '/health-check'], [{ healthCheckPath: '/probe-alive' }, '/probe-alive']] as const) {
    const server = new PikkuFastifyServer({ port: 0, hostname: '127.0.0.1', ...config }, app.services.logger)
    try {
      await server.init()
      const health = await server.app.inject({ method: 'GET', url: path })
      assert.equal(health.statusCode, 200)
      assert.deepEqual(health.json(), { status: 'ok' })
      const pikku = await server.app.inject({ method: 'GET', url: '/health' })
      assert.equal(pikku.statusCode, 200)
      if (path !== '/health-check') {
        assert.equal((await server.app.inject({ method: 'GET', url: '/health-check' })).json().name, 'NotFoundError')
      }
    } finally {
      await server.app.close()
    }
  }
})

test('server-stop-waits-for-stream: PikkuFastifyServer.stop(), which enableExitOnSigInt awaits before it exits, refuses new connections at once but resolves only once an open SSE stream has ended', async () => {
  const port = await freePort()
  const server = new PikkuFastifyServer({ port, hostname: '127.0.0.1' }, app.services.logger)
  await server.init()
  await server.start()
  await assertStopWaitsForStream(port, server.app.server, () => server.stop())
})

test('respond-404-false-empty-200: registered with respondWith404 false, the plugin ends an unknown path as an empty 200', async () => {
  await withPlugin({ pikku: { respondWith404: false } }, async (second) => {
    const response = await second.inject({ method: 'GET', url: '/no-such-route' })
    assert.equal(response.statusCode, 200)
    assert.equal(response.body, '')
  })
})

test('logger-startup-only: the plugin\'s logger option gets the route list and the schema report at registration, but a failing request is logged on the singleton logger, not on it', async () => {
  await assertLoggerStartupOnly(app.services, (logger, run) =>
    withPlugin({ pikku: { logger, logRoutes: true, loadSchemas: true } }, (second) =>
      run(async (route) => (await second.inject({ method: 'GET', url: route })).statusCode),
    ),
  )
})

test('options-without-pikku-key-throws: options passed without the pikku key make registration fail with "Cannot read properties of undefined (reading \'logRoutes\')"', async () => {
  const instance = Fastify()
  try {
    await assert.rejects(
      async () => {
        await instance.register(pikkuFastifyPlugin, { logger: app.services.logger } as never)
        await instance.ready()
      },
      /Cannot read properties of undefined \(reading 'logRoutes'\)/,
    )
  } finally {
    await instance.close()
  }
})

test('repeated-header-last-wins: a header the function sets twice, or as a list, keeps only its last value on Fastify; Set-Cookie keeps every value, and a Content-Type the function set is replaced by the runner\'s', async () => {
  const route = '/probe-headers'
  const func = {
    auth: false,
    func: async (_services: unknown, _data: unknown, { http }: any) => {
      http.response.header('Link', ['</a>; rel="first"', '</b>; rel="last"'])
      http.response.header('X-Probe', 'one')
      http.response.header('X-Probe', 'two')
      http.response.header('Content-Type', 'text/csv')
      http.response.cookie('first', '1', { path: '/' })
      http.response.cookie('second', '2', { path: '/' })
      return 'title,done'
    },
  }
  await withProbeRoute('probeHeaders', route, func, {}, async () => {
    const response = await fetch(`${app.url}${route}`)
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('link'), '</b>; rel="last"')
    assert.equal(response.headers.get('x-probe'), 'two')
    assert.deepEqual(response.headers.getSetCookie(), ['first=1; Path=/', 'second=2; Path=/'])
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    assert.equal(await response.json(), 'title,done')
  })
})

test('returns-json-false-arraybuffer-fastify: on a returnsJSON: false route, Fastify refuses an ArrayBuffer result with a 500 (FST_ERR_REP_INVALID_PAYLOAD_TYPE) and sends a Uint8Array as its bytes', async () => {
  await withRawBytesRoute(async (route, asUint8Array) => {
    const arrayBuffer = await fetch(`${app.url}${route}`)
    assert.equal(arrayBuffer.status, 500)
    assert.equal((await arrayBuffer.json()).code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
    asUint8Array()
    assert.equal(await (await fetch(`${app.url}${route}`)).text(), 'raw bytes')
  })
})

test('repeated-header-sse-keeps-all: on an sse route, a header the function sets twice arrives with both values on Fastify', async () => {
  const route = '/probe-headers-sse'
  const func = {
    auth: false,
    func: async (_services: unknown, _data: unknown, { http, channel }: any) => {
      http.response.header('X-Probe', 'one')
      http.response.header('X-Probe', 'two')
      channel.send({ n: 1 })
      channel.close()
    },
  }
  await withProbeRoute('probeHeadersSSE', route, func, { sse: true }, async () => {
    const response = await fetch(`${app.url}${route}`, { headers: { accept: 'text/event-stream' } })
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/)
    assert.equal(response.headers.get('x-probe'), 'one, two')
    assert.equal(await response.text(), 'data: {"n":1}\n\n')
  })
})

test('sse-hook-headers-dropped: a header a Fastify onRequest hook set with reply.header reaches a JSON route but not an sse route, where the headers Pikku set (its cors() middleware\'s among them) still arrive', async () => {
  await withPlugin({ prepare: (instance) => instance.addHook('onRequest', async (_request, reply) => { reply.header('x-test', '1') }) }, async (second) => {
    const plain = await second.inject({ method: 'GET', url: '/health' })
    assert.equal(plain.statusCode, 200)
    assert.equal(plain.headers['x-test'], '1')
    // Without a session the stream ends after its error events, so inject returns.
    const stream = await second.inject({ method: 'GET', url: '/todos/due-today' })
    assert.equal(stream.statusCode, 200)
    assert.equal(stream.headers['content-type'], 'text/event-stream')
    assert.equal(stream.headers['x-test'], undefined)
    assert.equal(stream.headers.vary, 'Origin')
    assert.equal(stream.headers['access-control-allow-headers'], 'Content-Type, Authorization, x-api-key')
  })
})

test('entry-file-signal-exit: src/runtimes/fastify.ts, run as its own process, closes the Fastify app and exits with code 0 on SIGTERM and on SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const port = await freePort()
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/behaviour/harness/entry-child.ts', 'src/runtimes/fastify.ts'], {
      cwd: APP_DIR,
      env: { ...process.env, PORT: String(port), NODE_TEST_CONTEXT: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stderr.on('data', (d) => (output += d))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      // The entry file has run to its end, app.listen() and the signal handlers included.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          output += d
          if (output.includes('entry-ready')) resolve()
        })
        exited.then(() => reject(new Error(`entry file exited early:\n${output}`)))
      })
      assert.equal((await fetch(`http://localhost:${port}/health`)).status, 200)
      child.kill(signal)
      assert.equal(await exited, 0, `${signal}: ${output}`)
      // The server is closed with it: nothing listens on the port any more.
      assert.equal(await fetch(`http://localhost:${port}/health`).then((r) => r.status, () => 0), 0)
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
  }
})
