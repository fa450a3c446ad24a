// Addons: the to-do app's chat addon (@todo-app/notify-addon, addon-example/) installed with wireAddon as 'chat'
// (src/addons/notify.addon.ts), called by namespace the way the app's functions call it, with a real HTTP receiver
// standing in for the team chat's incoming webhook. Core 0.12.90.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { rpcService, RPCNotFoundError } from '@pikku/core/rpc'
import { collectLogs, startExpressApp, type RunningApp } from './harness/app.js'
import { freePort } from './harness/services.js'
import { runTempDir } from './harness/temp.js'
import { createTestJWT } from './harness/http.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { APP_DIR } from './harness/node-process.js'
import type { wireAddon } from '#pikku/addon'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'

interface Hook {
  url: string
  server: Server
  received: unknown[]
  status: number
}

/** A chat webhook: records each JSON body it is sent and answers `status`. */
const startHook = async (): Promise<Hook> => {
  const port = await freePort()
  const hook: Hook = { url: `http://127.0.0.1:${port}/hook`, server: createServer(), received: [], status: 200 }
  hook.server.on('request', (req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      hook.received.push(JSON.parse(body))
      res.writeHead(hook.status).end()
    })
  })
  await new Promise<void>((resolve) => hook.server.listen(port, '127.0.0.1', resolve))
  return hook
}

let app: RunningApp
let hook: Hook
let otherHook: Hook
let openTodoId: string
let doneTodoId: string
let bobTodoId: string
let token: string
let appJWT: Awaited<ReturnType<typeof createTestJWT>>

before(async () => {
  hook = await startHook()
  otherHook = await startHook()
  // The app's secrets service reads the environment (LocalSecretService over LocalVariablesService); the addon
  // declares CHAT_WEBHOOK_URL, so its scoped secrets service may read it.
  process.env.CHAT_WEBHOOK_URL = hook.url
  const jwt = await createTestJWT()
  appJWT = jwt
  app = await startExpressApp({ jwt })
  token = await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'alice' })
  const { todoStore } = app.services
  openTodoId = (await todoStore.create({ ownerId: 'alice', title: 'Ship the release', done: false })).todoId
  doneTodoId = (await todoStore.create({ ownerId: 'alice', title: 'Write the changelog', done: true })).todoId
  bobTodoId = (await todoStore.create({ ownerId: 'bob', title: 'Bob only', done: true })).todoId
})
after(async () => {
  await app.stop()
  for (const h of [hook, otherHook]) await new Promise((resolve) => h.server.close(resolve))
  delete process.env.CHAT_WEBHOOK_URL
})

/** wire.rpc as a runtime builds it for a call with this session, or none (a queue job, a trigger). */
const rpcAs = (session?: { userId: string }) =>
  rpcService.getContextRPCService(app.services, session ? { session } : {}, false)
const alice = () => rpcAs({ userId: 'alice' })

/** POST /todos/:todoId/announce (src/addons/announce.http.ts) as alice: status and JSON body. */
const announce = async (todoId: string) => {
  const response = await fetch(`${app.url}/todos/${todoId}/announce`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

test('namespaced-call: rpc.invoke("chat:postToChat") runs the addon function with its own chat service', async () => {
  hook.received.length = 0
  assert.deepEqual(await alice().invoke('chat:postToChat', { text: 'Hello team' }), { posted: true })
  assert.deepEqual(hook.received, [{ text: 'Hello team' }])
})

test('auth-true-403: wireAddon auth: true requires a session, though postToChat itself is sessionless', async () => {
  hook.received.length = 0
  await assert.rejects(rpcAs().invoke('chat:postToChat', { text: 'From a job' }), {
    name: 'ForbiddenError',
    message: 'Authentication required',
  })
  assert.deepEqual(hook.received, [])
})

test('addon-auth-false-warns: an install with auth: false does not open an addon function that requires a session: each call through rpc.invoke logs the "requires a session but auth was explicitly disabled" warning, and one without a session is refused', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const pkg = '@todo-app/notify-addon'
  const funcMeta = pikkuState(pkg, 'function', 'meta') as any
  const functions = pikkuState(pkg, 'function', 'functions') as Map<string, unknown>
  // A probe addon function that requires a session, as pikkuFunc declares one.
  funcMeta.whoAmIProbe = { pikkuFuncId: 'whoAmIProbe', inputSchemaName: null, outputSchemaName: null }
  functions.set('whoAmIProbe', { func: async (_services: unknown, _data: unknown, wire: any) => wire.session })
  pikkuState(null, 'addons', 'packages').set('chatopen', { package: pkg, auth: false })
  const warnings = collectLogs(app.services, 'warn')
  try {
    await assert.rejects(rpcAs().invoke('chatopen:whoAmIProbe' as never, {} as never), { name: 'ForbiddenError', message: 'Authentication required' })
    assert.deepEqual(await alice().invoke('chatopen:whoAmIProbe' as never, {} as never), { userId: 'alice' })
    const disabled = warnings.lines.filter((w) => w.startsWith("Function 'whoAmIProbe' requires a session but auth was explicitly disabled"))
    assert.equal(disabled.length, 2, JSON.stringify(warnings.lines))
  } finally {
    warnings.restore()
    delete funcMeta.whoAmIProbe
    functions.delete('whoAmIProbe')
    pikkuState(null, 'addons', 'packages').delete('chatopen')
    pikkuState('chatopen', 'package', 'singletonServices', undefined as never)
  }
})

test('addon-scopes-403: an install with scopes refuses a caller whose session lacks one with MissingScopeError, a 403 over HTTP, and lets one that holds it through', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  // The status the HTTP runtimes answer for an error, as registered with addError.
  const statusOf = (error: Error) => (pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>).get(error.constructor)?.status
  const pkg = '@todo-app/notify-addon'
  pikkuState(null, 'addons', 'packages').set('chatscoped', { package: pkg, scopes: ['alerts:send'] } as never)
  hook.received.length = 0
  try {
    const error: any = await alice().invoke('chatscoped:postToChat' as never, { text: 'no scope' } as never).catch((e: unknown) => e)
    assert.equal(error.name, 'MissingScopeError')
    assert.equal(error.message, 'Missing required scope: alerts:send')
    assert.equal(statusOf(error), 403)
    assert.deepEqual(hook.received, [])
    const scoped = rpcService.getContextRPCService(app.services, { session: { userId: 'alice', scopes: ['alerts:send'] } } as never, false)
    assert.deepEqual(await scoped.invoke('chatscoped:postToChat' as never, { text: 'with scope' } as never), { posted: true })
    assert.deepEqual(hook.received, [{ text: 'with scope' }])
  } finally {
    pikkuState(null, 'addons', 'packages').delete('chatscoped')
    pikkuState('chatscoped', 'package', 'singletonServices', undefined as never)
  }
})

test('addon-tag-without-middleware-gates-nothing: an install whose tag only an empty addTagMiddleware list or only a non-empty addChannelMiddleware list names lets every call through, and the channel middleware does not run; a tag middleware that refuses does gate it', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const pkg = '@todo-app/notify-addon'
  const packages = pikkuState(null, 'addons', 'packages')
  const tagGroups = pikkuState(null, 'middleware', 'tagGroup')
  const channelTagGroups = pikkuState(null, 'channelMiddleware', 'tagGroup')
  const ran: string[] = []
  // One namespace per case: the runner caches each namespaced function's middleware chain on its first call.
  const namespaces = ['chattagch', 'chattagempty', 'chattagrefuse']
  for (const namespace of namespaces) packages.set(namespace, { package: pkg, tags: ['audited'] } as never)
  const call = (namespace: string, text: string) => alice().invoke(`${namespace}:postToChat` as never, { text } as never)
  hook.received.length = 0
  try {
    channelTagGroups.audited = [async (_services: unknown, _event: unknown, next: any) => { ran.push('channel'); return next() }] as never
    assert.deepEqual(await call('chattagch', 'channel only'), { posted: true })
    delete channelTagGroups.audited
    tagGroups.audited = [] as never
    assert.deepEqual(await call('chattagempty', 'empty list'), { posted: true })
    assert.deepEqual(ran, [])
    assert.deepEqual(hook.received, [{ text: 'channel only' }, { text: 'empty list' }])
    tagGroups.audited = [async () => { throw new Error('audit refused') }] as never
    await assert.rejects(call('chattagrefuse', 'refused'), { message: 'audit refused' })
    assert.equal(hook.received.length, 2)
  } finally {
    delete tagGroups.audited
    delete channelTagGroups.audited
    for (const namespace of namespaces) {
      packages.delete(namespace)
      pikkuState(namespace, 'package', 'singletonServices', undefined as never)
    }
  }
})

/** POST a chat message to one of the ref() routes of src/addons/chat-post.http.ts, as alice or with no session. */
const postVia = async (route: string, session: boolean) => {
  const response = await fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(session ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ text: `via ${route}` }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** The call to a ref() route was refused by the addon's auth: 403 'Authentication required', and nothing was posted. */
const refusedByAddonAuth = async (route: string, session: boolean) => {
  hook.received.length = 0
  const { status, body } = await postVia(route, session)
  assert.deepEqual([status, body.message], [403, 'Authentication required'])
  assert.deepEqual(hook.received, [])
}

test('ref-route-session-lost: in 0.12.90 a ref("chat:postToChat") route refuses even a caller with a session when the addon has auth: true', async () => {
  // The app's middleware runs with the addon's services (ref-route-middleware-addon-services, below), so alice's
  // bearer token never becomes a session. An app function that calls the addon itself (announceTodo) does not lose it.
  await refusedByAddonAuth('/chat/post', true)
})

test('ref-route-middleware-addon-services: a ref() route to an addon function runs the app\'s global middleware with the addon\'s services, which have no jwt; with a jwt there, the caller\'s session reaches the addon call', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  await refusedByAddonAuth('/chat/post', true)
  // The route's function resolves into the addon's package, and the runner hands the middleware the singleton
  // services it built for that package (cached under the package name): built by pikkuAddonServices, with no jwt.
  const addonServices = pikkuState('@todo-app/notify-addon', 'package', 'singletonServices') as unknown as Record<string, unknown>
  assert.ok(addonServices)
  assert.equal(addonServices.jwt, undefined)
  addonServices.jwt = appJWT
  try {
    hook.received.length = 0
    const { status, body } = await postVia('/chat/post', true)
    assert.deepEqual([status, body], [200, { posted: true }])
    assert.deepEqual(hook.received, [{ text: 'via /chat/post' }])
  } finally {
    delete addonServices.jwt
  }
})

test('ref-route-cookie-and-api-key-lost: on a ref() route to an addon function, a session cookie or an x-api-key header turns into no session either, since authCookie and authAPIKey find no jwt in the addon\'s services; with a jwt there, both reach the addon call', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const post = async (headers: Record<string, string>) => {
    const response = await fetch(`${app.url}/chat/post`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ text: 'via a credential' }),
    })
    return [response.status, ((await response.json()) as { message?: string }).message ?? 'ok']
  }
  hook.received.length = 0
  assert.deepEqual(await post({ cookie: `todo_session=${token}` }), [403, 'Authentication required'])
  assert.deepEqual(await post({ 'x-api-key': token }), [403, 'Authentication required'])
  assert.deepEqual(hook.received, [])
  const addonServices = pikkuState('@todo-app/notify-addon', 'package', 'singletonServices') as unknown as Record<string, unknown>
  addonServices.jwt = appJWT
  try {
    assert.deepEqual(await post({ cookie: `todo_session=${token}` }), [200, 'ok'])
    assert.deepEqual(await post({ 'x-api-key': token }), [200, 'ok'])
    assert.equal(hook.received.length, 2)
  } finally {
    delete addonServices.jwt
  }
})

test('ref-route-addon-auth: on a ref() route with auth: false, wireAddon auth: true still refuses a caller without a session', async () => {
  // The ref() proxy calls rpc.invoke('chat:postToChat'), which runs in the addon's package, where auth: true applies.
  await refusedByAddonAuth('/chat/post-open', false)
})

test('ref-route-open-no-session: on a ref() route with auth: false, the bearer token of a caller does not reach the addon call either', async () => {
  await refusedByAddonAuth('/chat/post-open', true)
})

test('addon-contract-refs: the generated refHTTP returns chat:notifyRoutes, a POST /messages route whose func calls rpc.invoke("chat:postToChat"), with the contract\'s basePath unless { basePath } replaces it; the CLI\'s serializer writes channel and CLI contracts with a ref() in place of every function too', async () => {
  const generated: any = await import('#pikku/function/pikku-function-types.gen.js')
  const contract = generated.refHTTP('chat:notifyRoutes')
  assert.equal(contract.basePath, '/notify')
  assert.deepEqual(Object.keys(contract.routes), ['post'])
  assert.deepEqual([contract.routes.post.method, contract.routes.post.route], ['post', '/messages'])
  const calls: unknown[][] = []
  const rpc = { invoke: async (...args: unknown[]) => calls.push(args) }
  await contract.routes.post.func.func({}, { text: 'Hi' }, { rpc })
  assert.deepEqual(calls, [['chat:postToChat', { text: 'Hi' }]])
  assert.equal(generated.refHTTP('chat:notifyRoutes', { basePath: '/chat' }).basePath, '/chat')
  assert.equal(generated.refHTTP('chat:notifyRoutes').basePath, '/notify')
  assert.deepEqual([typeof generated.refChannel, typeof generated.refCLI], ['function', 'function'])
  const { serializeAddonRefs } = await import(
    join(APP_DIR, 'node_modules/@pikku/cli/dist/src/functions/wirings/functions/serialize-addon-refs.js')
  )
  const text: string = serializeAddonRefs({
    addonHttp: {},
    addonChannel: { chat: { live: { send: { pikkuFuncId: 'chat:postToChat' } } } },
    addonCli: { chat: { tools: { post: { pikkuFuncId: 'chat:postToChat', options: {} } } } },
  })
  assert.match(text, /"chat:live": \{ "send": \{ func: ref\("chat:postToChat"\) \} \}/)
  assert.match(text, /"chat:tools": \{ "post": \{ func: ref\("chat:postToChat"\), options: \{\} \} \}/)
})

test('addon-input-validated: the addon function input schema applies to namespaced calls', async () => {
  await assert.rejects(alice().invoke('chat:postToChat', { text: 42 }), { name: 'UnprocessableContentError' })
})

test('unknown-addon-function: a name the addon does not export throws RPCNotFoundError', async () => {
  const error = await alice()
    .invoke('chat:postToSlack', { text: 'x' })
    .catch((e: unknown) => e)
  assert.ok(error instanceof RPCNotFoundError)
  assert.equal(error.message, 'RPC function not found: chat:postToSlack')
})

test('unresolved-to-deployment-service: with a deploymentService among the services, rpc.invoke hands a namespaced name the addon does not export to its invoke, with the caller\'s session, instead of throwing', async () => {
  const handed: unknown[] = []
  const deploymentService = { invoke: async (...args: unknown[]) => (handed.push(args.slice(0, 3)), { remote: true }) }
  const rpc = rpcService.getContextRPCService({ ...app.services, deploymentService } as never, { session: { userId: 'alice' } } as never, false)
  assert.deepEqual(await rpc.invoke('chat:postToSlack' as never, { text: 'x' } as never), { remote: true })
  assert.deepEqual(handed, [['chat:postToSlack', { text: 'x' }, { userId: 'alice' }]])
})

test('addon-unknown-version-not-found: a namespaced call with a version the addon does not have is not served by its latest; it throws RPCNotFoundError', async () => {
  // The app's own functions fall back to the latest version here (versioning#unknown-version-serves-latest).
  hook.received.length = 0
  const error = await alice()
    .invoke('chat:postToChat@v7' as never, { text: 'x' } as never)
    .catch((e: unknown) => e)
  assert.ok(error instanceof RPCNotFoundError)
  assert.equal(error.message, 'RPC function not found: chat:postToChat@v7')
  assert.deepEqual(hook.received, [])
})

test('addon-call-skips-app-globals: the app\'s global middleware does not run for a namespaced call into an addon', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const { addWireIdRecorder } = await import('./harness/core-probes.js')
  const rpcMeta = pikkuState(null, 'rpc', 'meta') as Record<string, string>
  // A namespace new to this process, so the runner builds its chain after the middleware is registered.
  pikkuState(null, 'addons', 'packages').set('chatmw', { package: '@todo-app/notify-addon' })
  const { seen, remove } = addWireIdRecorder()
  hook.received.length = 0
  try {
    assert.deepEqual(await alice().invoke('chatmw:postToChat' as never, { text: 'globals probe' } as never), { posted: true })
    assert.deepEqual(hook.received, [{ text: 'globals probe' }])
    assert.deepEqual(seen, [])
    // Control: the same call shape into one of the app's own functions, under a name also new to this process, runs it.
    rpcMeta.globalsProbeTarget = 'countOpenTodos'
    await alice().invoke('globalsProbeTarget' as never, {} as never)
    assert.deepEqual(seen, ['globalsProbeTarget'])
  } finally {
    remove()
    pikkuState(null, 'addons', 'packages').delete('chatmw')
    pikkuState('chatmw', 'package', 'singletonServices', undefined as never)
    delete rpcMeta.globalsProbeTarget
  }
})

test('announce-done: announceTodo posts "Done: <title>" through the addon for a finished to-do', async () => {
  hook.received.length = 0
  assert.deepEqual(await announce(doneTodoId), { status: 200, body: { posted: true } })
  assert.deepEqual(hook.received, [{ text: 'Done: Write the changelog' }])
})

test('announce-open: for a to-do that is not done, announceTodo posts nothing', async () => {
  hook.received.length = 0
  assert.deepEqual(await announce(openTodoId), { status: 200, body: { posted: false } })
  assert.deepEqual(hook.received, [])
})

test('announce-permission: the app permission (isTodoOwner) guards the call before the addon is reached', async () => {
  hook.received.length = 0
  const { status, body } = await announce(bobTodoId)
  assert.equal(status, 403)
  assert.equal(body.message, 'Permission denied')
  assert.deepEqual(hook.received, [])
})

test('services-once-per-namespace: the addon services are built on the first call and kept', async () => {
  // The chat client read CHAT_WEBHOOK_URL when the first call built the addon services; a new value is not seen.
  process.env.CHAT_WEBHOOK_URL = otherHook.url
  hook.received.length = 0
  try {
    await alice().invoke('chat:postToChat', { text: 'Still the first hook' })
  } finally {
    process.env.CHAT_WEBHOOK_URL = hook.url
  }
  assert.deepEqual(hook.received, [{ text: 'Still the first hook' }])
  assert.deepEqual(otherHook.received, [])
})

test('clear-state-rebuilds-addon-services: clearPikkuRuntimeState also drops the addon services, and the next call into the addon builds them afresh', async () => {
  const { clearPikkuRuntimeState } = await import('@pikku/core/testing')
  const { setSingletonServices } = await import('@pikku/core/state')
  hook.received.length = 0
  otherHook.received.length = 0
  // Built now if no earlier test built them: the chat client reads CHAT_WEBHOOK_URL (hook.url) once, when built
  await alice().invoke('chat:postToChat', { text: 'Before a clear' })
  process.env.CHAT_WEBHOOK_URL = otherHook.url
  try {
    clearPikkuRuntimeState()
    setSingletonServices(app.services as never)
    await alice().invoke('chat:postToChat', { text: 'After a clear' })
  } finally {
    process.env.CHAT_WEBHOOK_URL = hook.url
    // Cleared once more, so that the next call builds the chat client for hook.url again
    clearPikkuRuntimeState()
    setSingletonServices(app.services as never)
  }
  assert.deepEqual(hook.received, [{ text: 'Before a clear' }])
  assert.deepEqual(otherHook.received, [{ text: 'After a clear' }])
})

test('addon-services-factory-overlap: calls into a namespace that arrive while its services factory is still running each run the factory, and the set that resolves last is the one kept', async () => {
  const { clearPikkuRuntimeState } = await import('@pikku/core/testing')
  const { pikkuState, setSingletonServices } = await import('@pikku/core/state')
  const PACKAGE = '@todo-app/notify-addon'
  const factories = pikkuState(PACKAGE, 'package', 'factories')!
  const built: object[] = []
  const started: Array<() => void> = []
  let bothStarted!: () => void
  const twoRunning = new Promise<void>((resolve) => (bothStarted = resolve))
  const createSingletonServices = async (config: any, services: any) => {
    // Each run waits until the test releases it, so the two runs overlap.
    await new Promise<void>((release) => {
      started.push(release)
      if (started.length === 2) bothStarted()
    })
    const made = await factories.createSingletonServices!(config, services)
    built.push(made)
    return made
  }
  clearPikkuRuntimeState()
  setSingletonServices(app.services as never)
  pikkuState(PACKAGE, 'package', 'factories', { ...factories, createSingletonServices } as never)
  hook.received.length = 0
  try {
    const first = alice().invoke('chat:postToChat', { text: 'First' })
    const second = alice().invoke('chat:postToChat', { text: 'Second' })
    await twoRunning
    // The second call's run resolves first, the first call's last.
    started[1]()
    await second
    started[0]()
    await first
    assert.equal(built.length, 2)
    assert.equal(pikkuState('chat', 'package', 'singletonServices'), built[1])
    assert.notEqual(built[0], built[1])
  } finally {
    pikkuState(PACKAGE, 'package', 'factories', factories)
    clearPikkuRuntimeState()
    setSingletonServices(app.services as never)
  }
  assert.equal(hook.received.length, 2)
})

test('addon-error-propagates: an error thrown inside the addon reaches the caller; the route answers 500', async () => {
  hook.status = 500
  try {
    // A plain Error from the addon's chat client: the route answers 500 with its message (outside production).
    const { status, body } = await announce(doneTodoId)
    assert.equal(status, 500)
    assert.equal(body.message, 'The chat webhook answered 500')
  } finally {
    hook.status = 200
  }
})

test('addon-config-gets-no-services: core 0.12.90 calls a pikkuAddonConfig factory without the app services, so it has no logger and cannot read a variable or a secret', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const { pikkuAddonConfig } = await import('@todo-app/notify-addon/.pikku/setup/pikku-addon-setup-types.gen.js')
  const pkg = '@todo-app/notify-addon'
  const factories = pikkuState(pkg, 'package', 'factories')!
  const seen: string[] = []
  const createConfig = pikkuAddonConfig(async (services: any) => {
    seen.push(`logger: ${typeof services.logger}`)
    const reads = [() => services.variables.get('CHAT_CHANNEL'), () => services.secrets.getSecret('CHAT_WEBHOOK_URL')]
    for (const read of reads) {
      try {
        await read()
        seen.push('read')
      } catch (error) {
        seen.push((error as Error).message)
      }
    }
    return {} as never
  })
  pikkuState(pkg, 'package', 'factories', { ...factories, createConfig })
  // A second install of the same package, so its services are built afresh rather than taken from 'chat'.
  pikkuState(null, 'addons', 'packages').set('chatcfg', { package: pkg })
  try {
    await alice().invoke('chatcfg:postToChat' as never, { text: 'config probe' } as never)
    assert.deepEqual(seen, [
      'logger: undefined',
      "Cannot read properties of undefined (reading 'get')",
      "Cannot read properties of undefined (reading 'getSecret')",
    ])
  } finally {
    pikkuState(pkg, 'package', 'factories', factories)
    pikkuState(null, 'addons', 'packages').delete('chatcfg')
  }
})

test('addon-services-get-app-services: an instance\'s services factory receives the app\'s logger and variables, and a secrets service that refuses a secret the addon did not declare', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const pkg = '@todo-app/notify-addon'
  const factories = pikkuState(pkg, 'package', 'factories')!
  const seen: string[] = []
  const createSingletonServices = async (config: any, services: any) => {
    seen.push(`logger: ${services.logger === app.services.logger}`, `variables: ${services.variables === app.services.variables}`)
    try {
      await services.secrets.getSecret('JWT_SECRET')
      seen.push('read')
    } catch (error) {
      seen.push((error as Error).message)
    }
    return factories.createSingletonServices!(config, services)
  }
  pikkuState(pkg, 'package', 'factories', { ...factories, createSingletonServices })
  // A second install of the same package, so its services are built afresh rather than taken from 'chat'.
  pikkuState(null, 'addons', 'packages').set('chatsvc', { package: pkg })
  hook.received.length = 0
  try {
    assert.deepEqual(await alice().invoke('chatsvc:postToChat' as never, { text: 'services probe' } as never), { posted: true })
    assert.deepEqual(seen, ['logger: true', 'variables: true', 'Access denied to secret key: JWT_SECRET'])
    // The declared CHAT_WEBHOOK_URL was read through the same service: the message reached the webhook.
    assert.deepEqual(hook.received, [{ text: 'services probe' }])
  } finally {
    pikkuState(pkg, 'package', 'factories', factories)
    pikkuState(null, 'addons', 'packages').delete('chatsvc')
  }
})

test('addon-services-scoped-writes: an instance\'s scoped secrets service refuses setSecret and deleteSecret, while its credentialService writes and deletes a granted credential and refuses another name and listing every user; an instance with globalSecrets gets the app\'s own secrets service', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const pkg = '@todo-app/notify-addon'
  const factories = pikkuState(pkg, 'package', 'factories')!
  const seen: Record<string, any> = {}
  const createSingletonServices = async (config: any, services: any) => {
    seen[services.secrets === app.services.secrets ? 'global' : 'scoped'] = services
    return factories.createSingletonServices!(config, services)
  }
  pikkuState(pkg, 'package', 'factories', { ...factories, createSingletonServices })
  const packages = pikkuState(null, 'addons', 'packages')
  // Two more installs of the same package, so their services are built afresh rather than taken from 'chat'.
  packages.set('chatwrite', { package: pkg, credentialGrants: ['probeCred'] } as never)
  packages.set('chatglobal', { package: pkg, globalSecrets: true } as never)
  try {
    for (const namespace of ['chatwrite', 'chatglobal']) await alice().invoke(`${namespace}:postToChat` as never, { text: namespace } as never)
    const { secrets, credentialService } = seen.scoped
    await assert.rejects(secrets.setSecret('CHAT_WEBHOOK_URL', 'x'), { message: 'setSecret is not allowed in scoped secret service' })
    await assert.rejects(secrets.deleteSecret('CHAT_WEBHOOK_URL'), { message: 'deleteSecret is not allowed in scoped secret service' })
    await credentialService.set('probeCred', { token: 't' }, 'alice')
    assert.deepEqual(await credentialService.get('probeCred', 'alice'), { token: 't' })
    await credentialService.delete('probeCred', 'alice')
    assert.equal(await credentialService.get('probeCred', 'alice'), null)
    await assert.rejects(credentialService.set('otherCred', {}, 'alice'), { message: 'Access denied to credential: otherCred' })
    await assert.rejects(credentialService.getAllUsers())
    assert.ok(seen.global, 'the globalSecrets install was handed the app\'s secrets service')
  } finally {
    pikkuState(pkg, 'package', 'factories', factories)
    for (const namespace of ['chatwrite', 'chatglobal']) {
      packages.delete(namespace)
      pikkuState(namespace, 'package', 'singletonServices', undefined as never)
    }
  }
})

test('addon-global-secrets-function-denied: an instance with a globalSecrets reason hands its services factory the app\'s secrets, so the factory and the function\'s middleware read a secret the addon never declared, while its function still gets SecretAccessDeniedError from secrets', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const { SecretAccessDeniedError } = await import('@pikku/core/services')
  const pkg = '@todo-app/notify-addon'
  const factories = pikkuState(pkg, 'package', 'factories')!
  const functions = pikkuState(pkg, 'function', 'functions')
  const original = functions.get('postToChat')!
  let read: unknown
  const createSingletonServices = async (config: any, services: any) => {
    read = (await services.secrets.getSecret('PROBE_APP_ONLY_SECRET')).reveal()
    return factories.createSingletonServices!(config, services)
  }
  process.env.PROBE_APP_ONLY_SECRET = 'app-only'
  pikkuState(pkg, 'package', 'factories', { ...factories, createSingletonServices })
  const packages = pikkuState(null, 'addons', 'packages')
  packages.set('chatsecrets', { package: pkg, globalSecrets: 'probe: reads every app secret' } as never)
  let readInMiddleware: unknown
  const middleware = async (services: any, _wire: unknown, next: () => Promise<void>) => {
    readInMiddleware = (await services.secrets.getSecret('PROBE_APP_ONLY_SECRET')).reveal()
    await next()
  }
  functions.set('postToChat', { ...original, middleware: [middleware], func: async ({ secrets }: any) => secrets.getSecret('CHAT_WEBHOOK_URL') } as never)
  try {
    await assert.rejects(alice().invoke('chatsecrets:postToChat' as never, { text: 'x' } as never), (error: unknown) => error instanceof SecretAccessDeniedError)
    assert.deepEqual([read, readInMiddleware], ['app-only', 'app-only'])
  } finally {
    functions.set('postToChat', original)
    pikkuState(pkg, 'package', 'factories', factories)
    packages.delete('chatsecrets')
    pikkuState('chatsecrets', 'package', 'singletonServices', undefined as never)
    delete process.env.PROBE_APP_ONLY_SECRET
  }
})

test('addon-credentials-wire-unscoped: credentialOverrides rename a credential only for wire.getCredential, not in the addon\'s credentialService; an addon function called by an app function with rpc.invoke, or through an instance with credentialOverrides, reads through wire.getCredential any credential of the session\'s user', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const pkg = '@todo-app/notify-addon'
  const { credentialService } = app.services as any
  const factories = pikkuState(pkg, 'package', 'factories')!
  const functions = pikkuState(pkg, 'function', 'functions')
  const original = functions.get('postToChat')!
  const packages = pikkuState(null, 'addons', 'packages')
  let scoped: any
  const createSingletonServices = async (config: any, services: any) => {
    scoped = services.credentialService
    return factories.createSingletonServices!(config, services)
  }
  const seen: Array<Record<string, unknown>> = []
  await credentialService.set('APP_CRED', { v: 'app' }, 'alice')
  await credentialService.set('OTHER_CRED', { v: 'other' }, 'alice')
  pikkuState(pkg, 'package', 'factories', { ...factories, createSingletonServices })
  packages.set('chatcredov', { package: pkg, credentialOverrides: { ADDON_CRED: 'APP_CRED' } } as never)
  functions.set('postToChat', {
    ...original,
    func: async (_services: unknown, _data: unknown, wire: any) => {
      seen.push({ aliased: await wire.getCredential('ADDON_CRED'), other: await wire.getCredential('OTHER_CRED') })
      return { posted: true }
    },
  } as never)
  try {
    // announceTodo (an app function) calls rpc.invoke('chat:postToChat'); 'chat' declares and is granted no credentials.
    assert.deepEqual(await alice().invoke('announceTodo', { todoId: doneTodoId }), { posted: true })
    assert.deepEqual(seen.pop(), { aliased: null, other: { v: 'other' } })
    assert.deepEqual(await alice().invoke('chatcredov:postToChat' as never, { text: 'x' } as never), { posted: true })
    assert.deepEqual(seen.pop(), { aliased: { v: 'app' }, other: { v: 'other' } })
    assert.equal(await scoped.get('ADDON_CRED', 'alice'), null)
  } finally {
    functions.set('postToChat', original)
    pikkuState(pkg, 'package', 'factories', factories)
    packages.delete('chatcredov')
    pikkuState('chatcredov', 'package', 'singletonServices', undefined as never)
    await credentialService.delete('APP_CRED', 'alice')
    await credentialService.delete('OTHER_CRED', 'alice')
  }
})

test('addon-services-no-credentials: the generated pikkuAddonServices hands its factory no credentials service, only credentialService, and keeps neither for the addon\'s functions', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const { pikkuAddonServices } = await import('@todo-app/notify-addon/.pikku/setup/pikku-addon-setup-types.gen.js')
  const pkg = '@todo-app/notify-addon'
  const factories = pikkuState(pkg, 'package', 'factories')!
  const seen: string[] = []
  // The same generated wrapper the chat addon's own factory uses (src/services.ts); the CLI writes its body the same
  // way for an addon that declares credentials, where its type adds a `credentials` field.
  const createSingletonServices = pikkuAddonServices(async (config: any, services: any) => {
    seen.push(`credentials: ${typeof services.credentials}`, `credentialService: ${services.credentialService?.constructor.name}`)
    return factories.createSingletonServices!(config, services)
  })
  pikkuState(pkg, 'package', 'factories', { ...factories, createSingletonServices } as never)
  // A second install of the same package, so its services are built afresh rather than taken from 'chat'.
  pikkuState(null, 'addons', 'packages').set('chatcred', { package: pkg })
  hook.received.length = 0
  try {
    assert.deepEqual(await alice().invoke('chatcred:postToChat' as never, { text: 'credentials probe' } as never), { posted: true })
    assert.deepEqual(seen, ['credentials: undefined', 'credentialService: ScopedCredentialService'])
    // What the addon's functions are given: the kept set has no credential service of either name.
    const kept = pikkuState('chatcred', 'package', 'singletonServices') as unknown as Record<string, unknown>
    assert.deepEqual(['credentials' in kept, 'credentialService' in kept], [false, false])
  } finally {
    pikkuState(pkg, 'package', 'factories', factories)
    pikkuState(null, 'addons', 'packages').delete('chatcred')
    pikkuState('chatcred', 'package', 'singletonServices', undefined as never)
  }
})

test('addon-function-secrets-denied: an addon function that reads secrets from its services gets SecretAccessDeniedError, though the addon declares the secret', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const { SecretAccessDeniedError } = await import('@pikku/core/services')
  const functions = pikkuState('@todo-app/notify-addon', 'function', 'functions')
  const original = functions.get('postToChat')!
  functions.set('postToChat', { ...original, func: async ({ secrets }: any) => secrets.getSecret('CHAT_WEBHOOK_URL') } as never)
  try {
    await assert.rejects(alice().invoke('chat:postToChat', { text: 'Read a secret' }), (error: unknown) => error instanceof SecretAccessDeniedError)
  } finally {
    functions.set('postToChat', original)
  }
})

test('addon-install-cli-codes: pikku reports a wireAddon package that does not resolve as PKU340; a wireRemoteAddon package under dependencies or under neither list as PKU338, not one under devDependencies; and an auth secretId or credentialId that names no declaration as PKU339, where secretId is compared with a secret\'s name, not its key', async () => {
  const secret = [
    "import { z } from 'zod'",
    "import { defineSecret } from '@pikku/core/secret'",
    'const TokenSchema = z.string()',
    "defineSecret({ name: 'notifyServiceToken', displayName: 'Token', secretId: 'NOTIFY_SERVICE_TOKEN', schema: TokenSchema })",
    '',
  ].join('\n')
  const remote = (auth = '') =>
    `import { wireRemoteAddon } from '@pikku/core/addon'\nwireRemoteAddon({ name: 'notify', package: '@todo-app/notify-addon', serverUrl: 'https://notify.example.com'${auth} })\n`
  const run = async (name: string, files: Record<string, string>) =>
    codes((await inspectFiles(name, files)).reported).filter((c) => /^PKU3(38|39|40) /.test(c))
  const manifest = (list: 'dependencies' | 'devDependencies' | null) =>
    JSON.stringify({ name: 'probe', ...(list ? { [list]: { '@todo-app/notify-addon': '*' } } : {}) })
  const local = (pkg: string) => `import { wireAddon } from '@pikku/core/addon'\nwireAddon({ name: 'chat', package: '${pkg}' })\n`

  assert.deepEqual(await run('pku340-missing', { 'probe.ts': local('@todo-app/no-such-addon') }), ['PKU340 critical'])
  assert.deepEqual(await run('pku340-present', { 'probe.ts': local('@todo-app/notify-addon') }), [])
  assert.deepEqual(await run('pku338-prod', { 'probe.ts': remote(), 'package.json': manifest('dependencies') }), ['PKU338 critical'])
  assert.deepEqual(await run('pku338-none', { 'probe.ts': remote(), 'package.json': manifest(null) }), ['PKU338 critical'])
  assert.deepEqual(await run('pku338-dev', { 'probe.ts': remote(), 'package.json': manifest('devDependencies') }), [])
  const dev = { 'package.json': manifest('devDependencies') }
  assert.deepEqual(await run('pku339-name', { ...dev, 'probe.ts': secret + remote(", auth: { secretId: 'notifyServiceToken' }") }), [])
  assert.deepEqual(await run('pku339-key', { ...dev, 'probe.ts': secret + remote(", auth: { secretId: 'NOTIFY_SERVICE_TOKEN' }") }), ['PKU339 critical'])
  assert.deepEqual(await run('pku339-credential', { ...dev, 'probe.ts': secret + remote(", auth: { credentialId: 'noSuchCredential' }") }), ['PKU339 critical'])
})

test('remote-install-sample-codes: the remote install sample of docs/addons/consuming.mdx is reported by the inspector with PKU338 and nothing else while the package is under dependencies, and with nothing at all once it is under devDependencies', async () => {
  const page = readFileSync(join(APP_DIR, '..', '..', 'docs', 'addons', 'consuming.mdx'), 'utf8')
  const sample = /```ts title="src\/addons\/remote-notify\.addon\.ts"[^\n]*\n([\s\S]*?)\n```/.exec(page)![1]!
  assert.match(sample, /wireRemoteAddon\(/)
  const manifest = (list: 'dependencies' | 'devDependencies') => JSON.stringify({ name: 'probe', [list]: { '@todo-app/notify-addon': '*' } })
  const run = async (name: string, list: 'dependencies' | 'devDependencies') =>
    codes((await inspectFiles(name, { 'remote-notify.addon.ts': sample, 'package.json': manifest(list) })).reported)
  assert.deepEqual(await run('remote-sample-prod', 'dependencies'), ['PKU338 critical'])
  assert.deepEqual(await run('remote-sample-dev', 'devDependencies'), [])
})

test('pku921-spread-not-checked: in an addon, a defineHTTPRoutes route map spread in from a variable is not checked for middleware:', async () => {
  const head = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "import { defineHTTPRoutes } from '#pikku/http'",
    'const probe = pikkuSessionlessFunc<void, void>({ func: async () => {} })',
  ].join('\n')
  const inline = `${head}\nexport const c = defineHTTPRoutes({ routes: { p: { method: 'post', route: '/p', func: probe, middleware: [] } } })\n`
  const spread = `${head}\nconst more = { p: { method: 'post', route: '/p', func: probe, middleware: [] } } as const\nexport const c = defineHTTPRoutes({ routes: { ...more } } as never)\n`
  const pku921 = async (name: string, text: string) =>
    codes((await inspectFiles(name, { 'probe.ts': text }, { isAddon: true })).reported).filter((c) => c.startsWith('PKU921'))
  assert.deepEqual(await pku921('pku921-inline', inline), ['PKU921 critical'])
  assert.deepEqual(await pku921('pku921-spread', spread), [])
})

test('addon-overrides-tags-cli-codes: a secretOverrides target for a key the addon declares brings the declaration along under the new key; any other target must be one of the app\'s declared secrets, or PKU124; a wireAddon tag no middleware call names is PKU575, unless an empty addTagMiddleware list or a non-empty addChannelMiddleware list names it', async () => {
  const install = (options: string) =>
    `import { wireAddon } from '@pikku/core/addon'\nwireAddon({ name: 'alerts', package: '@todo-app/notify-addon'${options} })\n`
  const appSecret = [
    "import { z } from 'zod'",
    "import { defineSecret } from '@pikku/core/secret'",
    'const OwnSchema = z.string()',
    "defineSecret({ name: 'appOwnSecret', displayName: 'Own', secretId: 'APP_OWN_SECRET', schema: OwnSchema })",
    '',
  ].join('\n')
  const run = async (name: string, text: string) => {
    const { reported, state } = await inspectFiles(name, { 'probe.ts': text })
    return { found: codes(reported).filter((c) => /^PKU(124|575) /.test(c)), state: state as any }
  }
  const declared = await run('override-declared', install(", secretOverrides: { CHAT_WEBHOOK_URL: 'ALERTS_WEBHOOK_URL' }"))
  assert.deepEqual(declared.found, [])
  assert.ok(declared.state.secrets.definitions.some((d: any) => d.secretId === 'ALERTS_WEBHOOK_URL'))
  assert.deepEqual((await run('override-undeclared', install(", secretOverrides: { OTHER_KEY: 'NOT_DECLARED_HERE' }"))).found, ['PKU124 critical'])
  assert.deepEqual((await run('override-app-secret', appSecret + install(", secretOverrides: { OTHER_KEY: 'APP_OWN_SECRET' }"))).found, [])

  const mw = "import { pikkuMiddleware } from '@pikku/core/middleware'\nconst mw = pikkuMiddleware(async (_s, _w, next) => next())\n"
  const tagged = install(", tags: ['audited']")
  assert.deepEqual((await run('tag-none', tagged)).found, ['PKU575 warn'])
  assert.deepEqual((await run('tag-empty-tag-list', `${mw}import { addTagMiddleware } from '@pikku/core/middleware'\naddTagMiddleware('audited', [])\n${tagged}`)).found, [])
  assert.deepEqual((await run('tag-channel-list', `${mw}import { addChannelMiddleware } from '@pikku/core/channel'\naddChannelMiddleware('audited', [mw])\n${tagged}`)).found, [])
  assert.deepEqual((await run('tag-empty-channel-list', `${mw}import { addChannelMiddleware } from '@pikku/core/channel'\naddChannelMiddleware('audited', [])\n${tagged}`)).found, ['PKU575 warn'])
})

test('addon-scopes-cli-unchecked: a wireAddon scope is a plain string to the compiler, and pikku reports nothing for a wireAddon scope that defineScope does not declare, while a defineSystemRole that grants it is PKU124 until defineScope declares it', async () => {
  const scopes = "import { defineScope } from '@pikku/core/scope'\ndefineScope({ todos: { displayName: 'To-do lists', scopes: { read: { description: 'Read' } } } })\n"
  const alerts = "import { defineScope } from '@pikku/core/scope'\ndefineScope({ alerts: { displayName: 'Alerts', scopes: { send: { description: 'Send' } } } })\n"
  const install = "import { wireAddon } from '@pikku/core/addon'\nwireAddon({ name: 'alerts', package: '@todo-app/notify-addon', scopes: ['todos:raed'] })\n"
  const role = "import { defineSystemRole } from '@pikku/core/role'\ndefineSystemRole({ pager: { scopes: ['alerts:send'] } })\n"
  // Compiled strictly with the other behaviour tests (scripts/code-samples.mjs): the misspelled scope type-checks.
  const misspelled: Parameters<typeof wireAddon>[0] = { name: 'alerts', package: '@todo-app/notify-addon', scopes: ['todos:raed'] }
  assert.deepEqual(misspelled.scopes, ['todos:raed'])
  const run = async (name: string, files: Record<string, string>) =>
    codes((await inspectFiles(name, files)).reported).filter((c) => c.startsWith('PKU124'))
  // Not only no PKU124: pikku reports nothing at all for the misspelled wireAddon scope.
  assert.deepEqual(codes((await inspectFiles('addon-scope-misspelled', { 'scopes.ts': scopes, 'probe.ts': install })).reported), [])
  assert.deepEqual(await run('role-scope-undeclared', { 'scopes.ts': scopes, 'probe.ts': role }), ['PKU124 critical'])
  assert.deepEqual(await run('role-scope-declared', { 'scopes.ts': scopes, 'alerts.ts': alerts, 'probe.ts': role }), [])
})

test('remote-auth-credential-object: a remote addon bound with { credentialId } to a credential stored as an object sends "Bearer [object Object]"', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const port = await freePort()
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(String(req.headers.authorization))
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  // What wireRemoteAddon({ name: 'probeRemote', auth: { credentialId: 'probeToken' }, ... }) stores (wire-remote-addon.ts).
  const addons = pikkuState(null, 'addons', 'packages')
  addons.set('probeRemote', {
    package: '@probe/remote-addon',
    remote: true,
    serverUrl: `http://127.0.0.1:${port}`,
    remoteAuth: { credentialId: 'probeToken' },
  } as never)
  try {
    // A credential declared with an object schema, as credentials usually are, read back through the wire.
    const wire = { getCredential: async () => ({ token: 'the-real-token' }) }
    const rpc: any = rpcService.getContextRPCService(app.services as never, wire as never, false)
    assert.deepEqual(await rpc.invoke('probeRemote:doThing', {}), { ok: true })
    assert.deepEqual(seen, ['Bearer [object Object]'])
  } finally {
    addons.delete('probeRemote')
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

test('remote-unreachable-not-wrapped: a remote addon whose host refuses the connection throws fetch\'s TypeError, not RemoteAddonRequestError', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  // A port with nothing listening on it.
  const port = await freePort()
  const addons = pikkuState(null, 'addons', 'packages')
  addons.set('probeDown', {
    package: '@probe/remote-addon',
    remote: true,
    serverUrl: `http://127.0.0.1:${port}`,
  } as never)
  try {
    const rpc: any = rpcService.getContextRPCService(app.services as never, {} as never, false)
    const error = await rpc.invoke('probeDown:doThing', {}).catch((e: unknown) => e)
    assert.equal(error.name, 'TypeError')
    assert.equal(error.message, 'fetch failed')
  } finally {
    addons.delete('probeDown')
  }
})

test('remote-errors-status: a remote addon whose token resolves empty throws RemoteAddonAuthError (401), one whose serverUrl resolves empty throws RemoteAddonConfigError (500), and a non-2xx answer throws RemoteAddonRequestError (502) carrying the remote status', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  // The status the HTTP runtimes answer for an error, as registered with addError.
  const statusOf = (error: Error) => (pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>).get(error.constructor)?.status
  const port = await freePort()
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(503).end('down for maintenance'))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const addons = pikkuState(null, 'addons', 'packages')
  const base = { package: '@probe/remote-addon', remote: true, serverUrl: `http://127.0.0.1:${port}` }
  addons.set('probeNoToken', { ...base, remoteAuth: { resolve: () => '' } } as never)
  addons.set('probeNoUrl', { ...base, serverUrl: () => '' } as never)
  addons.set('probeFailing', base as never)
  const rpc: any = rpcService.getContextRPCService(app.services as never, {} as never, false)
  const failure = async (name: string) => {
    const error: any = await rpc.invoke(`${name}:doThing`, {}).catch((e: unknown) => e)
    return [error.name, statusOf(error), error.httpStatus]
  }
  try {
    assert.deepEqual(await failure('probeNoToken'), ['RemoteAddonAuthError', 401, undefined])
    assert.deepEqual(await failure('probeNoUrl'), ['RemoteAddonConfigError', 500, undefined])
    assert.deepEqual(await failure('probeFailing'), ['RemoteAddonRequestError', 502, 503])
  } finally {
    for (const name of ['probeNoToken', 'probeNoUrl', 'probeFailing']) addons.delete(name)
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

test('new-addon-package-json: pikku new addon Acme.com writes addon-acme, a package named @pikku/addon-acme whose prepublishOnly runs yarn and whose peers are @pikku/core at any version and zod 4, with a pikku.config.json holding addon: true and the display name, description, categories and icon under a separate node key', { timeout: 120_000 }, async () => {
  const { execFile } = await import('node:child_process')
  const { readFile, rm } = await import('node:fs/promises')
  const { join } = await import('node:path')
  const { fileURLToPath } = await import('node:url')
  const appDir = fileURLToPath(new URL('../../', import.meta.url))
  const pikku = join(appDir, 'node_modules', '@pikku', 'cli', 'dist', 'bin', 'pikku.js')
  // Outside any workspace, so the test harness depends on its parent with file:.. (resolveAddonDepProtocol).
  const dir = runTempDir('new-addon')
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [pikku, 'new', 'addon', 'Acme.com', '--dir', dir], { cwd: appDir }, (error) =>
        error ? reject(error) : resolve(),
      ),
    )
    const pkg = JSON.parse(await readFile(join(dir, 'addon-acme', 'package.json'), 'utf-8'))
    assert.equal(pkg.name, '@pikku/addon-acme')
    assert.deepEqual(pkg.files, ['dist'])
    assert.equal(pkg.scripts.prepublishOnly, 'yarn build')
    assert.equal(pkg.scripts.prebuild, 'pikku all')
    assert.equal(pkg.scripts.build, 'tsc && cp -r .pikku types dist/')
    assert.deepEqual(pkg.peerDependencies, { '@pikku/core': '*', zod: '^4' })
    const config = JSON.parse(await readFile(join(dir, 'addon-acme', 'pikku.config.json'), 'utf-8'))
    assert.equal(config.addon, true)
    assert.deepEqual(Object.keys(config.node).sort(), ['categories', 'description', 'displayName', 'icon'])
    // The test harness installs the addon under that name too.
    const testPkg = JSON.parse(await readFile(join(dir, 'addon-acme', 'test', 'package.json'), 'utf-8'))
    assert.equal(testPkg.dependencies['@pikku/addon-acme'], 'file:..')
    const wiring = await readFile(join(dir, 'addon-acme', 'test', 'src', 'addons.ts'), 'utf-8')
    assert.match(wiring, /wireAddon\(\{ name: 'acme', package: '@pikku\/addon-acme' \}\)/)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('addon-wire-services-per-call: an addon\'s createWireServices runs on every namespaced call, with the addon\'s own singleton services and the call\'s wire, getCredential included', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  // Where the addon's generated bootstrap registers its factories (serialize-package.ts); function-runner.ts reads
  // createWireServices from here for a call into the package.
  const PACKAGE = '@todo-app/notify-addon'
  const original = pikkuState(PACKAGE, 'package', 'factories')
  const seen: Array<{ hasChat: boolean; hasTodoStore: boolean; getCredential: string; userId?: string }> = []
  pikkuState(PACKAGE, 'package', 'factories', {
    ...original,
    createWireServices: async (services: any, wire: any) => {
      seen.push({
        hasChat: 'chat' in services,
        hasTodoStore: 'todoStore' in services,
        getCredential: typeof wire.getCredential,
        userId: wire.session?.userId,
      })
      return {}
    },
  } as never)
  hook.received.length = 0
  try {
    await alice().invoke('chat:postToChat', { text: 'One' })
    await alice().invoke('chat:postToChat', { text: 'Two' })
  } finally {
    pikkuState(PACKAGE, 'package', 'factories', original)
  }
  assert.equal(hook.received.length, 2)
  assert.deepEqual(seen, [
    { hasChat: true, hasTodoStore: false, getCredential: 'function', userId: 'alice' },
    { hasChat: true, hasTodoStore: false, getCredential: 'function', userId: 'alice' },
  ])
})

test('addon-wire-services-after-checks: an addon\'s createWireServices does not run for a call refused for want of a session, by input validation or by a permission, and what it returns replaces the singleton service of that name for the call', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const PACKAGE = '@todo-app/notify-addon'
  const original = pikkuState(PACKAGE, 'package', 'factories')
  const functions = pikkuState(PACKAGE, 'function', 'functions')
  const postToChat = functions.get('postToChat')!
  const posted: string[] = []
  let runs = 0
  pikkuState(PACKAGE, 'package', 'factories', {
    ...original,
    createWireServices: async () => {
      runs++
      return { chat: { post: async (text: string) => void posted.push(text) } }
    },
  } as never)
  hook.received.length = 0
  try {
    await assert.rejects(rpcAs().invoke('chat:postToChat', { text: 'No session' }), { name: 'ForbiddenError', message: 'Authentication required' })
    await assert.rejects(alice().invoke('chat:postToChat', { text: 42 } as never), { name: 'UnprocessableContentError' })
    functions.set('postToChat', { ...postToChat, permissions: { never: async () => false } } as never)
    try {
      await assert.rejects(alice().invoke('chat:postToChat', { text: 'Denied' }), { name: 'ForbiddenError', message: 'Permission denied' })
    } finally {
      functions.set('postToChat', postToChat)
    }
    assert.equal(runs, 0)
    assert.deepEqual(await alice().invoke('chat:postToChat', { text: 'Through the wire chat' }), { posted: true })
  } finally {
    pikkuState(PACKAGE, 'package', 'factories', original)
  }
  assert.equal(runs, 1)
  assert.deepEqual(posted, ['Through the wire chat'])
  assert.deepEqual(hook.received, [])
})
