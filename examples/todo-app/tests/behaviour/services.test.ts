// Services (docs/core-features/services.mdx): how the generated factory wrappers merge, how the runtime uses a
// registered wire services factory, what functions and permissions may not see, and stopSingletonServices.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { pikkuConfig, pikkuServices, pikkuWireServices } from '#pikku/setup'
import { requiredSingletonServices } from '#pikku/pikku-services.gen.js'
import { runPikkuFunc } from '@pikku/core/function'
import { getCreateWireServices, getSingletonServices, pikkuState } from '@pikku/core/state'
import { executeCLI } from '@pikku/core/cli'
import { LogLevel, SecretAccessDeniedError, type JWTService } from '@pikku/core/services'
import { InvalidSessionError, UnauthorizedError } from '@pikku/core/errors'
import { authAPIKey, authBearer, authCookie, pikkuRemoteAuthMiddleware } from '@pikku/core/middleware'
import { JoseJWTService } from '@pikku/jose'
import { createHmac } from 'node:crypto'
import { LocalContent } from '@pikku/core/services/local-content'
import { LocalEventHubService } from '@pikku/core/channel/local'
import { createLocalContentRequestHandler } from '@pikku/core/services/local-content-request-handler'
import { fetch as coreFetch } from '@pikku/core/http'
import { fileURLToPath } from 'node:url'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createConfig } from '../../src/config.js'
import { createSingletonServices } from '../../src/services.js'
import { startSignedInApp, type SignedInApp } from './harness/core-app.js'
import { captureConsole, registerProbe, withProbeRoute } from './harness/core-probes.js'
import { runTempDir } from './harness/temp.js'
import { directUpgrade } from './harness/channel-direct.js'
import { compileScratch } from './harness/node-process.js'
import { removeListenerGateways, setAsideGlobalMiddleware } from './harness/gateways.js'

let app: SignedInApp
let alice: Record<string, string>
let stopped = false
const stopCalls: string[] = []

before(async () => {
  app = await startSignedInApp()
  alice = await app.as({ userId: 'alice', role: 'member' })
  // A singleton whose stop() fails, and after it one with a stop() method, for stopSingletonServices.
  Object.assign(app.services, {
    probeFailingStop: { stop: async () => { stopCalls.push('probeFailingStop'); throw new Error('stop failed') } },
    probeStoppable: { stop: async () => void stopCalls.push('probeStoppable') },
  })
})
after(async () => {
  if (!stopped) await app.stop()
})

/** Puts the app's own singletons back after a test built another set. */
const restoreAppSingletons = () => pikkuState(null, 'package', 'singletonServices', app.services as never)

/** Registers a wire services factory the way src/services.ts does, recording what it saw. */
const recordWireServices = (closeFails = false) => {
  const seen = { created: [] as (string | undefined)[], closed: 0 }
  pikkuWireServices(async (_services, wire) => {
    seen.created.push(wire.session?.userId)
    return {
      probeWireService: {
        close: async () => {
          seen.closed++
          if (closeFails) throw new Error('close failed')
        },
      },
    } as never
  })
  return seen
}

test('existing-services-factory-wins: pikkuServices keeps extra services but lets the factory override what it returns', async () => {
  const standIn = { standIn: true }
  const jwt = { fake: 'jwt' }
  const services = await createSingletonServices(await createConfig(), { todoStore: standIn, jwt } as never)
  assert.notEqual(services.todoStore, standIn)
  assert.equal(services.jwt, jwt)
  restoreAppSingletons()
})

test('pikku-config-unchanged: pikkuConfig hands back the very function it is given', () => {
  const factory = async () => ({}) as never
  assert.equal(pikkuConfig(factory), factory)
})

test('existing-queue-service-kept: a queueService passed to the app factory, as the worker processes pass one, is in what it returns', async () => {
  const queueService = { given: true }
  const services = await createSingletonServices(await createConfig(), { queueService } as never)
  restoreAppSingletons()
  assert.equal(services.queueService, queueService)
})

test('existing-event-hub-replaced: an eventHub passed to the app factory is replaced by the one it builds', async () => {
  const sharedHub = { shared: true }
  const services = await createSingletonServices(await createConfig(), { eventHub: sharedHub } as never)
  restoreAppSingletons()
  assert.notEqual(services.eventHub, sharedHub)
  // workflowService is different: src/services.ts takes the one it is given.
  const workflowService = { given: true }
  const withWorkflow = await createSingletonServices(await createConfig(), { workflowService } as never)
  restoreAppSingletons()
  assert.equal(withWorkflow.workflowService, workflowService)
})

test('own-workflow-service-keeps-given-run-service: a factory that builds its own workflowService leaves the workflowRunService it was given in place, so the two names hold different services', async () => {
  // pikku dev passes one InMemoryWorkflowService under both names; src/services.ts builds its own workflowService
  // when none is given, which stands for a factory that always builds its own.
  const devRunService = { devRuns: true }
  const services = await createSingletonServices(await createConfig(), { workflowRunService: devRunService } as never)
  restoreAppSingletons()
  assert.equal(services.workflowRunService, devRunService)
  assert.notEqual(services.workflowService, devRunService)
})

test('log-level-not-applied: a logLevel in the config does not change the level of the logger the factory builds', async () => {
  const services = await createSingletonServices({ ...(await createConfig()), logLevel: LogLevel.debug }, { jwt: app.services.jwt } as never)
  restoreAppSingletons()
  assert.equal((services.logger as unknown as { level: LogLevel }).level, LogLevel.info)
})

test('factory-adds-lazy-auth: once pikkuBetterAuth is declared, pikkuServices replaces any auth it was given or built with a function that builds the instance on its first call, keeps it, and tries again after a failed build', async () => {
  const { pikkuBetterAuth } = await import('@pikku/better-auth')
  const withoutAuth = await createSingletonServices(await createConfig(), { jwt: app.services.jwt } as never)
  restoreAppSingletons()
  assert.equal((withoutAuth as any).auth, undefined)
  const builds: unknown[] = []
  const instance = { handler: async () => new Response() }
  try {
    pikkuBetterAuth(async (services: any) => {
      builds.push(services)
      if (builds.length === 1) throw new Error('first build fails')
      return instance as never
    })
    const factory = pikkuServices(async () => ({ auth: 'built by the factory' }) as never)
    const services = (await factory(await createConfig(), { jwt: app.services.jwt, auth: 'passed in' } as never)) as any
    assert.equal(typeof services.auth, 'function')
    assert.equal(builds.length, 0)
    await assert.rejects(services.auth(), { message: 'first build fails' })
    assert.equal(await services.auth(), instance)
    assert.equal(await services.auth(), instance)
    assert.equal(builds.length, 2)
    // Built from the very services object pikkuServices returned.
    assert.equal(builds[1], services)
  } finally {
    pikkuState(null, 'package', 'authFactory', null as never)
    restoreAppSingletons()
  }
})

test('factory-result-partial: a pikkuServices factory that returns none of the app\'s required services compiles strictly, and what it builds simply lacks them', async () => {
  const probe = [
    "import { pikkuServices } from '#pikku/setup'",
    'export const createEmptyServices = pikkuServices(async () => ({}))',
  ].join('\n')
  const { code, output } = await compileScratch('services-partial', { 'probe.ts': probe }, { appConfig: true })
  assert.deepEqual([...output.matchAll(/\bprobe\.ts\(\d+,\d+\): error TS\d+/g)].map(([m]) => m), [], output)
  assert.equal(code, 0, output)
  const services = await pikkuServices(async () => ({}) as never)(await createConfig(), {})
  restoreAppSingletons()
  assert.equal((services as { todoStore?: unknown }).todoStore, undefined)
})

test('factory-registers-singletons: each createSingletonServices call registers its result as the process singletons, last call wins', async () => {
  assert.equal(getSingletonServices(), app.services)
  const second = await createSingletonServices(await createConfig(), { jwt: app.services.jwt })
  assert.equal(getSingletonServices(), second)
  // The running server now hands requests the second set: its store is empty.
  const response = await fetch(`${app.url}/todos`, { headers: alice })
  assert.deepEqual(await response.json(), { todos: [] })
  restoreAppSingletons()
})

test('always-required-services: config, logger, variables, schema and secrets are required; an unused core slot is not', () => {
  for (const name of ['config', 'logger', 'variables', 'schema', 'secrets'] as const) {
    assert.equal(requiredSingletonServices[name], true, name)
  }
  assert.equal(requiredSingletonServices.jwt, false)
  assert.equal(requiredSingletonServices.content, false)
})

test('default-and-forced-required: with no function using any service, the manifest marks config, logger, variables, schema and secrets true, and forceRequiredServices adds another', async () => {
  const { serializeServicesMap } = await import('../../node_modules/@pikku/cli/dist/src/functions/wirings/functions/pikku-command-services.js')
  const all = ['config', 'logger', 'variables', 'schema', 'secrets', 'mailer']
  const manifest = (force: string[]) => serializeServicesMap(all, [], new Set(), force, './services.js', './services.js') as string
  for (const name of all.slice(0, 5)) assert.match(manifest([]), new RegExp(`'${name}': true`), name)
  assert.match(manifest([]), /'mailer': false/)
  assert.match(manifest(['mailer']), /'mailer': true/)
})

test('feature-marked-services: the app\'s manifest marks workflowRunService, scopeService and eventHub required, though no function file names the first two', async () => {
  assert.equal(requiredSingletonServices.workflowRunService, true)
  assert.equal(requiredSingletonServices.scopeService, true)
  assert.equal(requiredSingletonServices.eventHub, true)
  const { readdir, readFile } = await import('node:fs/promises')
  const dir = fileURLToPath(new URL('../../src/functions/', import.meta.url))
  for (const file of await readdir(dir)) {
    const text = await readFile(join(dir, file), 'utf8')
    assert.doesNotMatch(text, /workflowRunService|scopeService/, file)
  }
})

test('wire-factory-registers-itself: a pikkuWireServices factory runs on HTTP calls without being handed to the server', async () => {
  const seen = recordWireServices()
  const response = await fetch(`${app.url}/todos`, { headers: alice })
  assert.equal(response.status, 200)
  assert.deepEqual(seen.created, ['alice'])
  assert.equal(seen.closed, 1)
})

test('runners-use-registered-wire-factory: the queue, scheduler and MCP runners build a call\'s wire services with the registered pikkuWireServices factory and close them afterwards, without being handed it', async () => {
  const { runQueueJob } = await import('@pikku/core/queue')
  const { runScheduledTask } = await import('@pikku/core/scheduler')
  const { runMCPTool } = await import('@pikku/core/mcp')
  const factories = pikkuState(null, 'package', 'factories') as { createWireServices?: unknown }
  const registered = factories.createWireServices
  try {
    const seen = recordWireServices()
    await runQueueJob({ job: { queueName: 'todo-cleanup', id: 'probe-cleanup-job', data: { ownerId: 'nobody' } } as never })
    assert.deepEqual({ created: seen.created.length, closed: seen.closed }, { created: 1, closed: 1 })
    await runScheduledTask({ name: 'workflow-recovery' })
    assert.deepEqual({ created: seen.created.length, closed: seen.closed }, { created: 2, closed: 2 })
    // listOpenTodos is sessionless, so it passes the checks; its own rpc.invoke('listTodos') then fails for want of a session.
    await runMCPTool({ jsonrpc: '2.0', id: 1, params: {} } as never, {}, 'listOpenTodos').catch(() => undefined)
    assert.deepEqual({ created: seen.created.length, closed: seen.closed }, { created: 3, closed: 3 })
  } finally {
    // The app's own factory back, for the tests after this one.
    factories.createWireServices = registered
  }
})

test('channel-wire-services-per-connection: a channel run in memory builds its wire services once at the upgrade, before any message, shares them across messages and closes them when the channel closes', async () => {
  const factories = pikkuState(null, 'package', 'factories') as { createWireServices?: unknown }
  const registered = factories.createWireServices
  try {
    const seen = recordWireServices()
    const { handler } = await directUpgrade('/todos/live', alice)
    assert.ok(handler)
    assert.deepEqual(seen.created, ['alice'])
    const sent: unknown[] = []
    handler.registerOnSend((message) => void sent.push(message))
    await handler.open()
    await handler.message(JSON.stringify({ action: 'listTodos' }))
    await handler.message(JSON.stringify({ action: 'listTodos' }))
    // The greeting and two answers: both messages ran.
    assert.equal(sent.length, 3)
    assert.ok(sent.every((frame) => !(frame as { error?: unknown }).error))
    assert.deepEqual({ created: seen.created.length, closed: seen.closed }, { created: 1, closed: 0 })
    await handler.close()
    assert.deepEqual({ created: seen.created.length, closed: seen.closed }, { created: 1, closed: 1 })
  } finally {
    factories.createWireServices = registered
  }
})

test('serverless-channel-wire-services-per-event: the serverless channel runner builds wire services for each connect, message and disconnect event and closes them after it', async () => {
  const { runChannelConnect, runChannelMessage, runChannelDisconnect } = await import('@pikku/core/channel/serverless')
  const { PikkuLocalChannelHandler } = await import('@pikku/core/channel/local')
  const stored = new Map<string, any>()
  const channelStore = {
    addChannel: async ({ channelId, channelName, openingData }: any) => void stored.set(channelId, { channelName, openingData }),
    setPikkuUserId: async () => {},
    getChannel: async (channelId: string) => stored.get(channelId),
    removeChannels: async (ids: string[]) => ids.forEach((id) => stored.delete(id)),
  }
  const params = {
    channelId: 'serverless-wire-probe',
    channelStore: channelStore as never,
    channelHandlerFactory: ((id: string, name: string, data: unknown) => new PikkuLocalChannelHandler(id, name, data)) as never,
  }
  const factories = pikkuState(null, 'package', 'factories') as { createWireServices?: unknown }
  const registered = factories.createWireServices
  try {
    const seen = recordWireServices()
    const counts = () => ({ created: seen.created.length, closed: seen.closed })
    await runChannelConnect({ ...params, route: '/todos/live' } as never)
    assert.deepEqual(counts(), { created: 1, closed: 1 })
    await runChannelMessage(params as never, JSON.stringify({ action: 'listTodos' })).catch(() => undefined)
    assert.deepEqual(counts(), { created: 2, closed: 2 })
    await runChannelDisconnect(params as never)
    assert.deepEqual(counts(), { created: 3, closed: 3 })
  } finally {
    factories.createWireServices = registered
    stored.clear()
  }
})

test('listener-gateway-no-wire-services: the function of a listener gateway runs with the singleton services alone; the registered wire factory is not called', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { LocalGatewayService } = await import('@pikku/core/services')
  const name = 'listener-wire-services-probe'
  let onMessage: ((data: unknown) => Promise<void>) | undefined
  const seenByFunc: unknown[] = []
  const factories = pikkuState(null, 'package', 'factories') as { createWireServices?: unknown }
  const registered = factories.createWireServices
  const gateways = new LocalGatewayService()
  const restoreGlobals = await setAsideGlobalMiddleware()
  try {
    const seen = recordWireServices()
    wireGateway({
      name,
      type: 'listener',
      adapter: () => ({
        name: 'probe',
        parse: (data: unknown) => ({ senderId: 'U1', text: String(data), raw: data }),
        send: async () => {},
        init: async (handler: (data: unknown) => Promise<void>) => void (onMessage = handler),
        close: async () => {},
      }),
      func: { func: async (services: any) => void seenByFunc.push(services.probeWireService, typeof services.todoStore) },
    } as any)
    await gateways.start()
    await onMessage!('hello')
    assert.deepEqual(seenByFunc, [undefined, 'object'])
    assert.deepEqual(seen.created, [])
  } finally {
    factories.createWireServices = registered
    restoreGlobals()
    await removeListenerGateways(gateways, [name])
  }
})

test('wire-services-not-built-for-rejected-calls: a call refused by the session check never creates wire services', async () => {
  const seen = recordWireServices()
  const response = await fetch(`${app.url}/todos`)
  assert.equal(response.status, 403)
  assert.deepEqual(seen.created, [])
  assert.equal(seen.closed, 0)
})

test('wire-services-not-built-before-checks: a call that fails validation or lacks a scope never creates wire services', async () => {
  const seen = recordWireServices()
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 42 }),
  })
  assert.equal(response.status, 422)
  registerProbe('scopedWireProbe', { scopes: ['todos:admin'], func: async () => 'ran' } as never)
  try {
    const runScoped = (scopes: string[]) =>
      runPikkuFunc('rpc', 'scopedWireProbe', 'scopedWireProbe', {
        singletonServices: app.services as never,
        createWireServices: getCreateWireServices(),
        data: () => ({}),
        wire: { session: { userId: 'alice', role: 'member', scopes } } as never,
      })
    await assert.rejects(runScoped([]), { name: 'MissingScopeError' })
    assert.deepEqual(seen.created, [])
    assert.equal(seen.closed, 0)
    // The same call with the scope does build them: the check above could fail.
    assert.equal(await runScoped(['todos:admin']), 'ran')
    assert.deepEqual(seen.created, ['alice'])
  } finally {
    ;(pikkuState(null, 'function', 'functions') as Map<string, unknown>).delete('scopedWireProbe')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).scopedWireProbe
  }
})

test('wire-services-closed-after-throw: close() runs when the function throws', async () => {
  const seen = recordWireServices()
  const response = await fetch(`${app.url}/todos/no-such-todo`, { headers: alice })
  // getTodo's permission guard passes for a missing item and the function throws NotFoundError.
  assert.equal(response.status, 404)
  assert.equal(seen.created.length, 1)
  assert.equal(seen.closed, 1)
})

test('wire-close-error-logged: a close() that throws is logged and the call still answers', async () => {
  const seen = recordWireServices(true)
  const logged: unknown[] = []
  const original = app.services.logger.error
  app.services.logger.error = ((error: unknown) => void logged.push(error)) as never
  try {
    const response = await fetch(`${app.url}/todos`, { headers: alice })
    assert.equal(response.status, 200)
  } finally {
    app.services.logger.error = original
  }
  assert.equal(seen.closed, 1)
  assert.equal((logged[0] as Error).message, 'close failed')
})

test('wire-factory-not-used-by-execute-cli: executeCLI runs a command without the registered factory unless it is handed createWireServices', async () => {
  const seen = recordWireServices()
  const runList = (extra: object) =>
    executeCLI({ programName: 'todos', args: ['list', '--owner', 'alice'], createConfig, createSingletonServices, ...extra })
  try {
    await runList({})
    assert.equal(seen.created.length, 0)
    await runList({ createWireServices: getCreateWireServices() })
    assert.equal(seen.created.length, 1)
  } finally {
    restoreAppSingletons()
  }
})

test('rpc-invoke-no-own-wire-services: a function called with rpc.invoke builds no wire services and gets its caller\'s', async () => {
  const seen = recordWireServices()
  registerProbe('innerWireProbe', { func: async (services: any) => ({ inner: services.probeWireService }) })
  registerProbe('outerWireProbe', {
    func: async (services: any, _data: unknown, wire: any) => ({
      outer: services.probeWireService,
      ...(await wire.rpc.invoke('innerWireProbe', {})),
    }),
  })
  // Run as the HTTP runner runs a function: with the registered factory.
  const result = (await runPikkuFunc('rpc', 'outerWireProbe', 'outerWireProbe', {
    singletonServices: app.services as never,
    createWireServices: getCreateWireServices(),
    data: () => ({}),
    wire: { session: { userId: 'alice', role: 'member' } } as never,
  })) as { outer: unknown; inner: unknown }
  assert.deepEqual(seen.created, ['alice'])
  assert.ok(result.outer)
  assert.equal(result.inner, result.outer)
  assert.equal(seen.closed, 1)
})

test('middleware-rpc-invoke-caller-wire-services: middleware of a function reached by rpc.invoke gets its caller\'s wire services; the outer call\'s middleware gets none', async () => {
  recordWireServices()
  const seenByMiddleware: Record<string, boolean> = {}
  const probeMiddleware = (label: string) => async (services: any, _wire: unknown, next: () => Promise<void>) => {
    seenByMiddleware[label] = Boolean(services.probeWireService)
    await next()
  }
  registerProbe('innerMiddlewareProbe', { middleware: [probeMiddleware('inner')], func: async () => ({}) })
  registerProbe('outerMiddlewareProbe', {
    middleware: [probeMiddleware('outer')],
    func: async (_services: unknown, _data: unknown, wire: any) => wire.rpc.invoke('innerMiddlewareProbe', {}),
  })
  await runPikkuFunc('rpc', 'outerMiddlewareProbe', 'outerMiddlewareProbe', {
    singletonServices: app.services as never,
    createWireServices: getCreateWireServices(),
    data: () => ({}),
    wire: { session: { userId: 'alice', role: 'member' } } as never,
  })
  assert.deepEqual(seenByMiddleware, { outer: false, inner: true })
})

test('wire-services-merged: a function receives wire services and singletons in one object', async () => {
  pikkuWireServices(async () => ({ probeWireService: { hello: 'wire' } }) as never)
  registerProbe('servicesSeen', {
    func: async ({ probeWireService, todoStore }: any) => ({ wire: probeWireService.hello, store: typeof todoStore.list }),
  }, { sessionless: true })
  const createWireServices = pikkuState(null, 'package', 'factories')?.createWireServices
  const result = await runPikkuFunc('rpc', 'servicesSeen', 'servicesSeen', {
    singletonServices: app.services as never,
    createWireServices,
    data: () => ({}),
    wire: {} as never,
  })
  assert.deepEqual(result, { wire: 'wire', store: 'function' })
  pikkuWireServices(async () => ({}))
})

test('secrets-denied-in-permission: a permission reading services.secrets throws SecretAccessDeniedError', async () => {
  registerProbe('guardedBySecrets', {
    permissions: { readsSecrets: async (services: any) => Boolean(await services.secrets.getSecret('JWT_SECRET')) },
    func: async () => 'ran',
  } as never, { sessionless: true })
  await assert.rejects(
    runPikkuFunc('rpc', 'guardedBySecrets', 'guardedBySecrets', {
      singletonServices: app.services as never,
      data: () => ({}),
      wire: {} as never,
    }),
    SecretAccessDeniedError,
  )
})

test('secrets-denied-http-500: a SecretAccessDeniedError that escapes an HTTP function is answered with 500', async () => {
  // The function records what reading secrets threw, so the 500 is known to come from that error.
  const thrown: unknown[] = []
  const func = {
    func: async (services: any) => {
      try {
        return await services.secrets.getSecret('JWT_SECRET')
      } catch (error) {
        thrown.push(error)
        throw error
      }
    },
  }
  await withProbeRoute('probeReadsSecrets', '/probe-reads-secrets', func, {}, async () => {
    const response = await fetch(`${app.url}/probe-reads-secrets`)
    assert.equal(response.status, 500)
  })
  assert.equal(thrown.length, 1)
  assert.ok(thrown[0] instanceof SecretAccessDeniedError)
})

test('permission-no-wire-services: a permission guard gets the singleton services only; the wire services are built after it passes', async () => {
  const seen: Record<string, boolean> = {}
  pikkuWireServices(async () => ({ probeWireService: { hello: 'wire' } }) as never)
  try {
    registerProbe('guardSeesNoWireServices', {
      permissions: {
        probe: async (services: any) => {
          seen.guard = services.probeWireService !== undefined
          return true
        },
      },
      func: async (services: any) => {
        seen.func = services.probeWireService !== undefined
        return 'ran'
      },
    } as never, { sessionless: true })
    const result = await runPikkuFunc('rpc', 'guardSeesNoWireServices', 'guardSeesNoWireServices', {
      singletonServices: app.services as never,
      createWireServices: getCreateWireServices(),
      data: () => ({}),
      wire: {} as never,
    })
    assert.equal(result, 'ran')
    assert.deepEqual(seen, { guard: false, func: true })
  } finally {
    pikkuWireServices(async () => ({}))
  }
})

// --- the event hub (docs/api/event-hub.mdx): LocalEventHubService on its own ---

/** A channel handler as the runtimes hand one to onChannelOpened, recording what it is sent. */
const fakeChannel = (channelId: string, fails = false) => {
  const received: unknown[] = []
  const handler = {
    getChannel: () => ({ channelId }),
    send: (data: unknown) => {
      if (fails) throw new Error('socket gone')
      received.push(data)
    },
  }
  return { handler: handler as never, received }
}

test('local-event-hub-send-unchanged: LocalEventHubService hands each subscriber the payload as given, a string included, and a null sender leaves no one out', async () => {
  const hub = new LocalEventHubService<{ news: unknown }>()
  const a = fakeChannel('a')
  const b = fakeChannel('b')
  for (const c of [a, b]) hub.onChannelOpened(c.handler)
  hub.subscribe('news', 'a')
  hub.subscribe('news', 'b')
  const payload = { title: 'Done' }
  await hub.publish('news', null, payload)
  await hub.publish('news', null, 'hello')
  await hub.publish('news', 'a', 'from a')
  assert.equal(a.received[0], payload)
  assert.deepEqual(a.received, [payload, 'hello'])
  assert.equal(b.received[0], payload)
  assert.deepEqual(b.received, [payload, 'hello', 'from a'])
})

test('local-event-hub-drops-failing-send: a subscriber whose send throws is dropped from every topic, and the others still receive', async () => {
  const hub = new LocalEventHubService<{ news: string; other: string }>()
  const broken = fakeChannel('broken', true)
  const fine = fakeChannel('fine')
  for (const c of [broken, fine]) hub.onChannelOpened(c.handler)
  hub.subscribe('news', 'broken')
  hub.subscribe('other', 'broken')
  hub.subscribe('news', 'fine')
  await hub.publish('news', null, 'first')
  assert.deepEqual(fine.received, ['first'])
  const subscriptions = (hub as any).subscriptions as Map<string, Set<string>>
  assert.deepEqual([...(subscriptions.get('news') ?? [])], ['fine'])
  assert.equal(subscriptions.has('other'), false)
})

// --- the content service (docs/api/content-service.mdx): LocalContent and its request handler ---

test('jose-decode-errors: JoseJWTService.verify resolves with nothing; decode ignores invalidHashError and throws jose\'s own error for an expired, forged or malformed token, "Missing secret for id: <kid>" for an unknown kid after reading the key list again (verify reads it too), and "No secrets configured" for a token with no kid when it holds no key', async () => {
  let reads = 0
  const keys = [{ id: 'key-1', value: 'first-key-of-at-least-32-characters' }]
  const service = new JoseJWTService(async () => (reads++, keys))
  const token = await service.encode({ value: 1, unit: 'hour' }, { userId: 'u_alice' })
  assert.equal(await service.verify(token), undefined)
  const given = new InvalidSessionError()
  // Through core's JWTService interface, whose decode takes an invalidHashError; JoseJWTService's own signature does not.
  const asJWTService: JWTService = service
  const joseCode = (code: string) => (error: any) => error !== given && error.code === code
  // A token signed by hand with the service's own key, so that its header and claims can be anything.
  const signed = (header: object, claims: object) => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const body = `${part({ alg: 'HS256', ...header })}.${part({ userId: 'u_alice', ...claims })}`
    return `${body}.${createHmac('sha256', keys[0]!.value).update(body).digest('base64url')}`
  }
  const expired = signed({ kid: 'key-1' }, { exp: Math.floor(Date.now() / 1000) - 60 })
  await assert.rejects(asJWTService.decode(expired, given), joseCode('ERR_JWT_EXPIRED'))
  const forged = await new JoseJWTService(async () => [{ id: 'key-1', value: 'another-key-of-at-least-32-characters' }])
    .encode({ value: 1, unit: 'hour' }, { userId: 'u_alice' })
  await assert.rejects(asJWTService.decode(forged, given), joseCode('ERR_JWS_SIGNATURE_VERIFICATION_FAILED'))
  // jose reads the header first, and a malformed token fails there with a plain TypeError.
  await assert.rejects(asJWTService.decode('not-a-token', given), (error: any) => error instanceof TypeError && error.message === 'Invalid Token or Protected Header formatting')
  const unknownKid = await new JoseJWTService(async () => [{ id: 'key-9', value: 'ninth-key-of-at-least-32-characters' }])
    .encode({ value: 1, unit: 'hour' }, { userId: 'u_alice' })
  const before = reads
  await assert.rejects(asJWTService.decode(unknownKid, given), (error: any) => error !== given && error.message === 'Missing secret for id: key-9')
  assert.equal(reads, before + 1)
  await assert.rejects(service.verify(unknownKid), { message: 'Missing secret for id: key-9' })
  assert.equal(reads, before + 2)
  const noKid = signed({}, { exp: Math.floor(Date.now() / 1000) + 3600 })
  await assert.rejects((new JoseJWTService(async () => []) as JWTService).decode(noKid, given), (error: any) => error !== given && error.message === 'No secrets configured')
})

test('auth-middleware-decode-token-only: authBearer (with no token option), authCookie and authAPIKey call jwt.decode with the credential alone and let what it throws through', async () => {
  const calls: unknown[][] = []
  const thrown = new Error('decode failed')
  const jwt = { decode: async (...args: unknown[]) => { calls.push(args); throw thrown }, encode: async () => '', verify: async () => {} }
  const request = {
    header: (name: string) => ({ authorization: 'Bearer bearer-token', 'x-api-key': 'api-key' })[name.toLowerCase()] ?? null,
    cookie: (name: string) => (name === 'session' ? 'cookie-token' : undefined),
    query: () => ({}),
  }
  const wire = { http: { request, response: { cookie: () => {} } }, setSession: () => {}, getSession: () => undefined, hasSessionChanged: () => false }
  const middleware = [authBearer({}), authCookie({ name: 'session', options: {}, expiresIn: { value: 1, unit: 'hour' } }), authAPIKey({ source: 'header' })]
  for (const run of middleware as any[])
    await assert.rejects(run({ jwt, logger: app.services.logger }, wire, async () => {}), (error: unknown) => error === thrown)
  assert.deepEqual(calls, [['bearer-token'], ['cookie-token'], ['api-key']])
})

test('auth-middleware-decoded-session: a falsy decode result sets no session in authBearer, authCookie or authAPIKey; authCookie also drops a payload holding only standard JWT claims, which the other two set', async () => {
  const run = async (decoded: unknown) => {
    const jwt = { decode: async () => decoded, encode: async () => '', verify: async () => {} }
    const request = {
      header: (name: string) => ({ authorization: 'Bearer t', 'x-api-key': 't' })[name.toLowerCase()] ?? null,
      cookie: () => 't',
      query: () => ({}),
    }
    const sessions: string[] = []
    const middleware = {
      bearer: authBearer({}),
      cookie: authCookie({ name: 'session', options: {}, expiresIn: { value: 1, unit: 'hour' } }),
      apiKey: authAPIKey({ source: 'header' }),
    }
    for (const [name, run] of Object.entries(middleware) as [string, any][]) {
      const wire = { http: { request, response: { cookie: () => {} } }, setSession: () => void sessions.push(name), getSession: () => undefined, hasSessionChanged: () => false }
      await run({ jwt, logger: app.services.logger }, wire, async () => {})
    }
    return sessions
  }
  for (const falsy of [null, undefined, 0, '']) assert.deepEqual(await run(falsy), [])
  assert.deepEqual(await run({ iat: 1, exp: 2 }), ['bearer', 'apiKey'])
  assert.deepEqual(await run({ userId: 'u_alice', iat: 1, exp: 2 }), ['bearer', 'cookie', 'apiKey'])
})

test('remote-auth-refusals: with a secrets service, pikkuRemoteAuthMiddleware answers a /remote/rpc/ request with UnauthorizedError (401) when PIKKU_REMOTE_SECRET is unset, and with the secret set and a jwt service when there is no bearer token or it does not decode; with the secret but no jwt service it throws a plain Error, which has no registered status', async () => {
  const key = 'k'.repeat(64)
  const secretsWith = (value?: string) => ({
    getSecret: async () => {
      if (value === undefined) throw new Error('no such secret')
      return { reveal: () => value }
    },
  })
  const jwt = { decode: async () => { throw new Error('bad token') }, encode: async () => '', verify: async () => {} }
  const wireFor = (authorization?: string) => ({
    http: { request: { path: () => '/remote/rpc/listTodos', header: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : undefined) } },
    setSession: () => {},
  })
  const registered = pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>
  assert.equal(registered.get(UnauthorizedError)?.status, 401)
  const middleware = pikkuRemoteAuthMiddleware as any
  const cases: Array<[unknown, string | undefined]> = [
    [{ secrets: secretsWith(), jwt }, 'Bearer anything'],
    [{ secrets: secretsWith(key), jwt }, undefined],
    [{ secrets: secretsWith(key), jwt }, 'Bearer not-decodable'],
  ]
  for (const [services, authorization] of cases)
    await assert.rejects(middleware(services, wireFor(authorization), async () => {}), (error: unknown) => error instanceof UnauthorizedError)
  await assert.rejects(middleware({ secrets: secretsWith(key) }, wireFor('Bearer anything'), async () => {}), (error: any) => {
    assert.equal(error.constructor, Error)
    assert.equal(registered.get(error.constructor), undefined)
    return true
  })
})

const contentSetup = async () => {
  const root = runTempDir('content')
  const config = { localFileUploadPath: root, uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets' }
  const content = new LocalContent(config, app.services.logger, app.services.jwt!)
  const handle = createLocalContentRequestHandler({ content: config as never, logger: app.services.logger, getJWT: () => app.services.jwt })
  return { root, content, handle, cleanup: () => rm(root, { recursive: true, force: true }) }
}

test('content-needs-jwt: LocalContent without a jwt service throws at construction', () => {
  const config = { localFileUploadPath: tmpdir(), uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets' }
  assert.throws(() => new LocalContent(config, app.services.logger, undefined as never), { message: /^LocalContent requires a JWTService/ })
})

test('content-invalid-key: a key that would leave the upload folder is refused with "Invalid asset key"', async () => {
  const { content, cleanup } = await contentSetup()
  try {
    await assert.rejects(content.readFileAsBuffer({ bucket: 'attachments', key: '../../secrets.txt' }), { message: 'Invalid asset key' })
  } finally {
    await cleanup()
  }
})

test('content-key-check-by-method: readFile, readFileAsBuffer and writeFile reject a key that leaves the upload folder, copyFile and deleteFile return false, getUploadURL and signContentKey accept it, and ../<bucket>/ reaches another bucket', async () => {
  const { content, cleanup } = await contentSetup()
  try {
    const key = '../../secrets.txt'
    const args = { bucket: 'attachments', key }
    await assert.rejects(content.readFile(args), { message: 'Invalid asset key' })
    await assert.rejects(content.readFileAsBuffer(args), { message: 'Invalid asset key' })
    await assert.rejects(content.writeFile({ ...args, stream: Readable.from(['x']) }), { message: 'Invalid asset key' })
    // copyFile also prints the error with console.error; kept out of the suite's output.
    const printed = await captureConsole(async () => {
      assert.equal(await content.copyFile({ ...args, fromAbsolutePath: fileURLToPath(import.meta.url) }), false)
    })
    assert.ok(printed.some((line) => line.includes('Invalid asset key')), printed.join('\n'))
    assert.equal(await content.deleteFile(args), false)
    const upload = await content.getUploadURL({ bucket: 'attachments', fileKey: key, contentType: 'text/plain' })
    assert.equal(upload.assetKey, 'attachments/../../secrets.txt')
    const link = await content.signContentKey({ bucket: 'attachments', contentKey: key, dateLessThan: new Date(Date.now() + 60 * 1000) })
    assert.match(link, /^\/assets\/attachments\/\.\.\/\.\.\/secrets\.txt\?/)
    // The check is against the upload folder, not the bucket.
    assert.equal(await content.writeFile({ bucket: 'attachments', key: '../avatars/a.png', stream: Readable.from(['png']) }), true)
    assert.equal((await content.readFileAsBuffer({ bucket: 'avatars', key: 'a.png' })).toString(), 'png')
  } finally {
    await cleanup()
  }
})

test('content-upload-unserved-404: with nothing in front of the core fetch runner, a signed upload URL answers 404; with createLocalContentRequestHandler in front it is stored', async () => {
  const { content, handle, cleanup } = await contentSetup()
  try {
    const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain' })
    const request = () => new Request(new URL(uploadUrl, 'http://localhost'), { method: 'PUT', body: 'hello', headers: { 'content-type': 'text/plain' } })
    assert.equal((await coreFetch(request())).status, 404)
    const served = (await handle(request())) ?? (await coreFetch(request()))
    assert.equal(served.status, 200)
  } finally {
    await cleanup()
  }
})

test('content-upload-url: getUploadURL signs a PUT URL valid for 15 minutes, and its assetKey starts with the bucket', async () => {
  const { content, cleanup } = await contentSetup()
  try {
    const before = Date.now()
    const result = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain' })
    assert.equal(result.assetKey, 'attachments/t1/u1')
    assert.equal(result.uploadMethod, 'PUT')
    const url = new URL(result.uploadUrl, 'http://localhost')
    assert.equal(url.pathname, '/uploads/attachments/t1/u1')
    const ttl = Number(url.searchParams.get('expiresAt')) - before
    assert.ok(ttl > 14 * 60 * 1000 && ttl <= 15 * 60 * 1000 + 1000, String(ttl))
  } finally {
    await cleanup()
  }
})

test('content-round-trip: the request handler stores a signed upload and serves a signed read; other requests get null', async () => {
  const { content, handle, cleanup } = await contentSetup()
  try {
    const { uploadUrl, assetKey } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain' })
    const put = await handle(new Request(new URL(uploadUrl, 'http://localhost'), { method: 'PUT', body: 'hello' }))
    assert.equal(put?.status, 200)
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000)
    // signContentKey adds the bucket itself: pass the key without it.
    const link = await content.signContentKey({ bucket: 'attachments', contentKey: 't1/u1', dateLessThan: inAnHour })
    const read = await handle(new Request(new URL(link, 'http://localhost')))
    assert.equal(read?.status, 200)
    assert.equal(await read!.text(), 'hello')
    // Passing the assetKey as it came back names the bucket twice, and finds nothing.
    const doubled = await content.signContentKey({ bucket: 'attachments', contentKey: assetKey, dateLessThan: inAnHour })
    assert.equal(new URL(doubled, 'http://localhost').pathname, '/assets/attachments/attachments/t1/u1')
    assert.equal((await handle(new Request(new URL(doubled, 'http://localhost'))))?.status, 404)
    // An unsigned read is refused; a path outside both prefixes is not a content request.
    assert.notEqual((await handle(new Request('http://localhost/assets/attachments/t1/u1')))?.status, 200)
    assert.equal(await handle(new Request('http://localhost/todos')), null)
  } finally {
    await cleanup()
  }
})

test('content-type-not-kept: LocalContent ignores getUploadURL\'s contentType, and the request handler serves every file as application/octet-stream', async () => {
  const { content, handle, cleanup } = await contentSetup()
  try {
    const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/photo', contentType: 'image/png' })
    assert.equal(new URL(uploadUrl, 'http://localhost').searchParams.has('contentType'), false)
    const put = await handle(new Request(new URL(uploadUrl, 'http://localhost'), { method: 'PUT', body: 'png bytes', headers: { 'content-type': 'image/png' } }))
    assert.equal(put?.status, 200)
    const link = await content.signContentKey({ bucket: 'attachments', contentKey: 't1/photo', dateLessThan: new Date(Date.now() + 60 * 1000) })
    const read = await handle(new Request(new URL(link, 'http://localhost')))
    assert.equal(read?.status, 200)
    assert.equal(read?.headers.get('content-type'), 'application/octet-stream')
  } finally {
    await cleanup()
  }
})

test('content-read-missing-resolves: LocalContent.readFile of a missing key resolves with a stream that fails when read; readFileAsBuffer rejects with ENOENT', async () => {
  const { content, cleanup } = await contentSetup()
  try {
    const stream = (await content.readFile({ bucket: 'attachments', key: 't1/missing' })) as Readable
    await assert.rejects(async () => {
      for await (const _chunk of stream) void _chunk
    }, { code: 'ENOENT' })
    await assert.rejects(content.readFileAsBuffer({ bucket: 'attachments', key: 't1/missing' }), { code: 'ENOENT' })
  } finally {
    await cleanup()
  }
})

test('content-sign-url-with-query: LocalContent.signURL adds its parameters after a second "?" when the URL already has a query, and the request handler refuses that link with 403', async () => {
  const { content, handle, cleanup } = await contentSetup()
  try {
    const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain' })
    await handle(new Request(new URL(uploadUrl, 'http://localhost'), { method: 'PUT', body: 'hello' }))
    const signed = await content.signURL({ url: '/assets/attachments/t1/u1?v=2', dateLessThan: new Date(Date.now() + 60 * 1000) })
    assert.match(signed, /^\/assets\/attachments\/t1\/u1\?v=2\?signedAt=/)
    const read = await handle(new Request(new URL(signed, 'http://localhost')))
    assert.equal(read?.status, 403)
    assert.equal(await read?.text(), 'Signed URL required')
  } finally {
    await cleanup()
  }
})

test('content-size-limit: the request handler refuses an upload larger than sizeLimit, 1mb when unset, with 413; LocalContent.writeFile does not read sizeLimit', async () => {
  const { root, content, handle, cleanup } = await contentSetup()
  try {
    const put = async (handler: typeof handle, bytes: number) => {
      const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/big', contentType: 'application/octet-stream' })
      const response = await handler(new Request(new URL(uploadUrl, 'http://localhost'), { method: 'PUT', body: new Uint8Array(bytes) }))
      return { status: response?.status, text: await response?.text() }
    }
    assert.deepEqual(await put(handle, 1024 * 1024 + 1), { status: 413, text: 'Content too large' })
    assert.equal((await put(handle, 1024 * 1024)).status, 200)
    const config = { localFileUploadPath: root, uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets', sizeLimit: '2mb' }
    const roomier = createLocalContentRequestHandler({ content: config, logger: app.services.logger, getJWT: () => app.services.jwt })
    assert.equal((await put(roomier, 1024 * 1024 + 1)).status, 200)
    // The service itself writes past the limit its config names.
    const strict = new LocalContent({ ...config, sizeLimit: '1kb' }, app.services.logger, app.services.jwt!)
    assert.equal(await strict.writeFile({ bucket: 'attachments', key: 't1/server-side', stream: Readable.from([Buffer.alloc(4096)]) }), true)
  } finally {
    await cleanup()
  }
})

test('lifecycle-bootstrap-warning: pikku validate warns about a start or dev script that runs neither pikku dev nor pikku serve, not when it hands off with npm run or the project depends on @pikku/express, and not with lint.customServerBootstrap off', async () => {
  const { runBootstrapChecks } = await import('../../node_modules/@pikku/cli/dist/src/functions/validate/bootstrap-checks.js')
  const root = runTempDir('lifecycle-bootstrap')
  try {
    const severities = async (pkg: object, config: object | null = null) =>
      ((await runBootstrapChecks(root, pkg, config)) as { severity: string }[]).map((finding) => finding.severity)
    assert.deepEqual(await severities({ scripts: { start: 'node dist/start.js' } }), ['warn'])
    assert.deepEqual(await severities({ scripts: { dev: 'tsx watch src/start.ts' } }), ['warn'])
    assert.deepEqual(await severities({ scripts: { start: 'pikku serve', dev: 'pikku dev' } }), [])
    assert.deepEqual(await severities({ scripts: { start: 'npm run serve' } }), [])
    assert.deepEqual(await severities({ scripts: { start: 'node dist/start.js' }, dependencies: { '@pikku/express': '*' } }), [])
    assert.deepEqual(await severities({ scripts: { start: 'node dist/start.js' } }, { lint: { customServerBootstrap: 'off' } }), [])
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})

test('stop-singleton-services: stopping calls stop() on every singleton that has one; a failing stop() is logged and does not stop the rest', async () => {
  stopped = true
  const logged: unknown[][] = []
  const original = app.services.logger.error
  app.services.logger.error = ((...args: unknown[]) => void logged.push(args)) as never
  try {
    await app.stop()
  } finally {
    app.services.logger.error = original
  }
  // The failing stop() ran first, and the one registered after it still ran.
  assert.deepEqual(stopCalls, ['probeFailingStop', 'probeStoppable'])
  assert.ok(logged.some(([text, error]) => text === 'Error stopping service probeFailingStop:' && (error as Error).message === 'stop failed'))
  // The server is closed too.
  await assert.rejects(fetch(`${app.url}/health`))
})
