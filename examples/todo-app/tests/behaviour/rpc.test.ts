// RPC behaviour of the to-do app on @pikku/express (core 0.12.90): the generated PikkuRPC client against the public
// POST /rpc/:rpcName endpoint, rpc.invoke between functions, rpc.remote through a RedisDeploymentService on a real
// redis-server, and what unknown or unexposed names answer.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { rpcService, RPCNotFoundError } from '@pikku/core/rpc'
import { runPikkuFunc } from '@pikku/core/function'
import { addGlobalMiddleware } from '@pikku/core/middleware'
import { pikkuState } from '@pikku/core/state'
import { addWireIdRecorder, registerProbe, withProbeRoute } from './harness/core-probes.js'
import { PikkuFetchError } from '@pikku/fetch'
import { RedisDeploymentService } from '@pikku/redis'
import { Redis } from 'ioredis'
import { PikkuRPC } from '../../.pikku/pikku-rpc.gen.js'
import { createJWTService } from '../../src/jwt-service.js'
import { startExpressApp, waitFor, type RunningApp } from './harness/app.js'
import { startRedis, type RunningService } from './harness/services.js'
import { APP_DIR, compileScratch } from './harness/node-process.js'

let app: RunningApp
let redis: RunningService
let token: string
let aliceTodoId: string
let bobTodoId: string
// The app's jwt service reads JWT_SECRET (and buildRemoteHeaders PIKKU_REMOTE_SECRET) through a secret service.
const secrets = new LocalSecretService(
  new LocalVariablesService({ JWT_SECRET: 'behaviour-suite-secret', PIKKU_REMOTE_SECRET: 'r'.repeat(32) }),
)

before(async () => {
  const jwt = await createJWTService(secrets)
  redis = await startRedis()
  app = await startExpressApp({ jwt })
  token = await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'alice' })
  aliceTodoId = (await app.services.todoStore.create({ ownerId: 'alice', title: 'Write docs', done: false })).todoId
  bobTodoId = (await app.services.todoStore.create({ ownerId: 'bob', title: 'Bob only', done: false })).todoId
})
after(async () => {
  await app.stop()
  await redis.stop()
})

/** The generated client (.pikku/pikku-rpc.gen.ts), pointed at the running app, signed in as alice unless told. */
const client = (signedIn = true) => {
  const rpc = new PikkuRPC()
  rpc.setServerUrl(app.url)
  if (signedIn) rpc.setAuthorizationJWT(token)
  return rpc
}

/** The PikkuFetchError a client call was rejected with. */
const fetchError = async (promise: Promise<unknown>): Promise<PikkuFetchError> => {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof PikkuFetchError, `expected a PikkuFetchError, got ${String(error)}`)
    return error
  }
  assert.fail('the call succeeded')
}

/** A raw POST to the app, as JSON, signed in as alice. */
const post = (path: string, body: unknown) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  })

/** wire.rpc as a runtime builds it for a call with this session (none for a queue job or scheduled task). */
const rpcAs = (session?: { userId: string }) => rpcService.getContextRPCService(app.services, session ? { session } : {}, false)

test('client-invoke: pikkuRPC.invoke runs an exposed function and resolves to its output', async () => {
  assert.deepEqual(await client().invoke('countOpenTodos'), { open: 1, overdue: 0 })
})

test('client-no-session-403: an exposed pikkuFunc called without a credential rejects with PikkuFetchError 403', async () => {
  const error = await fetchError(client(false).invoke('countOpenTodos'))
  assert.equal(error.status, 403)
  assert.equal(error.message, 'Authentication required')
})

test('client-invalid-data-422: data outside the function input schema is a 422 naming the field', async () => {
  // The client's types refuse a numeric cursor; a JavaScript caller can still send one.
  const error = await fetchError(client().invoke('pageTodos', { cursor: 5 } as never))
  assert.equal(error.status, 422)
  assert.match(error.message, /Property "cursor" does not match schema/)
})

test('client-addon-not-exposed-404: the typed RPC map lists an addon function under its namespace, so a call to one that is not exposed compiles and is answered 404', async () => {
  // chat:postToChat (the chat addon, reached by announceTodo through rpc.invoke) is not exposed; no cast is needed.
  const error = await fetchError(client().invoke('chat:postToChat', { text: 'hello' }))
  assert.equal(error.status, 404)
})

test('not-exposed-404: a function without expose: true answers 404 RPCNotFoundError, as if it did not exist', async () => {
  const response = await post('/rpc/deleteTodo', { rpcName: 'deleteTodo', data: { todoId: aliceTodoId } })
  assert.equal(response.status, 404)
  assert.deepEqual(
    { ...((await response.json()) as object), errorId: undefined },
    { name: 'RPCNotFoundError', message: 'RPC function not found: deleteTodo', errorId: undefined },
  )
  // The to-do is still there.
  assert.ok(await app.services.todoStore.get(aliceTodoId))
})

test('exposed-scenario-step-404: rpc.exposed refuses a function marked as a scenario step with RPCNotFoundError though it has expose: true', async () => {
  registerProbe('scenarioStepProbe', { func: async () => 'ran' }, { sessionless: true })
  const meta = pikkuState(null, 'function', 'meta') as Record<string, Record<string, unknown>>
  meta.scenarioStepProbe!.expose = true
  try {
    // Exposed and not a step: it runs...
    assert.equal(await rpcAs({ userId: 'alice' }).exposed('scenarioStepProbe', {}), 'ran')
    // ...and the same function marked as a step is refused as if it did not exist.
    meta.scenarioStepProbe!.scenarioStep = true
    await assert.rejects(rpcAs({ userId: 'alice' }).exposed('scenarioStepProbe', {}), (error: unknown) => {
      assert.ok(error instanceof RPCNotFoundError)
      assert.equal(error.message, 'RPC function not found: scenarioStepProbe')
      return true
    })
  } finally {
    delete meta.scenarioStepProbe
  }
})

test('unknown-name-404: a name no function has answers 404 with "RPC function not found: <name>"', async () => {
  const response = await post('/rpc/noSuchFunction', { rpcName: 'noSuchFunction' })
  assert.equal(response.status, 404)
  assert.equal(((await response.json()) as { message: string }).message, 'RPC function not found: noSuchFunction')
})

test('path-gives-name: the body may leave rpcName out (the path supplies it); a different one is a 422', async () => {
  const withoutName = await post('/rpc/countOpenTodos', {})
  assert.equal(withoutName.status, 200)
  assert.deepEqual(await withoutName.json(), { open: 1, overdue: 0 })
  const conflicting = await post('/rpc/countOpenTodos', { rpcName: 'pageTodos', data: {} })
  assert.equal(conflicting.status, 422)
  assert.equal(
    ((await conflicting.json()) as { message: string }).message,
    'Conflicting values for key "rpcName": "countOpenTodos" vs "pageTodos"',
  )
})

test('client-namespaced-data-name: invoke of a namespaced name whose function part starts with "data" sends a mangled path, answered 422 instead of 404', async () => {
  // The client fills ":data" in "/rpc/chat:dataExport" from the data key and drops data from the body.
  // Names that are not in the client's map, so invoke is called untyped.
  const invoke = client().invoke as (name: string, data: unknown) => Promise<unknown>
  const mangled = await fetchError(invoke('chat:dataExport', { x: 1 }))
  assert.equal(mangled.status, 422)
  assert.match(mangled.message, /^Conflicting values for key "rpcName"/)
  const plain = await fetchError(invoke('chat:postExport', { x: 1 }))
  assert.equal(plain.status, 404)
  assert.equal(plain.message, 'RPC function not found: chat:postExport')
})

test('rpc-route-http-middleware: the generated /rpc route runs the app\'s \'*\' HTTP middleware, so the session cookie works there', async () => {
  const response = await fetch(`${app.url}/rpc/countOpenTodos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `todo_session=${token}` },
    body: JSON.stringify({ rpcName: 'countOpenTodos' }),
  })
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { open: 1, overdue: 0 })
})

test('invoke-session-carries: setTodoDone reaches updateTodo through rpc.invoke with the caller session', async () => {
  const todo = await client().invoke('setTodoDone', { todoId: aliceTodoId, done: true })
  assert.equal(todo.done, true)
  assert.equal((await app.services.todoStore.get(aliceTodoId))?.done, true)
  await client().invoke('setTodoDone', { todoId: aliceTodoId, done: false })
})

test('invoke-permission-403: the target permission (isTodoOwner on updateTodo) refuses through rpc.invoke: 403', async () => {
  const error = await fetchError(client().invoke('setTodoDone', { todoId: bobTodoId, done: true }))
  assert.equal(error.status, 403)
  assert.equal(error.message, 'Permission denied')
  assert.equal((await app.services.todoStore.get(bobTodoId))?.done, false)
})

test('invoke-error-propagates: a NotFoundError thrown by the target reaches the caller and the client as 404', async () => {
  const error = await fetchError(client().invoke('setTodoDone', { todoId: 'no-such-todo', done: true }))
  assert.equal(error.status, 404)
  assert.equal(error.message, 'No to-do with id no-such-todo')
})

test('invoke-validates: rpc.invoke validates the target input and throws UnprocessableContentError', async () => {
  await assert.rejects(rpcAs({ userId: 'alice' }).invoke('updateTodo', { todoId: aliceTodoId, done: 'yes' }), {
    name: 'UnprocessableContentError',
  })
  // Refused before updateTodo ran: the to-do is unchanged.
  assert.equal((await app.services.todoStore.get(aliceTodoId))?.done, false)
})

test('invoke-no-session-403: a session function invoked without a session (a job, a task) throws Authentication required', async () => {
  await assert.rejects(rpcAs().invoke('listTodos', {}), { name: 'ForbiddenError', message: 'Authentication required' })
})

test('invoke-unknown-name: rpc.invoke of an unregistered name with no deploymentService throws RPCNotFoundError', async () => {
  // The generated types let any string through as the name, so this compiles.
  const error = await rpcAs({ userId: 'alice' })
    .invoke('deleteTodos', { todoId: aliceTodoId })
    .catch((e: unknown) => e)
  assert.ok(error instanceof RPCNotFoundError)
  assert.equal(error.message, 'RPC function not found: deleteTodos')
})

test('rpc-names-unchecked-dist-import: the generated map imports the Slack gateway input type by a @pikku/core/dist path the package does not export; with it, a misspelt name compiles for invoke and remote, and with that one import pointed at @pikku/core/gateway both reject it (TS2345)', async () => {
  const MAP = join(APP_DIR, '.pikku', 'rpc', 'pikku-rpc-wirings-map.internal.gen.d.ts')
  const DIST = "'@pikku/core/dist/wirings/gateway/gateway.types'"
  const generated = readFileSync(MAP, 'utf8')
  assert.ok(generated.includes(`import type { GatewayInboundMessage } from ${DIST}`))
  assert.match(generated, /'slackMyTodos': RPCHandler<GatewayInboundMessage, /)
  // The copy sits next to the generated map, so its relative imports of the app's sources still resolve; removed in finally.
  const fixed = join(APP_DIR, '.pikku', 'rpc', `names-probe-${process.pid}.gen.d.ts`)
  writeFileSync(fixed, generated.replace(DIST, "'@pikku/core/gateway'"))
  try {
    const mapPath = (file: string) => `../../.pikku/rpc/${file.replace(/\.d\.ts$/, '.d.js')}`
    const probe = (from: string) =>
      [
        `import type { RPCInvoke, RPCRemote } from '${from}'`,
        'declare const invoke: RPCInvoke',
        'declare const remote: RPCRemote',
        "export const calls = [invoke('sendReminders', { todoId: 't' }), remote('sendReminders', { todoId: 't' })]",
      ].join('\n')
    const { output } = await compileScratch(
      'rpc-names',
      { 'generated.ts': probe(mapPath('pikku-rpc-wirings-map.internal.gen.d.ts')), 'fixed.ts': probe(mapPath(basename(fixed))) },
      { appConfig: true },
    )
    // Errors in the probes only (the app's own files are checked elsewhere), as "<file>(<line>) <code>".
    const probeErrors = [...output.matchAll(/\b(generated|fixed)\.ts\((\d+),\d+\): error (TS\d+)/g)].map(([, file, line, code]) => `${file}.ts(${line}) ${code}`)
    assert.deepEqual(probeErrors, ['fixed.ts(4) TS2345', 'fixed.ts(4) TS2345'], output)
  } finally {
    rmSync(fixed, { force: true })
  }
})

test('workflow-step-names-checked: with the same generated map, where rpc.invoke takes a misspelt name, a workflow.do step rejects one (TS2769) and the real name compiles', async () => {
  const { output } = await compileScratch(
    'step-names',
    {
      'steps.ts': [
        "import type { TypedWorkflow } from '../../.pikku/workflow/pikku-workflow-types.gen.js'",
        "import type { RPCInvoke } from '../../.pikku/rpc/pikku-rpc-wirings-map.internal.gen.d.js'",
        'declare const workflow: TypedWorkflow',
        'declare const invoke: RPCInvoke',
        "export const misspeltStep = workflow.do('remove', 'deleteTodos', { todoId: 't' })",
        "export const misspeltInvoke = invoke('deleteTodos', { todoId: 't' })",
        "export const realStep = workflow.do('remove', 'deleteTodo', { todoId: 't' })",
      ].join('\n'),
    },
    { appConfig: true },
  )
  // Errors in the probe only, as "<line> <code>": the misspelt step (line 5) and nothing else.
  const probeErrors = [...output.matchAll(/\bsteps\.ts\((\d+),\d+\): error (TS\d+)/g)].map(([, line, code]) => `${line} ${code}`)
  assert.deepEqual(probeErrors, ['5 TS2769'], output)
})

test('invoke-unregistered: a function that is never wired, exposed or named in an rpc.invoke is not registered', async () => {
  // listOverdueTodos (src/functions/escalation.functions.ts) is in the typed RPC map, so the call compiles, but the
  // CLI imports a function for RPC only when it is invoked by name somewhere, exposed, remote or an MCP tool.
  await assert.rejects(rpcAs({ userId: 'alice' }).invoke('listOverdueTodos', undefined), {
    name: 'Error',
    message: 'Function not found: listOverdueTodos',
  })
})

test('remote-no-deployment-service: rpc.remote without a deploymentService fails; the route answers 500', async () => {
  const response = await post(`/todos/${aliceTodoId}/remind`, {})
  assert.equal(response.status, 500)
  assert.match(
    ((await response.json()) as { message: string }).message,
    /^No DeploymentService configured for remote RPC: sendReminder\./,
  )
})

test('remote-redis: through RedisDeploymentService, no registration gives "No deployment found", a peer without /remote/rpc a 404', async () => {
  const deploymentService = new RedisDeploymentService({}, redis.url, 'pikku', app.services.jwt, secrets)
  // Handed in after start, as src/runtimes/remote-rpc.ts hands it to the services factory; removed at the end.
  app.services.deploymentService = deploymentService
  try {
    const nobody = await post(`/todos/${aliceTodoId}/remind`, {})
    assert.equal(nobody.status, 500)
    assert.equal(((await nobody.json()) as { message: string }).message, "No deployment found for function 'sendReminder'")

    // rpc.invoke falls back to the deployment service for a name it does not have, instead of RPCNotFoundError.
    await assert.rejects(rpcAs({ userId: 'alice' }).invoke('sendReminders', {}), {
      message: "No deployment found for function 'sendReminders'",
    })

    // A deployment registers the app itself as the host of sendReminder. The app has no remoteRpc scaffold, so its
    // POST /remote/rpc/sendReminder is 404.
    await deploymentService.start({ deploymentId: 'reminders-1', endpoint: app.url, functions: ['sendReminder'] })
    const noRoute = await post(`/todos/${aliceTodoId}/remind`, {})
    assert.equal(noRoute.status, 500)
    assert.equal(((await noRoute.json()) as { message: string }).message, "Remote RPC call to 'sendReminder' failed: 404")

    // Still the caller's permissions first: remindNow checks isTodoOwner before anything goes remote.
    const notOwner = await post(`/todos/${bobTodoId}/remind`, {})
    assert.equal(notOwner.status, 403)
  } finally {
    delete app.services.deploymentService
    await deploymentService.stop()
  }
})

test('invoke-unregistered-not-remote: a name in the generated metadata whose function was never registered does not go to the deploymentService', async () => {
  const deploymentService = new RedisDeploymentService({}, redis.url, 'unregistered', app.services.jwt, secrets)
  app.services.deploymentService = deploymentService
  try {
    // Only a name missing from the RPC metadata (RPCNotFoundError) falls back to the deployment service; a known name
    // whose function this process never registered fails as it does without one.
    await assert.rejects(rpcAs({ userId: 'alice' }).invoke('listOverdueTodos', undefined), {
      name: 'Error',
      message: 'Function not found: listOverdueTodos',
    })
  } finally {
    delete app.services.deploymentService
    await deploymentService.stop()
  }
})

test('invoke-missing-goes-remote: with a deploymentService, rpc.invoke of a name neither in the RPC metadata nor a function id goes to it with the name, data, session and trace id, and rpc.remote always does', async () => {
  const calls: unknown[][] = []
  const services = { ...app.services, deploymentService: { invoke: async (...args: unknown[]) => (calls.push(args), 'remote answer') } }
  const rpc = rpcService.getContextRPCService(services as never, { session: { userId: 'alice' }, traceId: 'trace-1' } as never, false)
  assert.equal(await rpc.invoke('elsewhereOnly' as never, { n: 1 } as never), 'remote answer')
  // countOpenTodos is registered here, yet rpc.remote does not look.
  assert.equal(await rpc.remote('countOpenTodos', {}), 'remote answer')
  assert.deepEqual(calls, [
    ['elsewhereOnly', { n: 1 }, { userId: 'alice' }, 'trace-1'],
    ['countOpenTodos', {}, { userId: 'alice' }, 'trace-1'],
  ])
})

test('invoke-local-before-remote: with a deploymentService, rpc.invoke runs a function id missing from the RPC metadata here, and posts a wireRemoteAddon name to the addon\'s serverUrl; neither reaches the deployment service', async () => {
  const { createServer } = await import('node:http')
  const { freePort } = await import('./harness/services.js')
  // The to-do app's workflow function is such an id: in the function metadata, not in the RPC metadata.
  assert.ok((pikkuState(null, 'function', 'meta') as Record<string, unknown>).todoReminderWorkflow)
  assert.equal((pikkuState(null, 'rpc', 'meta') as Record<string, unknown>).todoReminderWorkflow, undefined)
  const calls: unknown[] = []
  const services = { ...app.services, deploymentService: { invoke: async (...args: unknown[]) => (calls.push(args), 'remote answer') } }
  const posted: string[] = []
  const addonHost = createServer((req, res) => {
    posted.push(`${req.method} ${req.url}`)
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"addon"}'))
  })
  const port = await freePort()
  await new Promise<void>((resolve) => addonHost.listen(port, '127.0.0.1', resolve))
  const addons = pikkuState(null, 'addons', 'packages')
  // What wireRemoteAddon({ name: 'probeAddon', package: …, serverUrl }) stores (wire-remote-addon.ts).
  addons.set('probeAddon', { package: '@probe/remote-addon', remote: true, serverUrl: `http://127.0.0.1:${port}` } as never)
  registerProbe('probeFunctionIdOnly', { func: async () => ({ ran: 'here' }) })
  try {
    const rpc = rpcService.getContextRPCService(services as never, { session: { userId: 'alice' } } as never, false)
    assert.deepEqual(await rpc.invoke('probeFunctionIdOnly' as never, {} as never), { ran: 'here' })
    assert.deepEqual(await rpc.invoke('probeAddon:doThing' as never, {} as never), { from: 'addon' })
    assert.deepEqual(posted, ['POST /remote/rpc/doThing'])
    assert.deepEqual(calls, [])
  } finally {
    addons.delete('probeAddon')
    ;(pikkuState(null, 'function', 'functions') as Map<string, unknown>).delete('probeFunctionIdOnly')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).probeFunctionIdOnly
    await new Promise((resolve) => addonHost.close(resolve))
  }
})

test('remote-channel-no-session: ChannelDeploymentService sends rpc.remote over the channel with the name, data and trace id but not the caller\'s session, and resolves with the peer\'s answer', async () => {
  const { ChannelDeploymentService } = await import('@pikku/core/channel')
  const sent: Array<Record<string, unknown>> = []
  const deploymentService = new ChannelDeploymentService((message) => void sent.push(message as Record<string, unknown>))
  const services = { ...app.services, deploymentService }
  const rpc = rpcService.getContextRPCService(services as never, { session: { userId: 'alice' }, traceId: 'trace-ch-1' } as never, false)
  const call = rpc.remote('sendReminder', { todoId: 't-1' })
  await waitFor(async () => sent.length, (n) => n === 1)
  const [request] = sent
  assert.deepEqual(Object.keys(request).sort(), ['action', 'data', 'funcName', 'id', 'traceId'])
  assert.deepEqual([request.funcName, request.data, request.traceId], ['sendReminder', { todoId: 't-1' }, 'trace-ch-1'])
  assert.doesNotMatch(JSON.stringify(request), /alice/)
  // The peer answers over the same channel; the channel owner hands the message back.
  assert.equal(deploymentService.handleResponse({ action: 'pikku-rpc-response', id: request.id, ok: true, result: { reminded: true } }), true)
  assert.deepEqual(await call, { reminded: true })
  await deploymentService.stop()
})

test('remote-call-carries: rpc.remote posts to the registered deployment with a short-lived signed token, the encrypted session and the trace id', async () => {
  const { createServer } = await import('node:http')
  const { decryptWithKeyMaterial, REMOTE_SESSION_INFO } = await import('@pikku/core/crypto-utils')
  const { freePort } = await import('./harness/services.js')
  // A stand-in for the reminders deployment: records the call and answers as sendReminder would.
  const received: Array<{ method?: string; url?: string; headers: Record<string, unknown>; body: string }> = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body })
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reminded: true }))
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve))
  const deploymentService = new RedisDeploymentService({}, redis.url, 'carry', app.services.jwt, secrets)
  app.services.deploymentService = deploymentService
  try {
    await deploymentService.start({ deploymentId: 'reminders-2', endpoint: `http://127.0.0.1:${port}`, functions: ['sendReminder'] })
    const response = await fetch(`${app.url}/todos/${aliceTodoId}/remind`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-remind-1' },
    })
    // The remote answer comes back as the local function's result.
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { reminded: true })

    assert.equal(received.length, 1)
    const [call] = received
    assert.equal(call.method, 'POST')
    assert.equal(call.url, '/remote/rpc/sendReminder')
    assert.deepEqual(JSON.parse(call.body), { data: { todoId: aliceTodoId } })
    assert.equal(call.headers['x-request-id'], 'trace-remind-1')
    const bearer = String(call.headers.authorization).replace(/^Bearer /, '')
    const claims = await app.services.jwt!.decode<{ aud: string; fn: string; session: string; iat: number; exp: number }>(bearer)
    assert.equal(claims.aud, 'pikku-remote')
    assert.equal(claims.fn, 'sendReminder')
    assert.equal(claims.exp - claims.iat, 300, 'the token lives five minutes')
    // The session travels encrypted with PIKKU_REMOTE_SECRET, not in clear.
    assert.doesNotMatch(claims.session, /alice/)
    const secret = (await secrets.getSecret<string>('PIKKU_REMOTE_SECRET')).reveal()
    const decrypted = await decryptWithKeyMaterial('PIKKU_REMOTE_SECRET', secret, REMOTE_SESSION_INFO, claims.session)
    assert.equal((decrypted as { session: { userId: string } }).session.userId, 'alice')
  } finally {
    delete app.services.deploymentService
    await deploymentService.stop()
    await new Promise((resolve) => receiver.close(resolve))
  }
})

test('remote-weak-secret: a PIKKU_REMOTE_SECRET shorter than 32 characters makes the calling side throw WeakKeyMaterialError', async () => {
  const weak = new LocalSecretService(new LocalVariablesService({ PIKKU_REMOTE_SECRET: 'too-short' }))
  const deploymentService = new RedisDeploymentService({}, redis.url, 'weak', app.services.jwt, weak)
  try {
    await assert.rejects(deploymentService.invoke('sendReminder', {}, { userId: 'alice' }), { name: 'WeakKeyMaterialError' })
  } finally {
    await deploymentService.stop()
  }
})

/**
 * A stand-in receiving deployment on the app itself: POST /remote/rpc/:rpcName behind pikkuRemoteAuthMiddleware, as
 * the remoteRpc scaffold wires it (the app does not turn that scaffold on), answered by a probe function that reports
 * the session it runs with, returns nothing, or throws. The app's own global authBearer({}) (src/auth.ts) stays on.
 * Everything it registers, and the secret service it swaps in for PIKKU_REMOTE_SECRET, is put back at the end.
 */
const withRemoteRoute = async (body: (deploymentService: RedisDeploymentService) => Promise<void>) => {
  const { pikkuRemoteAuthMiddleware } = await import('@pikku/core/middleware')
  const { NotFoundError } = await import('@pikku/core/errors')
  const name = 'probeRemoteTarget'
  const func = {
    auth: false,
    // It gets what the scaffold's remoteRPCHandler gets: the name from the path and the posted { data }.
    func: async (_services: unknown, { data }: { rpcName: string; data?: { mode?: string } }, wire: any) => {
      if (data?.mode === 'nothing') return undefined
      // As the scaffold's remoteRPCHandler does: rpc.invoke of another function, with the session the call runs as.
      if (data?.mode === 'invoke') return wire.rpc.invoke('probeNeedsSession', {})
      if (data?.mode === 'missing') throw new NotFoundError('No to-do with id t-404')
      return { session: wire.session ?? null }
    },
  }
  const wiring = { method: 'post', middleware: [pikkuRemoteAuthMiddleware] }
  await withProbeRoute(name, '/remote/rpc/:rpcName', func, wiring, async () => {
    const deploymentService = new RedisDeploymentService({}, redis.url, 'stand-in', app.services.jwt, secrets)
    const appSecrets = app.services.secrets
    app.services.secrets = secrets
    try {
      await deploymentService.start({ deploymentId: 'stand-in-1', endpoint: app.url, functions: [name] })
      await body(deploymentService)
    } finally {
      app.services.secrets = appSecrets
      await deploymentService.stop()
    }
  })
}

test('remote-no-session-token-claims: a call that carries no session reaches a receiver with a global authBearer as the token claims', async () => {
  await withRemoteRoute(async (deploymentService) => {
    // With the caller's session, pikkuRemoteAuthMiddleware replaces whatever came before with the decrypted one.
    assert.deepEqual(await deploymentService.invoke('probeRemoteTarget', {}, { userId: 'alice' }), { session: { userId: 'alice' } })
    // Without one (a sessionless caller, a queue job), authBearer({}) has already decoded the remote token itself,
    // which the app's jwt service accepts, and nothing replaces it: the session is the token's claims, with no userId.
    const { session } = (await deploymentService.invoke('probeRemoteTarget', {})) as { session: Record<string, unknown> }
    assert.equal(session.aud, 'pikku-remote')
    assert.equal(session.fn, 'probeRemoteTarget')
    assert.equal(session.userId, undefined)
  })
})

test('remote-no-session-not-refused: a token-claims session with no userId passes the session check of a function that needs one', async () => {
  // A function that needs a session (not sessionless), reached by rpc.invoke from the remote handler.
  registerProbe('probeNeedsSession', { func: async (_services: unknown, _data: unknown, wire: any) => ({ ran: true, userId: wire.session?.userId ?? null }) })
  try {
    await withRemoteRoute(async (deploymentService) => {
      assert.deepEqual(await deploymentService.invoke('probeRemoteTarget', { mode: 'invoke' }), { ran: true, userId: null })
      // The same function, invoked with no session at all, is refused.
      await assert.rejects(rpcAs().invoke('probeNeedsSession' as never, {} as never), { name: 'ForbiddenError' })
    })
  } finally {
    ;(pikkuState(null, 'function', 'functions') as Map<string, unknown>).delete('probeNeedsSession')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).probeNeedsSession
  }
})

test('remote-void-result: a remote function that returns nothing answers 204, and the calling side rejects parsing the empty body', async () => {
  const { buildRemoteHeaders } = await import('@pikku/core/remote')
  await withRemoteRoute(async (deploymentService) => {
    // The request the deployment service makes, sent by hand to see the answer: 204 and no body.
    const headers = await buildRemoteHeaders(app.services.jwt, secrets, 'probeRemoteTarget', { userId: 'alice' })
    const raw = await fetch(`${app.url}/remote/rpc/probeRemoteTarget`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { mode: 'nothing' } }),
    })
    assert.equal(raw.status, 204)
    assert.equal(await raw.text(), '')
    await assert.rejects(deploymentService.invoke('probeRemoteTarget', { mode: 'nothing' }, { userId: 'alice' }), {
      name: 'SyntaxError',
      message: /Unexpected end of JSON input/,
    })
  })
})

test('remote-error-status-only: an error the remote function throws reaches the caller as "failed: <status>", without its message', async () => {
  await withRemoteRoute(async (deploymentService) => {
    await assert.rejects(deploymentService.invoke('probeRemoteTarget', { mode: 'missing' }, { userId: 'alice' }), (error: Error) => {
      assert.equal(error.constructor, Error)
      assert.equal(error.message, "Remote RPC call to 'probeRemoteTarget' failed: 404")
      return true
    })
  })
})

test('remote-other-jwt-keys-500: with a global authBearer on the receiver, a token signed with other jwt keys fails there with 500, not 401', async () => {
  const otherSecrets = new LocalSecretService(
    new LocalVariablesService({ JWT_SECRET: 'another-deployment-secret', PIKKU_REMOTE_SECRET: 'r'.repeat(32) }),
  )
  const otherJwt = await createJWTService(otherSecrets)
  await withRemoteRoute(async () => {
    // The caller signs with its own keys; the receiver's authBearer({}) decodes the token before
    // pikkuRemoteAuthMiddleware runs, and the jwt service's error is not one with a status of its own.
    const caller = new RedisDeploymentService({}, redis.url, 'stand-in', otherJwt, otherSecrets)
    try {
      await assert.rejects(caller.invoke('probeRemoteTarget', {}, { userId: 'alice' }), {
        message: "Remote RPC call to 'probeRemoteTarget' failed: 500",
      })
    } finally {
      await caller.stop()
    }
  })
})

test('remote-addon-static-token-refused: a wireRemoteAddon call whose auth resolves a fixed token is refused by a host serving /remote/rpc behind pikkuRemoteAuthMiddleware and a global authBearer, so it throws RemoteAddonRequestError carrying 500; a pikku-remote token signed by the host jwt goes through', async () => {
  const { buildRemoteHeaders } = await import('@pikku/core/remote')
  await withRemoteRoute(async () => {
    const addons = pikkuState(null, 'addons', 'packages')
    // What wireRemoteAddon({ name, package, serverUrl, auth: { resolve } }) stores (wire-remote-addon.ts), with the app as the host.
    const base = { package: '@probe/remote-addon', remote: true, serverUrl: app.url }
    const signed = async () => (await buildRemoteHeaders(app.services.jwt, secrets, 'probeRemoteTarget')).authorization!.slice('Bearer '.length)
    addons.set('probeHostFixed', { ...base, remoteAuth: { resolve: () => 'a-fixed-service-token' } } as never)
    addons.set('probeHostSigned', { ...base, remoteAuth: { resolve: signed } } as never)
    try {
      const rpc: any = rpcService.getContextRPCService(app.services as never, {} as never, false)
      const error: any = await rpc.invoke('probeHostFixed:probeRemoteTarget', {}).catch((e: unknown) => e)
      assert.equal(error.name, 'RemoteAddonRequestError')
      assert.equal(error.httpStatus, 500)
      const { session } = (await rpc.invoke('probeHostSigned:probeRemoteTarget', {})) as { session: Record<string, unknown> }
      assert.equal(session.aud, 'pikku-remote')
    } finally {
      addons.delete('probeHostFixed')
      addons.delete('probeHostSigned')
    }
  })
})

test('remote-secret-gates: the receiver refuses every remote call with 401 while PIKKU_REMOTE_SECRET is unset, lets all through with no secrets service, and answers 500 with the secret but no jwt service', async () => {
  await withRemoteRoute(async (deploymentService) => {
    const withSecrets = app.services.secrets
    const jwt = app.services.jwt
    try {
      // A secret service without PIKKU_REMOTE_SECRET: even a correctly signed call is refused.
      app.services.secrets = new LocalSecretService(new LocalVariablesService({ JWT_SECRET: 'behaviour-suite-secret' }))
      await assert.rejects(deploymentService.invoke('probeRemoteTarget', {}, { userId: 'alice' }), {
        message: "Remote RPC call to 'probeRemoteTarget' failed: 401",
      })
      // No secrets service at all: the middleware checks nothing, so a request with no token goes through.
      delete (app.services as { secrets?: unknown }).secrets
      const unsigned = await fetch(`${app.url}/remote/rpc/probeRemoteTarget`, { method: 'POST', body: JSON.stringify({ data: {} }) })
      assert.equal(unsigned.status, 200)
      assert.deepEqual(await unsigned.json(), { session: null })
      // A correctly signed call that carries alice's session: the session claim is not decrypted, so the call runs
      // with what the global authBearer({}) made of the token, its claims, and no userId.
      const { buildRemoteHeaders } = await import('@pikku/core/remote')
      const signedWithSession = await fetch(`${app.url}/remote/rpc/probeRemoteTarget`, {
        method: 'POST',
        headers: await buildRemoteHeaders(jwt, withSecrets, 'probeRemoteTarget', { userId: 'alice' }),
        body: JSON.stringify({ data: {} }),
      })
      assert.equal(signedWithSession.status, 200)
      const { session } = (await signedWithSession.json()) as { session: Record<string, unknown> }
      assert.equal(session.aud, 'pikku-remote')
      assert.equal(session.userId, undefined)
      // The secret is set but the receiver has no jwt service: a plain Error, so a 500.
      app.services.secrets = withSecrets
      delete (app.services as { jwt?: unknown }).jwt
      const noJwt = await fetch(`${app.url}/remote/rpc/probeRemoteTarget`, { method: 'POST', body: JSON.stringify({ data: {} }) })
      assert.equal(noJwt.status, 500)
      assert.equal(((await noJwt.json()) as { message: string }).message, 'PIKKU_REMOTE_SECRET set but JWT service missing')
    } finally {
      app.services.secrets = withSecrets
      app.services.jwt = jwt
    }
  })
})

test('remote-token-checks: the receiver answers 401 to a call with no token, a token whose audience is not pikku-remote, one whose fn names another function, or a session encrypted with another PIKKU_REMOTE_SECRET', async () => {
  const { buildRemoteHeaders } = await import('@pikku/core/remote')
  await withRemoteRoute(async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${app.url}/remote/rpc/probeRemoteTarget`, { method: 'POST', headers, body: JSON.stringify({ data: {} }) })
    // The check passes with the headers a deployment service builds for this function...
    assert.equal((await call(await buildRemoteHeaders(app.services.jwt, secrets, 'probeRemoteTarget'))).status, 200)
    // ...and fails without a token, with a user's token (no aud), and with a token made out for another function.
    assert.equal((await call({})).status, 401)
    assert.equal((await call({ authorization: `Bearer ${token}` })).status, 401)
    assert.equal((await call(await buildRemoteHeaders(app.services.jwt, secrets, 'sendReminder'))).status, 401)
    // A caller with another PIKKU_REMOTE_SECRET: its session cannot be decrypted here (401); with no session, no check.
    const otherRemote = new LocalSecretService(new LocalVariablesService({ PIKKU_REMOTE_SECRET: 's'.repeat(32) }))
    assert.equal((await call(await buildRemoteHeaders(app.services.jwt, otherRemote, 'probeRemoteTarget', { userId: 'alice' }))).status, 401)
    assert.equal((await call(await buildRemoteHeaders(app.services.jwt, otherRemote, 'probeRemoteTarget'))).status, 200)
  })
})

test('remote-caller-without-jwt-401: a caller whose deployment service was built without the jwt service, or without the secret service, sends no token, so a receiver with PIKKU_REMOTE_SECRET set answers 401', async () => {
  await withRemoteRoute(async () => {
    // Same registry prefix as the stand-in, so these callers find the registered receiver; neither calls start().
    const noJwt = new RedisDeploymentService({}, redis.url, 'stand-in', undefined, secrets)
    const noSecrets = new RedisDeploymentService({}, redis.url, 'stand-in', app.services.jwt)
    try {
      for (const caller of [noJwt, noSecrets]) {
        await assert.rejects(caller.invoke('probeRemoteTarget', {}, { userId: 'alice' }), {
          message: "Remote RPC call to 'probeRemoteTarget' failed: 401",
        })
      }
    } finally {
      await noJwt.stop()
      await noSecrets.stop()
    }
  })
})

test('remote-weak-secret-receiver: a receiver whose PIKKU_REMOTE_SECRET is shorter than 32 characters throws WeakKeyMaterialError in pikkuRemoteAuthMiddleware, so every call fails', async () => {
  const { buildRemoteHeaders } = await import('@pikku/core/remote')
  await withRemoteRoute(async (deploymentService) => {
    const strong = app.services.secrets
    try {
      app.services.secrets = new LocalSecretService(new LocalVariablesService({ PIKKU_REMOTE_SECRET: 'too-short' }))
      await assert.rejects(deploymentService.invoke('probeRemoteTarget', {}, { userId: 'alice' }), {
        message: "Remote RPC call to 'probeRemoteTarget' failed: 500",
      })
      // The same call sent by hand, to read the answer: the middleware's error.
      const raw = await fetch(`${app.url}/remote/rpc/probeRemoteTarget`, {
        method: 'POST',
        headers: await buildRemoteHeaders(app.services.jwt, strong, 'probeRemoteTarget'),
        body: JSON.stringify({ data: {} }),
      })
      assert.equal(raw.status, 500)
      assert.equal(((await raw.json()) as { name: string }).name, 'WeakKeyMaterialError')
    } finally {
      app.services.secrets = strong
    }
  })
})

test('remote-redis-registration: start() registers every function in the generated metadata by default, with a 30 s expiry and a heartbeat every 10 s; a second start() leaves the first timer running after stop(), stop() closes the connection it opened, and a failed heartbeat is dropped silently', async () => {
  const intervals: number[] = []
  const started: unknown[] = []
  const cleared: unknown[] = []
  const { setInterval: realSet, clearInterval: realClear } = globalThis
  globalThis.setInterval = ((fn: () => void, ms: number) => {
    const handle = realSet(fn, ms)
    intervals.push(ms)
    started.push(handle)
    return handle
  }) as typeof setInterval
  globalThis.clearInterval = ((handle: any) => {
    cleared.push(handle)
    realClear(handle)
  }) as typeof clearInterval
  const deploymentService = new RedisDeploymentService({}, redis.url, 'defaults', app.services.jwt, secrets)
  const client = new Redis(redis.url)
  try {
    await deploymentService.start({ deploymentId: 'all-1', endpoint: 'http://127.0.0.1:9' })
    await deploymentService.start({ deploymentId: 'all-1', endpoint: 'http://127.0.0.1:9' })
    assert.deepEqual(intervals, [10_000, 10_000])
    assert.equal(await client.ttl('defaults:deployment:all-1'), 30)
    const registered = JSON.parse((await client.hget('defaults:deployment:all-1', 'functions'))!) as string[]
    // listOverdueTodos is in the metadata but never registered for run time in this process (invoke-unregistered).
    assert.ok(registered.includes('listOverdueTodos'))
    // Every id in the app's function metadata, and the installed chat addon's function under its namespace.
    assert.deepEqual(registered.sort(), [...Object.keys(pikkuState(null, 'function', 'meta') as object), 'chat:postToChat'].sort())
    const expiry = Number(await client.zscore('defaults:fn:listOverdueTodos', 'all-1'))
    assert.ok(expiry > Date.now() + 25_000 && expiry <= Date.now() + 30_000)
    const own = (deploymentService as unknown as { redis: Redis }).redis
    await deploymentService.stop()
    // stop() cleared only the second timer, and closed the connection the service opened from the URL.
    assert.deepEqual(cleared, [started[1]])
    await waitFor(async () => own.status, (status) => status === 'end')
    // A heartbeat while Redis cannot be reached (here a connection handed in, then closed) resolves and logs nothing.
    const handedIn = new Redis(redis.url)
    const quiet = new RedisDeploymentService({ heartbeatInterval: 60_000 }, handedIn, 'defaults', app.services.jwt, secrets)
    await quiet.start({ deploymentId: 'quiet-1', endpoint: 'http://127.0.0.1:9', functions: ['sendReminder'] })
    handedIn.disconnect()
    await waitFor(async () => handedIn.status, (status) => status === 'end')
    const { captureConsole } = await import('./harness/core-probes.js')
    const lines = await captureConsole(() => (quiet as unknown as { sendHeartbeat: () => Promise<void> }).sendHeartbeat())
    assert.deepEqual(lines, [])
    await quiet.stop().catch(() => {})
  } finally {
    await deploymentService.stop().catch(() => {})
    globalThis.setInterval = realSet
    globalThis.clearInterval = realClear
    for (const handle of started) realClear(handle as never)
    client.disconnect()
  }
})

test('remote-redis-lapse-not-restored: once a Redis registration expired, later heartbeats do not bring it back', async () => {
  // A 1 s TTL and no timer heartbeat in the test's time; the heartbeat is then sent by hand, late, as after a stall.
  const deploymentService = new RedisDeploymentService({ heartbeatInterval: 60_000, heartbeatTtl: 1_000 }, redis.url, 'lapse', app.services.jwt, secrets)
  const heartbeat = () => (deploymentService as unknown as { sendHeartbeat: () => Promise<void> }).sendHeartbeat()
  try {
    await deploymentService.start({ deploymentId: 'lapsed-1', endpoint: 'http://127.0.0.1:9', functions: ['sendReminder'] })
    const client = new Redis(redis.url)
    try {
      // Wait until Redis has expired the deployment's hash, then send the late heartbeat.
      await waitFor(() => client.exists('lapse:deployment:lapsed-1'), (n) => n === 0)
      await heartbeat()
      // The heartbeat renewed the function index but not the deployment's hash, which had already expired.
      assert.notEqual(await client.zscore('lapse:fn:sendReminder', 'lapsed-1'), null)
      assert.equal(await client.exists('lapse:deployment:lapsed-1'), 0)
    } finally {
      client.disconnect()
    }
    await assert.rejects(deploymentService.invoke('sendReminder', {}), { message: "No deployment found for function 'sendReminder'" })
  } finally {
    await deploymentService.stop()
  }
})

/** A receiver on 127.0.0.1 that answers every request with { reminded: true } and counts them. */
const startCountingReceiver = async () => {
  const { createServer } = await import('node:http')
  const { freePort } = await import('./harness/services.js')
  let calls = 0
  const receiver = createServer((_req, res) => {
    calls++
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reminded: true }))
  })
  const port = await freePort()
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve))
  return { port, freePort, calls: () => calls, close: () => new Promise((resolve) => receiver.close(resolve)) }
}

test('remote-redis-oldest-first: RedisDeploymentService picks the live registration with the oldest heartbeat, a dead one before its replacement', async () => {
  const receiver = await startCountingReceiver()
  const { port, freePort } = receiver
  // The first deployment was killed without stop(): its endpoint no longer answers. Its replacement registers later.
  const killed = new RedisDeploymentService({}, redis.url, 'oldest', app.services.jwt, secrets)
  const replacement = new RedisDeploymentService({}, redis.url, 'oldest', app.services.jwt, secrets)
  try {
    await killed.start({ deploymentId: 'reminders-old', endpoint: `http://127.0.0.1:${await freePort()}`, functions: ['sendReminder'] })
    // Heartbeats are scored by Date.now(): let the clock move past the first one, so the replacement's is later.
    const first = Date.now()
    await waitFor(async () => Date.now(), (now) => now > first)
    await replacement.start({ deploymentId: 'reminders-new', endpoint: `http://127.0.0.1:${port}`, functions: ['sendReminder'] })
    await assert.rejects(replacement.invoke('sendReminder', { todoId: 't-1' }), { name: 'TypeError', message: 'fetch failed' })
    assert.equal(receiver.calls(), 0)
  } finally {
    await replacement.stop()
    await killed.stop()
    await receiver.close()
  }
})

test('remote-redis-same-id-replaces: a deployment restarted under the same deploymentId replaces the killed one\'s entry, so calls reach the new endpoint', async () => {
  const receiver = await startCountingReceiver()
  const { port, freePort } = receiver
  // The killed process registered an endpoint that no longer answers; its successor starts under the same id.
  const killed = new RedisDeploymentService({}, redis.url, 'same-id', app.services.jwt, secrets)
  const restarted = new RedisDeploymentService({}, redis.url, 'same-id', app.services.jwt, secrets)
  try {
    await killed.start({ deploymentId: 'reminders', endpoint: `http://127.0.0.1:${await freePort()}`, functions: ['sendReminder'] })
    await restarted.start({ deploymentId: 'reminders', endpoint: `http://127.0.0.1:${port}`, functions: ['sendReminder'] })
    assert.deepEqual(await restarted.invoke('sendReminder', { todoId: 't-1' }), { reminded: true })
    assert.equal(receiver.calls(), 1)
  } finally {
    await restarted.stop()
    await killed.stop()
    await receiver.close()
  }
})

test('create-pikku-shared: createPikku (@pikku/react) gives the RPC client the fetch client, so a token set on one serves both', async () => {
  const { createPikku } = await import('@pikku/react')
  const { PikkuFetch } = await import('../../.pikku/pikku-fetch.gen.js')
  const pikku = createPikku(PikkuFetch, PikkuRPC, { serverUrl: app.url })
  pikku.rpc.setAuthorizationJWT(token)
  assert.equal(pikku.rpc.pikkuFetch, pikku.fetch)
  assert.deepEqual(await pikku.rpc.invoke('countOpenTodos'), { open: 1, overdue: 0 })
  const { todos } = await pikku.fetch.get('/todos', {})
  assert.deepEqual(
    todos.map((todo) => todo.title),
    ['Write docs'],
  )
})

/**
 * React rendered on the server, the app's generated clients and React Query hooks, and a fresh query client: what the
 * React Query tests render with. No DOM here: rendering registers each query (key and queryFn) in the cache without
 * fetching. `render` wraps the element in the query client and Pikku providers.
 */
const reactQuery = async () => {
  const { createElement } = await import('react')
  // react-dom has no type declarations installed here; its server renderer is used untyped.
  const reactDomServer = 'react-dom/server'
  const { renderToString } = (await import(reactDomServer)) as { renderToString: (element: unknown) => string }
  const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query')
  const { PikkuProvider, createPikku } = await import('@pikku/react')
  const { PikkuFetch } = await import('../../.pikku/pikku-fetch.gen.js')
  const hooks = await import('../../.pikku/pikku-react-query.gen.js')
  const pikku = createPikku(PikkuFetch, PikkuRPC, { serverUrl: app.url })
  pikku.rpc.setAuthorizationJWT(token)
  const queryClient = new QueryClient()
  const render = (children: import('react').ReactNode) =>
    renderToString(createElement(QueryClientProvider, { client: queryClient, children: createElement(PikkuProvider, { pikku, children }) }))
  return { createElement, hooks, queryClient, render }
}

test('react-query-key: usePikkuQuery caches under [name, data] and fetches through the provided RPC client', async () => {
  // The test runs the query that rendering registered, as the browser would.
  const { createElement, hooks, queryClient, render } = await reactQuery()
  const Summary = () => {
    const { data } = hooks.usePikkuQuery('countOpenTodos', null)
    return createElement('p', null, data ? `${data.open} open` : 'loading')
  }
  assert.equal(render(createElement(Summary)), '<p>loading</p>')
  const query = queryClient.getQueryCache().find({ queryKey: ['countOpenTodos', null], exact: true })
  assert.ok(query, 'the query is cached under [name, data]')
  await query.fetch()
  assert.deepEqual(queryClient.getQueryData(['countOpenTodos', null]), { open: 1, overdue: 0 })
  queryClient.clear()
})

test('react-query-infinite-shares-key: usePikkuInfiniteQuery caches under the same [name, data] as usePikkuQuery, so the two share one entry', async () => {
  const { createElement, hooks, queryClient, render } = await reactQuery()
  const Pages = () => {
    const pages = hooks.usePikkuInfiniteQuery('pageTodos', { done: false })
    return createElement('p', null, pages.data ? 'pages' : 'loading')
  }
  const Page = () => {
    const page = hooks.usePikkuQuery('pageTodos', { done: false })
    return createElement('p', null, page.data ? 'page' : 'loading')
  }
  render([createElement(Pages, { key: 'a' }), createElement(Page, { key: 'b' })])
  const entries = queryClient.getQueryCache().findAll({ queryKey: ['pageTodos'] })
  assert.equal(entries.length, 1)
  assert.deepEqual(entries[0].queryKey, ['pageTodos', { done: false }])
  queryClient.clear()
})

test('react-query-dates: what createPikku\'s clients hand the hooks has date strings turned into Date objects, unless created with transformDate: false', async () => {
  const { createPikku } = await import('@pikku/react')
  const { PikkuFetch } = await import('../../.pikku/pikku-fetch.gen.js')
  // A user of its own, so the other tests' counts for alice stay as they are.
  const doraToken = await (await createJWTService(secrets)).encode({ value: 1, unit: 'hour' }, { userId: 'dora' })
  const { todoId } = await app.services.todoStore.create({ ownerId: 'dora', title: 'Dentist', done: false, dueAt: '2026-12-01T09:00:00.000Z' })
  try {
    const pageOf = async (transformDate?: boolean) => {
      const pikku = createPikku(PikkuFetch, PikkuRPC, { serverUrl: app.url, ...(transformDate === undefined ? {} : { transformDate }) })
      pikku.rpc.setAuthorizationJWT(doraToken)
      return pikku.rpc.invoke('pageTodos', {})
    }
    // Typed string, yet a Date: the function hook's queryFn is this same rpc.invoke (see react-query-key).
    const dueAt: unknown = (await pageOf()).todos[0]?.dueAt
    assert.ok(dueAt instanceof Date)
    // Put into JSX as it is, the Date is refused by React.
    const { createElement, render } = await reactQuery()
    assert.throws(() => render(createElement('span', null, dueAt as never)), /Objects are not valid as a React child/)
    assert.equal((await pageOf(false)).todos[0]?.dueAt, '2026-12-01T09:00:00.000Z')
  } finally {
    await app.services.todoStore.remove(todoId)
  }
})

test('fetch-client-raw-and-500: the fetch client has no put method, its raw fetch returns the Response as it is, and an unregistered error is a 500 whose body holds only errorId in production (message and stack outside it), thrown as PikkuFetchError', async () => {
  const { PikkuFetch } = await import('../../.pikku/pikku-fetch.gen.js')
  const fetchClient = new PikkuFetch()
  fetchClient.setServerUrl(app.url)
  fetchClient.setAuthorizationJWT(token)
  assert.equal('put' in fetchClient, false)
  // A 404 through the raw method: a Response, not a thrown error.
  const missing = await fetchClient.fetch('/todos/t-missing' as never, 'GET', undefined as never)
  assert.ok(missing instanceof Response)
  assert.equal(missing.status, 404)
  // A PUT route and a route that throws an error registered with no status, for this test only.
  await withProbeRoute('probePut', '/probe/put', { func: async () => ({ put: true }) }, { method: 'put' }, async () => {
    const put = await fetchClient.fetch('/probe/put' as never, 'PUT', {} as never)
    assert.equal(put.status, 200)
    assert.deepEqual(await put.json(), { put: true })
  })
  await withProbeRoute('probeUnregistered', '/probe/unregistered', { func: async () => { throw new Error('disk on fire') } }, {}, async () => {
    // Outside production the Express server has exposeErrors on: message and stack are added.
    assert.notEqual(process.env.NODE_ENV, 'production')
    const raw = await fetch(`${app.url}/probe/unregistered`)
    assert.equal(raw.status, 500)
    const body = (await raw.json()) as Record<string, unknown>
    assert.deepEqual(Object.keys(body).sort(), ['errorId', 'message', 'stack'])
    assert.equal(body.message, 'disk on fire')
    // In production, only the errorId.
    const { withEnv } = await import('./harness/env.js')
    const production = await withEnv({ NODE_ENV: 'production' }, async () => (await fetch(`${app.url}/probe/unregistered`)).json())
    assert.deepEqual(Object.keys(production as object), ['errorId'])
    const error = await fetchError(fetchClient.get('/probe/unregistered' as never))
    assert.equal(error.status, 500)
    assert.equal(error.name, 'PikkuFetchError')
  })
})

test('client-no-answer-type-error: a call that gets no HTTP answer rejects with fetch\'s own TypeError, not a PikkuFetchError', async () => {
  const { createServer } = await import('node:net')
  // A port that was free a moment ago and has nothing listening on it now.
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  const rpc = new PikkuRPC()
  rpc.setServerUrl(`http://127.0.0.1:${port}`)
  await assert.rejects(rpc.invoke('countOpenTodos'), (error: unknown) => error instanceof TypeError && !(error instanceof PikkuFetchError))
})

test('invoke-global-middleware-again: global middleware runs once for the caller and once more for each rpc.invoke it makes', async () => {
  const rpcMeta = pikkuState(null, 'rpc', 'meta') as Record<string, string>
  // The runner caches each chain under the name it is called by, so both names here are new to this process and
  // their chains are built after the middleware is registered, whatever ran before.
  registerProbe('globalTwiceCaller', { func: async (_s: unknown, _d: unknown, wire: any) => wire.rpc.invoke('globalTwiceTarget', {}) })
  rpcMeta.globalTwiceTarget = 'countOpenTodos'
  const { seen, remove } = addWireIdRecorder()
  try {
    const result = await runPikkuFunc('rpc', 'globalTwiceCaller', 'globalTwiceCaller', {
      singletonServices: app.services as never,
      data: () => ({}),
      wire: { session: { userId: 'alice' } } as never,
    })
    assert.ok(typeof (result as { open: unknown }).open === 'number')
    // The copy of the caller's wire keeps the caller's wireId, so both runs record it.
    assert.equal(seen.length, 2)
  } finally {
    remove()
    delete rpcMeta.globalTwiceTarget
  }
})

test('invoke-depth-zero: every function gets an RPC view with depth 0, however deeply it was invoked, so depth counts nothing', async () => {
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  // A calls B, which calls C; each reports the depth of its own wire.rpc.
  registerProbe('depthA', { func: async (_s: unknown, _d: unknown, wire: any) => [wire.rpc.depth, ...(await wire.rpc.invoke('depthB', {}))] }, { sessionless: true })
  registerProbe('depthB', { func: async (_s: unknown, _d: unknown, wire: any) => [wire.rpc.depth, ...(await wire.rpc.invoke('depthC', {}))] }, { sessionless: true })
  registerProbe('depthC', { func: async (_s: unknown, _d: unknown, wire: any) => [wire.rpc.depth] }, { sessionless: true })
  try {
    assert.deepEqual(await rpcAs().invoke('depthA' as never, {} as never), [0, 0, 0])
  } finally {
    for (const name of ['depthA', 'depthB', 'depthC']) {
      functions.delete(name)
      delete functionMeta[name]
    }
  }
})

test('page-todos-first-twenty: pageTodos with done: true answers twenty of the caller\'s done to-dos and a nextCursor, so the twenty-first is not on the first page', async () => {
  const erinToken = await (await createJWTService(secrets)).encode({ value: 1, unit: 'hour' }, { userId: 'erin' })
  const ids: string[] = []
  try {
    for (let i = 1; i <= 21; i++)
      ids.push((await app.services.todoStore.create({ ownerId: 'erin', title: `Done ${i}`, done: true })).todoId)
    const rpc = new PikkuRPC()
    rpc.setServerUrl(app.url)
    rpc.setAuthorizationJWT(erinToken)
    const { todos, nextCursor } = await rpc.invoke('pageTodos', { done: true })
    assert.equal(todos.length, 20)
    assert.equal(nextCursor, '20')
    assert.ok(!todos.some((todo) => todo.todoId === ids[20]))
  } finally {
    for (const id of ids) await app.services.todoStore.remove(id)
  }
})
