// Functions and the function runner (docs/core-features/functions.mdx, testing.mdx): the to-do app on
// @pikku/express with its own jwt service, plus direct calls into core's runPikkuFunc and of `.func`.
import { after, afterEach, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { addFunction, runPikkuFunc } from '@pikku/core/function'
import { rpcService } from '@pikku/core/rpc'
import { ForbiddenError, MissingSchemaError, NotFoundError, PikkuError } from '@pikku/core/errors'
import { ConsoleLogger, JsonConsoleLogger, LogLevel, StubTracker, createStubProxy, getStubTracker, spy, stub, SecretAccessDeniedError } from '@pikku/core/services'
import { createScenarioRunner, type PikkuScenarioWire } from '@pikku/core/scenario'
import { getSingletonServices, pikkuState, setSingletonServices } from '@pikku/core/state'
import { createConfig } from '../../src/config.js'
import { createSingletonServices } from '../../src/services.js'
import { clearPikkuRuntimeState } from '@pikku/core/testing'
import type { TodoStore } from '../../src/todo-store.js'
import { deleteTodo, getTodo } from '../../src/functions/todos.functions.js'
import { setTodoDone } from '../../src/functions/board.functions.js'
import { startSignedInApp, type SignedInApp } from './harness/core-app.js'
import { captureConsole, recordingLogger, registerProbe, withProbeRoute } from './harness/core-probes.js'
import { TodoLimitReachedError } from '../../src/errors.js'
import { APP_DIR, compileScratch, runNode } from './harness/node-process.js'
import { withEnv } from './harness/env.js'

let app: SignedInApp
let alice: Record<string, string>
let bob: Record<string, string>
const aliceSession = { userId: 'alice', role: 'member' as const }
const bobSession = { userId: 'bob', role: 'member' as const }

before(async () => {
  app = await startSignedInApp()
  alice = await app.as(aliceSession)
  bob = await app.as(bobSession)
})
after(() => app.stop())
afterEach(() => getStubTracker().reset())

const createAs = async (headers: Record<string, string>, title: string) => {
  const response = await fetch(`${app.url}/todos`, { method: 'POST', headers, body: JSON.stringify({ title }) })
  assert.equal(response.status, 200)
  return (await response.json()) as { todoId: string; ownerId: string; done: boolean }
}

/** runPikkuFunc with the app's singletons, and a logger that records. */
const run = async (funcName: string, data: unknown, wire: Record<string, unknown> = {}, extra: object = {}) => {
  const { logger, lines } = recordingLogger()
  const result = runPikkuFunc('rpc', funcName, funcName, {
    singletonServices: { ...app.services, logger } as never,
    data: () => data,
    wire: wire as never,
    ...extra,
  })
  return { result, lines }
}

test('no-session-403: a pikkuFunc called with no session answers 403 "Authentication required"', async () => {
  const response = await fetch(`${app.url}/todos`)
  assert.equal(response.status, 403)
  const body = await response.json()
  assert.equal(body.name, 'ForbiddenError')
  assert.equal(body.message, 'Authentication required')
})

test('invalid-input-422: input that fails the function schema answers 422 UnprocessableContentError', async () => {
  const response = await fetch(`${app.url}/todos`, { method: 'POST', headers: alice, body: JSON.stringify({ title: 5 }) })
  assert.equal(response.status, 422)
  assert.equal((await response.json()).name, 'UnprocessableContentError')
})

test('session-checked-before-validation: no session and invalid input answers 403, not 422', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 5 }),
  })
  assert.equal(response.status, 403)
})

test('validation-before-permissions: a stranger sending invalid input gets 422, a valid one 403', async () => {
  const todo = await createAs(alice, 'Alice only')
  const invalid = await fetch(`${app.url}/todos/${todo.todoId}`, {
    method: 'PATCH',
    headers: bob,
    body: JSON.stringify({ done: 'yes' }),
  })
  assert.equal(invalid.status, 422)
  const valid = await fetch(`${app.url}/todos/${todo.todoId}`, { method: 'PATCH', headers: bob, body: JSON.stringify({ done: true }) })
  assert.equal(valid.status, 403)
  assert.equal((await valid.json()).message, 'Permission denied')
})

test('readonly-session-403: a readonly session calling a function not marked readonly answers 403', async () => {
  const readonly = await app.as({ ...aliceSession, readonly: true } as never)
  const response = await fetch(`${app.url}/todos`, { method: 'POST', headers: readonly, body: JSON.stringify({ title: 'x' }) })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).name, 'ReadonlySessionError')
})

test('no-input-not-validated: a function with no input schema gets whatever data it is sent', async () => {
  registerProbe('coreEcho', { func: async (_services: unknown, data: unknown) => data }, { sessionless: true })
  const { result } = await run('coreEcho', { anything: ['goes', 1] })
  assert.deepEqual(await result, { anything: ['goes', 1] })
})

test('primitive-input-missing-schema: a function whose recorded input schema is the name of a primitive, as the CLI records `string` for a bare string input, fails the call with MissingSchemaError when a schema service is set', async () => {
  // The inspector records a bare `string` (or `number`) input under the type's own name and generates no schema for it.
  registerProbe('coreStringInput', { func: async (_services: unknown, text: unknown) => text }, { sessionless: true, inputSchemaName: 'string' })
  assert.ok(app.services.schema)
  const { result } = await run('coreStringInput', 'hello')
  await assert.rejects(result, (error: unknown) => error instanceof MissingSchemaError && error.message.includes("Schema 'string' not found"))
  // A bare `number` input is recorded the same way, under `number`.
  registerProbe('coreNumberInput', { func: async (_services: unknown, n: unknown) => n }, { sessionless: true, inputSchemaName: 'number' })
  const { result: numberResult } = await run('coreNumberInput', 42)
  await assert.rejects(numberResult, (error: unknown) => error instanceof MissingSchemaError && error.message.includes("Schema 'number' not found"))
})


test('core-root-no-error-classes: importing NotFoundError from the bare @pikku/core entry fails to compile with TS2305; the same import from @pikku/core/errors compiles', async () => {
  const { code, output } = await compileScratch('core-root-errors', {
    'bare.ts': "import { NotFoundError } from '@pikku/core'\nexport const bare = NotFoundError\n",
    'leaf.ts': "import { NotFoundError } from '@pikku/core/errors'\nexport const leaf = NotFoundError\n",
  })
  assert.notEqual(code, 0)
  assert.match(output, /bare\.ts\(1,10\): error TS2305: Module '"@pikku\/core"' has no exported member 'NotFoundError'\./)
  assert.doesNotMatch(output, /leaf\.ts\(/)
})

test('function-not-found: the runner asked for an unregistered name throws "Function not found: <name>"', async () => {
  const { result } = await run('noSuchFunction', {})
  await assert.rejects(result, { message: 'Function not found: noSuchFunction' })
})

test('auth-false-on-session-func-warns: auth false on a session function logs a warning and still needs a session', async () => {
  registerProbe('coreNeedsSession', { auth: false, func: async () => 'ran' })
  const { result, lines } = await run('coreNeedsSession', {})
  await assert.rejects(result, ForbiddenError)
  assert.ok(lines.some((l) => l.level === 'warn' && l.text.includes('use pikkuSessionlessFunc instead')))
})

test('auth-false-route-on-session-func-warns: a route with auth false, passed to the function runner as its wiring auth, to a session function logs a warning and still needs a session', async () => {
  // The HTTP runner hands the route's setting to the function runner as `auth: route.auth !== false`.
  registerProbe('coreRouteNeedsSession', { func: async () => 'ran' })
  const { result, lines } = await run('coreRouteNeedsSession', {}, {}, { auth: false })
  await assert.rejects(result, ForbiddenError)
  assert.ok(lines.some((l) => l.level === 'warn' && l.text.includes('use pikkuSessionlessFunc instead')))
})

test('route-auth-unset-sessionless-403: a sessionless function run with the wiring auth of a route that leaves auth unset, and no session, is refused with ForbiddenError "Authentication required"', async () => {
  // The HTTP runner passes `auth: route.auth !== false`: true for a route without `auth: false`.
  registerProbe('coreSessionlessOnRoute', { func: async () => 'ran' }, { sessionless: true })
  const refused = await run('coreSessionlessOnRoute', {}, {}, { auth: true })
  await assert.rejects(refused.result, (error: unknown) => error instanceof ForbiddenError && error.message === 'Authentication required')
  // The same function behind a route with `auth: false` runs without a session.
  const open = await run('coreSessionlessOnRoute', {}, {}, { auth: false })
  assert.equal(await open.result, 'ran')
})

test('secrets-denied-in-function: a function reading services.secrets throws SecretAccessDeniedError, a plain Error', async () => {
  registerProbe('coreReadsSecrets', { func: async (services: any) => services.secrets.getSecret('JWT_SECRET') }, { sessionless: true })
  const { result } = await run('coreReadsSecrets', {})
  await assert.rejects(result, (error: unknown) => {
    assert.ok(error instanceof SecretAccessDeniedError)
    // A plain Error, not a PikkuError with a status of its own: the HTTP error handler answers such errors 500.
    assert.ok(!(error instanceof PikkuError))
    return true
  })
})

test('direct-func-skips-runner: calling .func directly runs with no session and no permission check', async () => {
  const todo = await createAs(alice, 'Direct call')
  // No session at all, and Bob would fail isTodoOwner through the runner: the handler still returns the item.
  const fetched = await getTodo.func(app.services as never, { todoId: todo.todoId }, {} as never)
  assert.equal(fetched?.ownerId, 'alice')
})

test('rpc-invoke-keeps-checks: completeTodo reaches updateTodo through rpc.invoke, so its owner check applies', async () => {
  const todo = await createAs(alice, 'Only Alice completes')
  const asBob = await run('completeTodo', { todoId: todo.todoId }, { session: bobSession })
  await assert.rejects(asBob.result, { name: 'ForbiddenError', message: 'Permission denied' })
  const asAlice = await run('completeTodo', { todoId: todo.todoId }, { session: aliceSession })
  assert.equal(((await asAlice.result) as { done: boolean }).done, true)
})

test('rpc-callee-gets-caller-channel: streamDueToday reached through rpc.invoke from a call that has a stream writes into that stream and closes it', async () => {
  registerProbe('coreInvokesDueToday', { func: async (_services: unknown, _data: unknown, { rpc }: any) => rpc.invoke('streamDueToday', {}) })
  const sent: unknown[] = []
  let closed = false
  const channel = { channelId: 'caller-stream', send: (data: unknown) => { sent.push(data) }, close: () => { closed = true } }
  const { result } = await run('coreInvokesDueToday', {}, { session: { userId: 'rpc-stream-probe', role: 'member' }, channel })
  assert.deepEqual(await result, { type: 'end', count: 0 })
  // The callee's `if (!channel)` branch did not run: it found the caller's stream on its wire, wrote its end marker
  // into it and closed it.
  assert.deepEqual(sent, [{ type: 'end', count: 0 }])
  assert.equal(closed, true)
})

test('rpc-middleware-cache-by-name: an addon calling its own function by a bare name gets the middleware of the app function of that name when that one ran first', async () => {
  // The function runner caches the combined middleware under the wiring type and the name called ('rpc',
  // 'probeSameName'), not under the function the name resolved to, so the app's and the addon's share one entry.
  const pkg = '@probe/rpc-cache-addon'
  const ran: string[] = []
  const mark = (label: string) => async (_services: unknown, _wire: unknown, next: () => Promise<void>) => {
    ran.push(label)
    await next()
  }
  registerProbe('probeSameName', { func: async () => 'app', middleware: [mark('app middleware')] } as never, { sessionless: true })
  addFunction('probeSameName', { func: async () => 'addon', middleware: [mark('addon middleware')] } as never, pkg)
  const pkgMeta = pikkuState(pkg, 'function', 'meta') as Record<string, unknown>
  pkgMeta.probeSameName = { ...(pikkuState(null, 'function', 'meta') as Record<string, any>).probeSameName }
  try {
    const services = getSingletonServices()
    const appRpc: any = rpcService.getContextRPCService(services, {}, false)
    const addonRpc: any = rpcService.getContextRPCService(services, {}, false, 0, pkg)
    assert.equal(await appRpc.invoke('probeSameName', {}), 'app')
    // The addon's own function runs, wrapped in the app function's middleware.
    assert.equal(await addonRpc.invoke('probeSameName', {}), 'addon')
    assert.deepEqual(ran, ['app middleware', 'app middleware'])
  } finally {
    delete pkgMeta.probeSameName
    pikkuState(pkg, 'function', 'functions').delete('probeSameName')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).probeSameName
    pikkuState(null, 'function', 'functions').delete('probeSameName')
  }
})

// The testing page's recipe, run as written.
test('stub-tracker-recipe: a stubbed todoStore records the remove call deleteTodo makes', async () => {
  const todoStore = stub<TodoStore>('todoStore', { remove: async () => true })
  await deleteTodo.func({ todoStore } as never, { todoId: 't_9' }, {} as never)
  getStubTracker().assertCall('todoStore', 'remove', (args) => args[0] === 't_9', 'todoStore.remove("t_9")')
})

test('stub-default-undefined: a stub method with no implementation resolves undefined, so deleteTodo throws NotFoundError', async () => {
  const todoStore = stub<TodoStore>('todoStore')
  await assert.rejects(deleteTodo.func({ todoStore } as never, { todoId: 't_9' }, {} as never), NotFoundError)
  assert.equal(getStubTracker().getCalls('todoStore').length, 1)
})

test('clear-state-needs-test-env: clearPikkuRuntimeState outside NODE_ENV=test logs an error and does nothing', async () => {
  const previous = process.env.NODE_ENV
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args.join(' '))
  try {
    process.env.NODE_ENV = 'production'
    clearPikkuRuntimeState()
  } finally {
    console.error = original
    process.env.NODE_ENV = previous
  }
  assert.match(String(errors[0]), /must only be called in test environments/)
  // The running app still answers: nothing was cleared.
  assert.equal((await fetch(`${app.url}/health`)).status, 200)
})

test('clear-state-drops-singletons: under NODE_ENV=test clearPikkuRuntimeState also unregisters the singleton services, so a request fails until they are set again', async () => {
  assert.equal(process.env.NODE_ENV, 'test')
  clearPikkuRuntimeState()
  try {
    assert.equal(pikkuState(null, 'package', 'singletonServices'), null)
    assert.throws(() => getSingletonServices(), /Singleton services not initialized/)
    const response = await fetch(`${app.url}/health`)
    assert.equal(response.status, 500)
  } finally {
    setSingletonServices(app.services as never)
  }
  assert.equal((await fetch(`${app.url}/health`)).status, 200)
})

test('stub-proxy-existing-services: createStubProxy as existingServices reaches only what the factory reads from it', async () => {
  const tracker = getStubTracker()
  const services = await createSingletonServices(await createConfig(), createStubProxy(tracker) as never)
  // Put the running app's singletons back: the factory call registered the new set.
  pikkuState(null, 'package', 'singletonServices', app.services as never)
  // src/services.ts reads existingServices.workflowService, so the stub is used and records calls ...
  await services.workflowService.getRun('run-1')
  assert.deepEqual(tracker.getCalls('workflowService').map((c) => c.method), ['getRun'])
  // ... and builds its own todoStore, which the wrapper's merge does not replace: the proxy has no keys to copy.
  assert.equal(typeof (await services.todoStore.list('nobody')).length, 'number')
  assert.deepEqual(tracker.getCalls('todoStore'), [])
})

// 'settled' if the promise settles before the event loop's next turn, when every queued promise callback has run.
const settlesSoon = (value: Promise<unknown>) =>
  Promise.race([value.then(() => 'settled'), new Promise((resolve) => setImmediate(() => resolve('pending')))])

test('stub-awaited-never-settles: a stub answers `then` like any method, so awaiting the stub itself, or an async function returning it, never settles', async () => {
  const emailService = stub<object>('emailService')
  assert.equal(await settlesSoon((async () => await emailService)()), 'pending')
  assert.equal(await settlesSoon((async () => stub<object>('emailService'))()), 'pending')
  // The await is recorded as a call of `then`
  assert.ok(getStubTracker().getCalls('emailService').some((c) => c.method === 'then'))
  // Held in an object, as a services factory returns it, the stub is not awaited
  assert.equal(await settlesSoon((async () => ({ emailService }))()), 'settled')
})

test('stub-tracker-verify-named-only: verify() fails on an unasserted call only on a service some assertion named', () => {
  const tracker = new StubTracker()
  tracker.record('emailService', 'send', [{ to: 'alice@example.com' }])
  // No assertion named emailService, so its call is not checked
  tracker.verify()
  // assertNoCalls for another method names the service without verifying its call
  tracker.assertNoCalls('emailService', 'sendBulk')
  assert.throws(() => tracker.verify(), /Unexpected stub calls[\s\S]*emailService\.send/)
  // Each assert verifies one recorded call: two calls need two asserts
  tracker.record('emailService', 'send', [{ to: 'bob@example.com' }])
  tracker.assert('emailService', 'send')
  assert.throws(() => tracker.verify(), /emailService\.send/)
  tracker.assert('emailService', 'send')
  tracker.verify()
})

test('scenario-expect-error-any-error: without `matches`, expectError passes on any error, such as the refusal `pikku scenario run` gives a call made without an actor', async () => {
  const { workflowService } = createScenarioRunner()
  const runId = await workflowService.createRun('probeScenario', {}, true, 'hash', { type: 'test' } as never)
  workflowService.registerInlineRun(runId)
  // What the CLI's scenario.ts passes as the run's rpc: every call made without an actor is refused
  const refuse = async (rpcName: string) => {
    throw new Error(`Scenario tried to run '${rpcName}' as an internal step.`)
  }
  const wire = workflowService.createWorkflowWire('probeScenario', runId, { rpcWithWire: refuse, invoke: refuse } as never) as unknown as PikkuScenarioWire
  // deleteTodo never ran, and the step still passes, returning the refusal
  const message = await wire.expectError('Bob cannot delete it', 'deleteTodo', { todoId: 't_9' })
  assert.match(message, /as an internal step/)
  // With `matches`, the refusal is not taken for the expected error
  await assert.rejects(
    wire.expectError('Bob is refused', 'deleteTodo', { todoId: 't_9' }, { matches: 'Forbidden' }),
    /threw, but the message did not match Forbidden/
  )
})


test('console-logger-lines: ConsoleLogger prints "INFO:" lines, "[traceId]" when scoped, skips debug by default, prints an Error\'s stack', async () => {
  const lines = await captureConsole(() => {
    const logger = new ConsoleLogger()
    logger.info('ready')
    logger.debug('not shown at the default level')
    logger.scope('trace-1').warn('slow')
    logger.error(new Error('boom'))
  })
  assert.equal(lines[0], 'INFO: ready')
  assert.equal(lines[1], '[trace-1] WARN: slow')
  assert.equal(lines[2], 'ERROR: boom')
  assert.match(lines[3]!, /^STACK: Error: boom/)
  assert.equal(lines.length, 4)
})

test('json-logger-lines: JsonConsoleLogger prints one JSON object per line, level then traceId then the message or fields, then meta', async () => {
  const lines = await captureConsole(() => {
    const logger = new JsonConsoleLogger().scope('trace-2')
    logger.info('ready')
    logger.info({ todoId: 't_1' }, 'extra')
  })
  assert.equal(lines[0], '{"level":"info","traceId":"trace-2","message":"ready"}')
  assert.equal(lines[1], '{"level":"info","traceId":"trace-2","todoId":"t_1","meta":["extra"]}')
})

test('json-logger-error-meta: JsonConsoleLogger prints an Error passed after the message as {}, and an object\'s own level or traceId field replaces the entry\'s', async () => {
  const lines = await captureConsole(() => {
    const logger = new JsonConsoleLogger().scope('trace-3')
    logger.error('Error stopping service mailer:', new Error('stop failed'))
    logger.info({ level: 'audit', traceId: 'from-the-object', todoId: 't_1' })
  })
  // The Error's message and stack are gone: JSON.stringify finds no enumerable fields on it.
  assert.equal(lines[0], '{"level":"error","traceId":"trace-3","message":"Error stopping service mailer:","meta":[{}]}')
  assert.equal(lines[1], '{"level":"audit","traceId":"from-the-object","todoId":"t_1"}')
})

test('pino-critical-level-throws: a Pino logger given the name of LogLevel.critical, as PinoLogger.setLevel does, throws "unknown level critical"; the name of LogLevel.error is accepted', async () => {
  const { pino } = await import('pino')
  const logger = pino({ enabled: false })
  // PinoLogger.setLevel (read from @pikku/pino 0.12.4): this.pino.level = LogLevel[level]
  assert.throws(() => { logger.level = LogLevel[LogLevel.critical] }, { message: 'unknown level critical' })
  logger.level = LogLevel[LogLevel.error]
  assert.equal(logger.level, 'error')
})

test('logger-secret-type-error: passing a SecretValue, or a promise of one, to a Logger method fails to compile; the revealed value compiles', async () => {
  const head = [
    "import type { Logger } from '@pikku/core/services'",
    "import { createSecretValue } from '@pikku/core/classification'",
    "export const log = (logger: Logger) => {",
    "  const token = createSecretValue('do-not-print')",
  ].join('\n')
  const { code, output } = await compileScratch('logger-secret', {
    'secret.ts': `${head}\n  logger.info('token', token)\n}\n`,
    'promised.ts': `${head}\n  logger.info({ token: Promise.resolve(token) })\n}\n`,
    'revealed.ts': `${head}\n  logger.info('token', token.reveal())\n}\n`,
  })
  assert.notEqual(code, 0)
  assert.match(output, /secret\.ts\(5,\d+\): error TS\d+/)
  assert.match(output, /promised\.ts\(5,\d+\): error TS\d+/)
  assert.doesNotMatch(output, /revealed\.ts\(/)
})

test('http-logs-trace-id: the HTTP runner scopes its error lines with the request id (x-request-id), but not every line it logs', async () => {
  app.services.logger.setLevel(LogLevel.info)
  let response: Response | undefined
  const lines = await captureConsole(async () => {
    // A malformed bearer token makes the jwt service throw inside the auth middleware: a 500 the runner logs.
    response = await fetch(`${app.url}/todos`, { headers: { 'x-request-id': 'trace-7', authorization: 'Bearer not-a-jwt' } })
  })
  app.services.logger.setLevel(LogLevel.critical)
  assert.equal(response?.status, 500)
  assert.equal((await response!.json()).errorId, 'trace-7')
  assert.ok(lines.some((l) => l.startsWith('[trace-7] ERROR:')))
  assert.ok(lines.some((l) => l.startsWith('INFO: Matched route: /todos')))
})

test('http-sse-error-unscoped: an SSE route whose function fails logs the error through the unscoped logger, without the request id', async () => {
  app.services.logger.setLevel(LogLevel.info)
  const lines = await captureConsole(async () => {
    // No credential: the function runner throws ForbiddenError inside the SSE route's function call.
    const response = await fetch(`${app.url}/todos/due-today`, { headers: { 'x-request-id': 'trace-8' } })
    await response.text()
  })
  app.services.logger.setLevel(LogLevel.critical)
  assert.ok(lines.includes('ERROR: Authentication required'), lines.join('\n'))
  assert.ok(!lines.some((l) => l.startsWith('[trace-8] ERROR:')))
})

test('http-registered-error-not-logged: a registered error (a 404 from getTodo) answers with the request id as errorId, but no log line carries that id', async () => {
  app.services.logger.setLevel(LogLevel.info)
  let response: Response | undefined
  let lines: string[]
  try {
    lines = await captureConsole(async () => {
      response = await fetch(`${app.url}/todos/no-such-todo`, { headers: { ...alice, 'x-request-id': 'trace-9' } })
    })
  } finally {
    app.services.logger.setLevel(LogLevel.critical)
  }
  assert.equal(response?.status, 404)
  assert.equal((await response!.json()).errorId, 'trace-9')
  // The runner logged the request (the unscoped "Matched route" line), but nothing with its id.
  assert.ok(lines.some((l) => l.startsWith('INFO: Matched route:')), lines.join('\n'))
  assert.ok(!lines.some((l) => l.includes('trace-9')), lines.join('\n'))
})

test('http-unregistered-logged-by-message: the HTTP runner logs an unregistered error as its message alone, whether or not it carries expected: true', async () => {
  let current = new Error('unset')
  await withProbeRoute('probeUnregisteredLog', '/probe-unregistered-log', { func: async () => { throw current } }, {}, async () => {
    app.services.logger.setLevel(LogLevel.info)
    try {
      for (const expected of [false, true]) {
        const message = `probe failure, expected: ${expected}`
        current = Object.assign(new Error(message), expected ? { expected: true } : {})
        const lines = await captureConsole(async () => {
          const response = await fetch(`${app.url}/probe-unregistered-log`, { headers: { 'x-request-id': 'unregistered-1' } })
          assert.equal(response.status, 500)
          await response.text()
        })
        assert.ok(lines.includes(`[unregistered-1] ERROR: ${message}`), lines.join('\n'))
        assert.ok(!lines.some((line) => line.includes('    at ')), lines.join('\n'))
      }
    } finally {
      app.services.logger.setLevel(LogLevel.critical)
    }
  })
})

test('http-unmatched-route-logged-with-id: a path no route matches answers 404 with the request id as errorId, and the runner logs "Route not found" through its request-scoped logger', async () => {
  app.services.logger.setLevel(LogLevel.info)
  const calls: unknown[][] = []
  const info = console.info
  console.info = (...args: unknown[]) => void calls.push(args)
  let response: Response | undefined
  try {
    response = await fetch(`${app.url}/no-such-path`, { headers: { 'x-request-id': 'trace-10' } })
  } finally {
    console.info = info
    app.services.logger.setLevel(LogLevel.critical)
  }
  assert.equal(response?.status, 404)
  assert.equal((await response!.json()).errorId, 'trace-10')
  // ConsoleLogger prints the scope first: the request id, then the level, then the object the runner logs.
  const routeNotFound = calls.filter((args) => (args[2] as { message?: string } | undefined)?.message === 'Route not found')
  assert.equal(routeNotFound.length, 1, JSON.stringify(calls))
  assert.deepEqual(routeNotFound[0]!.slice(0, 2), ['[trace-10]', 'INFO:'])
})

test('get-todo-statuses: GET /todos/:todoId answers 403 without a session, 403 to a stranger, 404 for a missing item, 200 to the owner', async () => {
  const todo = await createAs(alice, 'Statuses')
  assert.equal((await fetch(`${app.url}/todos/${todo.todoId}`)).status, 403)
  const stranger = await fetch(`${app.url}/todos/${todo.todoId}`, { headers: bob })
  assert.equal(stranger.status, 403)
  assert.equal((await stranger.json()).message, 'Permission denied')
  const missing = await fetch(`${app.url}/todos/no-such-todo`, { headers: alice })
  assert.equal(missing.status, 404)
  assert.equal((await missing.json()).message, 'No to-do with id no-such-todo')
  assert.equal((await fetch(`${app.url}/todos/${todo.todoId}`, { headers: alice })).status, 200)
})

// --- core's fetch runner, as a custom HTTP runtime calls it (docs/custom-runtimes/http.mdx) ---

test('core-fetch-runner: fetch(Request) answers JSON 200 for a result and 204 for a function that returns nothing', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const health = await pikkuFetch(new Request('http://localhost/health'))
  assert.equal(health.status, 200)
  assert.deepEqual(await health.json(), { status: 'ok' })
  const todo = await createAs(alice, 'Delete me')
  const deleted = await pikkuFetch(new Request(`http://localhost/todos/${todo.todoId}`, { method: 'DELETE', headers: alice }))
  assert.equal(deleted.status, 204)
})

test('core-fetch-unregistered-error: an error with no registered status answers 500 with only { errorId } when errors are not exposed', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const request = () => new Request('http://localhost/todos', { headers: { authorization: 'Bearer not-a-jwt', 'x-request-id': 'trace-9' } })
  const hidden = await pikkuFetch(request(), { exposeErrors: false })
  assert.equal(hidden.status, 500)
  assert.deepEqual(await hidden.json(), { errorId: 'trace-9' })
  // Outside production the default exposes the message and stack.
  const exposed = await (await pikkuFetch(request())).json()
  assert.equal(exposed.errorId, 'trace-9')
  assert.equal(typeof exposed.message, 'string')
  assert.equal(typeof exposed.stack, 'string')
  // A traceId option wins over the header; generateRequestId serves only when neither is given.
  const traced = await pikkuFetch(request(), { exposeErrors: false, traceId: 'trace-10', generateRequestId: () => 'generated-1' })
  assert.deepEqual(await traced.json(), { errorId: 'trace-10' })
  const noHeader = new Request('http://localhost/todos', { headers: { authorization: 'Bearer not-a-jwt' } })
  const generated = await pikkuFetch(noHeader, { exposeErrors: false, generateRequestId: () => 'generated-1' })
  assert.deepEqual(await generated.json(), { errorId: 'generated-1' })
})

test('http-5xx-payload-exposed: a 5xx error\'s thrown message and payload reach the client only with exposeErrors on outside production, which is core fetch\'s default there; a 4xx error\'s always do', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const { ServiceUnavailableError, ConflictError } = await import('@pikku/core/errors')
  const payload = { retryIn: 30 }
  let status = 503
  const func = {
    func: async () => {
      const error = status === 503 ? new ServiceUnavailableError('Store is warming up') : new ConflictError('Title taken')
      throw Object.assign(error, { payload })
    },
  }
  await withProbeRoute('probePayload', '/probe-payload', func, {}, async () => {
    const call = async (options?: { exposeErrors: boolean }) =>
      (await pikkuFetch(new Request('http://localhost/probe-payload', { headers: { 'x-request-id': 'payload-1' } }), options)).json()
    const registered = 'The server is currently unavailable (overloaded or down).'
    const hidden = { name: 'ServiceUnavailableError', message: registered, errorId: 'payload-1' }
    const shown = { name: 'ServiceUnavailableError', message: 'Store is warming up', payload, errorId: 'payload-1' }
    await withEnv({ NODE_ENV: 'development' }, async () => {
      assert.deepEqual(await call(), shown)
      assert.deepEqual(await call({ exposeErrors: true }), shown)
      assert.deepEqual(await call({ exposeErrors: false }), hidden)
    })
    await withEnv({ NODE_ENV: 'production' }, async () => {
      assert.deepEqual(await call(), hidden)
      assert.deepEqual(await call({ exposeErrors: true }), hidden)
      status = 409
      assert.deepEqual(await call({ exposeErrors: false }), { name: 'ConflictError', message: 'Title taken', payload, errorId: 'payload-1' })
    })
  })
})

test('custom-error-registered-message: TodoLimitReachedError thrown without a message answers 409 with the message src/errors.ts registers, a subclass with no addError of its own answers the same, and a message given at the throw replaces it', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  class CappedAtTen extends TodoLimitReachedError {}
  let toThrow: () => Error = () => new TodoLimitReachedError()
  const func = { func: async () => { throw toThrow() } }
  await withProbeRoute('probeTodoLimit', '/probe-todo-limit', func, {}, async () => {
    const call = async () => {
      const response = await pikkuFetch(new Request('http://localhost/probe-todo-limit', { headers: { 'x-request-id': 'limit-1' } }))
      return { status: response.status, body: await response.json() }
    }
    const registered = 'You have reached the limit of open to-do items'
    assert.deepEqual(await call(), { status: 409, body: { name: 'TodoLimitReachedError', message: registered, errorId: 'limit-1' } })
    toThrow = () => new CappedAtTen()
    assert.deepEqual(await call(), { status: 409, body: { name: 'CappedAtTen', message: registered, errorId: 'limit-1' } })
    toThrow = () => new TodoLimitReachedError('Ten open to-dos at most')
    assert.deepEqual(await call(), { status: 409, body: { name: 'TodoLimitReachedError', message: 'Ten open to-dos at most', errorId: 'limit-1' } })
    // A subclass of a built-in class inherits its mapping the same way.
    class TodoNotFoundError extends NotFoundError {}
    toThrow = () => new TodoNotFoundError()
    assert.equal((await call()).status, 404)
  })
})

test('error-lookup-by-name: an unregistered class that does not extend a registered one, but has the name of one, answers with that class\'s status; another unregistered class answers 500', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const registry = pikkuState(null, 'misc', 'errors') as Map<unknown, unknown>
  class ConflictError extends Error {}
  class TitleClashError extends Error {}
  let toThrow: () => Error = () => new ConflictError('Same title twice')
  await withProbeRoute('probeErrorByName', '/probe-error-by-name', { func: async () => { throw toThrow() } }, {}, async () => {
    assert.equal(registry.has(ConflictError), false)
    const byName = await pikkuFetch(new Request('http://localhost/probe-error-by-name'), { exposeErrors: false })
    assert.equal(byName.status, 409)
    assert.equal((await byName.json()).message, 'Same title twice')
    toThrow = () => new TitleClashError('Same title twice')
    const unnamed = await pikkuFetch(new Request('http://localhost/probe-error-by-name'), { exposeErrors: false })
    assert.equal(unnamed.status, 500)
  })
})

test('errors-field-metadata-only: a function\'s errors list is recorded in the verbose metadata only, and an error it does not list still answers with its own status', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const { readFileSync } = await import('node:fs')
  // addTodoToCalendar lists NotFoundError; the verbose metadata keeps that list, the runtime metadata has no errors field.
  const verbose = JSON.parse(readFileSync(join(APP_DIR, '.pikku/function/pikku-functions-meta-verbose.gen.json'), 'utf8'))
  assert.deepEqual(verbose.addTodoToCalendar.errors, ['NotFoundError'])
  const runtimeMeta = pikkuState(null, 'function', 'meta') as Record<string, Record<string, unknown>>
  assert.ok(runtimeMeta.addTodoToCalendar)
  assert.equal('errors' in runtimeMeta.addTodoToCalendar, false)
  // A function that lists only NotFoundError and throws ConflictError answers 409 all the same.
  const { ConflictError } = await import('@pikku/core/errors')
  const func = { errors: [NotFoundError], func: async () => { throw new ConflictError('Listed nowhere') } }
  await withProbeRoute('probeErrorsField', '/probe-errors-field', func, {}, async () => {
    const response = await pikkuFetch(new Request('http://localhost/probe-errors-field'))
    assert.equal(response.status, 409)
    assert.equal((await response.json()).message, 'Listed nowhere')
  })
})

test('error-registry-gaps: no registered class answers 418, 421, 425, 426, 428, 431 or 451; RPCNotFoundError and the workflow errors register 404s of their own', async () => {
  const { RPCNotFoundError } = await import('@pikku/core/rpc')
  const { WorkflowNotFoundError, WorkflowRunNotFoundError } = await import('@pikku/core/workflow')
  const registry = pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>
  const statuses = new Set([...registry.values()].map((details) => details.status))
  for (const status of [418, 421, 425, 426, 428, 431, 451]) assert.equal(statuses.has(status), false, String(status))
  assert.equal(registry.get(RPCNotFoundError)?.status, 404)
  assert.equal(registry.get(WorkflowNotFoundError)?.status, 404)
  assert.equal(registry.get(WorkflowRunNotFoundError)?.status, 404)
})

test('expected-error-flag: isExpectedError is true for any PikkuError and for an error carrying expected: true, false otherwise', async () => {
  const { isExpectedError } = await import('@pikku/core/errors')
  assert.equal(isExpectedError(new NotFoundError()), true)
  assert.equal(isExpectedError(new PikkuError('plain pikku error')), true)
  assert.equal(isExpectedError(Object.assign(new Error('rehydrated'), { expected: true })), true)
  assert.equal(isExpectedError(Object.assign(new Error('truthy only'), { expected: 'yes' })), false)
  assert.equal(isExpectedError(new Error('plain')), false)
})

test('plain-error-classes-500: SecretAccessDeniedError, SecretCoercionError and AbandonedError are plain Errors with no registered status, so a route that throws one answers 500', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const { AbandonedError } = await import('@pikku/core/function')
  const { SecretCoercionError } = await import('@pikku/core/classification')
  const registry = pikkuState(null, 'misc', 'errors') as Map<unknown, unknown>
  const makers: Array<() => Error> = [
    () => new SecretAccessDeniedError('a probe function'),
    () => new SecretCoercionError(),
    () => new AbandonedError('abandoned'),
  ]
  let current: () => Error = makers[0]!
  await withProbeRoute('probePlainErrors', '/probe-plain-errors', { func: async () => { throw current() } }, {}, async () => {
    for (const make of makers) {
      current = make
      const error = make()
      assert.equal(error instanceof PikkuError, false, error.name)
      assert.equal(registry.has(error.constructor), false, error.name)
      const response = await pikkuFetch(new Request('http://localhost/probe-plain-errors'), { exposeErrors: false })
      assert.equal(response.status, 500, error.name)
    }
  })
})

test('sse-middleware-no-next-200: on a route wired with sse: true, a middleware that returns without next() skips the function and the answer is 200 text/event-stream, not 204', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  let ran = false
  const stop = async () => {}
  const func = { auth: false, func: async () => void (ran = true) }
  await withProbeRoute('probeSseStop', '/probe-sse-stop', func, { sse: true, middleware: [stop] }, async () => {
    const response = await pikkuFetch(new Request('http://localhost/probe-sse-stop', { headers: { accept: 'text/event-stream' } }))
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'text/event-stream')
    await response.body?.cancel()
  })
  assert.equal(ran, false)
  // The same middleware on a route without sse answers 204.
  await withProbeRoute('probePlainStop', '/probe-plain-stop', func, { middleware: [stop] }, async () => {
    assert.equal((await pikkuFetch(new Request('http://localhost/probe-plain-stop'))).status, 204)
  })
})

test('sse-guard-refusal-error-event: a guard refusing on a route wired with sse: true answers 200, then an error event and a done event, where the same route without sse answers 403', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const func = { auth: false, func: async () => 'never', permissions: { never: async () => false } }
  await withProbeRoute('probeSseGuard', '/probe-sse-guard', func, { sse: true }, async () => {
    const response = await pikkuFetch(new Request('http://localhost/probe-sse-guard', { headers: { accept: 'text/event-stream' } }))
    assert.equal(response.status, 200)
    const frames = (await response.text()).split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)))
    assert.deepEqual(frames, [{ type: 'error', errorText: 'The client does not have permission to access the requested resource.' }, { type: 'done' }])
  })
  await withProbeRoute('probePlainGuard', '/probe-plain-guard', func, {}, async () => {
    const response = await pikkuFetch(new Request('http://localhost/probe-plain-guard'))
    assert.equal(response.status, 403)
    assert.equal((await response.json()).message, 'Permission denied')
  })
})

test('core-fetch-body-limit: a body over maxBodySize answers 413', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const response = await pikkuFetch(
    new Request('http://localhost/todos', { method: 'POST', headers: alice, body: JSON.stringify({ title: 'x'.repeat(2000) }) }),
    { maxBodySize: 1024 },
  )
  assert.equal(response.status, 413)
})

test('core-fetch-body-limit-streamed: a streamed body with no Content-Length is counted as it is read and answers 413 once over maxBodySize', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const body = new Blob([JSON.stringify({ title: 'x'.repeat(2000) })]).stream()
  // duplex is required for a stream body; the DOM RequestInit type does not list it.
  const init: RequestInit & { duplex: 'half' } = { method: 'POST', headers: alice, body, duplex: 'half' }
  const request = new Request('http://localhost/todos', init)
  assert.equal(request.headers.get('content-length'), null)
  const response = await pikkuFetch(request, { maxBodySize: 1024 })
  assert.equal(response.status, 413)
})

test('core-fetch-no-content-type-422: a POST body with no Content-Type, or one of a type core does not read, is rejected with 422 "Unsupported content type"', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const { 'content-type': _dropped, ...noType } = alice
  // A string body would make Request add text/plain;charset=UTF-8 itself; bytes leave the header unset.
  const body = new TextEncoder().encode(JSON.stringify({ title: 'x' }))
  const request = new Request('http://localhost/todos', { method: 'POST', headers: noType, body })
  assert.equal(request.headers.get('content-type'), null)
  const response = await pikkuFetch(request)
  assert.equal(response.status, 422)
  assert.match((await response.json()).message, /Unsupported content type/)
  const xml = await pikkuFetch(
    new Request('http://localhost/todos', { method: 'POST', headers: { ...noType, 'content-type': 'application/xml' }, body: '<title>x</title>' }),
  )
  assert.equal(xml.status, 422)
  assert.match((await xml.json()).message, /Unsupported content type application\/xml/)
})

test('core-fetch-empty-json-body: core\'s reader turns an empty application/json body into { data: null }, which a schema without a data field refuses', async () => {
  const { PikkuFetchHTTPRequest } = await import('@pikku/core/http')
  const { validateSchema } = await import('@pikku/core/schema')
  const { UnprocessableContentError } = await import('@pikku/core/errors')
  const request = new PikkuFetchHTTPRequest(new Request('http://localhost/todos', { method: 'POST', headers: { 'content-type': 'application/json' } }))
  const data = await request.data()
  assert.deepEqual(data, { data: null })
  // ListTodosInput has only an optional field, so {} would pass; the data key does not.
  await validateSchema(app.services.logger, app.services.schema, 'ListTodosInput', {})
  await assert.rejects(validateSchema(app.services.logger, app.services.schema, 'ListTodosInput', data), UnprocessableContentError)
})

test('core-fetch-conflicting-input-422: a key given different values in the path and the body is rejected with 422', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const todo = await createAs(alice, 'Conflict')
  const response = await pikkuFetch(
    new Request(`http://localhost/todos/${todo.todoId}`, { method: 'PATCH', headers: alice, body: JSON.stringify({ todoId: 'other', done: true }) }),
  )
  assert.equal(response.status, 422)
})

test('core-fetch-options-204: an OPTIONS request no route matches answers 204 after the "*" middleware (CORS) ran', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const response = await pikkuFetch(
    new Request('http://localhost/todos', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } }),
  )
  assert.equal(response.status, 204)
  assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  // A path with no route at all, as after a filtered build, answers the same way.
  const unrouted = await pikkuFetch(
    new Request('http://localhost/not-in-this-build', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } }),
  )
  assert.equal(unrouted.status, 204)
  assert.equal(unrouted.headers.get('access-control-allow-origin'), 'http://localhost:5173')
})

test('core-fetch-respond-404-false: with respondWith404 false, fetch answers an unknown path and a NotFoundError from a function as an empty 200, and an unmatched OPTIONS still as 204', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const options = { respondWith404: false }
  const unknown = await pikkuFetch(new Request('http://localhost/not-a-route'), options)
  assert.equal(unknown.status, 200)
  assert.equal(await unknown.text(), '')
  const missing = await pikkuFetch(new Request('http://localhost/todos/no-such-todo', { headers: alice }), options)
  assert.equal(missing.status, 200)
  assert.equal(await missing.text(), '')
  const preflight = await pikkuFetch(
    new Request('http://localhost/not-a-route', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } }),
    options,
  )
  assert.equal(preflight.status, 204)
  // Without the option, the same missing to-do answers 404.
  assert.equal((await pikkuFetch(new Request('http://localhost/todos/no-such-todo', { headers: alice }))).status, 404)
})

test('core-fetch-reserved-keys-dropped: core\'s reader for a Web Request drops "constructor" and "prototype" from the body, so createTodo gets only its title', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const response = await pikkuFetch(
    new Request('http://localhost/todos', { method: 'POST', headers: alice, body: JSON.stringify({ title: 'Reserved', constructor: 'y', prototype: 'z' }) }),
  )
  assert.equal(response.status, 200)
  assert.equal((await response.json()).title, 'Reserved')
})

test('core-fetch-query-boolean: GET /todos?done=true is not coerced to a boolean and answers 422', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const response = await pikkuFetch(new Request('http://localhost/todos?done=true', { headers: alice }))
  assert.equal(response.status, 422)
})

test('no-schema-service-skips-validation: with no schema service the runner validates nothing and says nothing', async () => {
  const { logger, lines } = recordingLogger()
  const created = await runPikkuFunc('rpc', 'createTodo', 'createTodo', {
    singletonServices: { ...app.services, logger, schema: undefined } as never,
    data: () => ({ title: 5 }),
    wire: { session: aliceSession } as never,
  })
  assert.equal((created as { title: unknown }).title, 5)
  assert.deepEqual(lines.filter((l) => l.level === 'warn' || l.level === 'error'), [])
})

test('core-root-no-values: the bare @pikku/core entry exports no runtime values; subpath entries do', async () => {
  assert.deepEqual(Object.keys(await import('@pikku/core')), [])
  assert.equal(typeof (await import('@pikku/core/errors')).NotFoundError, 'function')
})

// --- the generated clients (docs/philosophy/typed-clients.mdx) ---

const tokenOf = (headers: Record<string, string>) => headers.authorization!.slice('Bearer '.length)

test('fetch-client-calls: the generated PikkuFetch posts and gets typed routes with a bearer token; a trailing slash is removed with a warning', async () => {
  const { PikkuFetch } = await import('#pikku/pikku-fetch.gen.js')
  const client = new PikkuFetch()
  const warnings: unknown[] = []
  const original = console.warn
  console.warn = (...args: unknown[]) => void warnings.push(args.join(' '))
  try {
    client.setServerUrl(`${app.url}/`)
  } finally {
    console.warn = original
  }
  assert.deepEqual(warnings, ['Server URL should not end with a slash, removing.'])
  client.setAuthorizationJWT(tokenOf(alice))
  const created = await client.post('/todos', { title: 'From the client' })
  const fetched = await client.get('/todos/:todoId', { todoId: created.todoId })
  assert.equal(fetched.title, 'From the client')
})

test('fetch-client-errors: an answer of 400 or above throws PikkuFetchError with the status, name and message', async () => {
  const { PikkuFetch } = await import('#pikku/pikku-fetch.gen.js')
  const { PikkuFetchError } = await import('@pikku/fetch')
  const asAlice = new PikkuFetch({ serverUrl: app.url })
  asAlice.setAuthorizationJWT(tokenOf(alice))
  const todo = await asAlice.post('/todos', { title: 'Mine' })
  const asBob = new PikkuFetch({ serverUrl: app.url })
  asBob.setAuthorizationJWT(tokenOf(bob))
  const statusOf = async (call: Promise<unknown>) => {
    try {
      await call
    } catch (error) {
      assert.ok(error instanceof PikkuFetchError)
      return [error.status, error.name, error.message]
    }
    return 'no error'
  }
  assert.deepEqual(await statusOf(asAlice.get('/todos/:todoId', { todoId: 'missing' })), [404, 'NotFoundError', 'No to-do with id missing'])
  assert.deepEqual(await statusOf(asBob.get('/todos/:todoId', { todoId: todo.todoId })), [403, 'ForbiddenError', 'Permission denied'])
  assert.equal(((await statusOf(asAlice.post('/todos', { title: 5 as never }))) as unknown[])[0], 422)
})

test('fetch-client-no-url: a request before setServerUrl fails with "Server url is not set"', async () => {
  const { PikkuFetch } = await import('#pikku/pikku-fetch.gen.js')
  await assert.rejects(new PikkuFetch().get('/health'), { message: 'Server url is not set' })
})

test('fetch-client-dates: date-like strings in a response become Date objects unless transformDate is false', async () => {
  const { PikkuFetch } = await import('#pikku/pikku-fetch.gen.js')
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(tokenOf(alice))
  const created = await client.post('/todos', { title: 'Dated', dueAt: '2030-01-01T09:00:00.000Z' })
  assert.ok((created.dueAt as unknown) instanceof Date)
  const plain = new PikkuFetch({ serverUrl: app.url, transformDate: false })
  plain.setAuthorizationJWT(tokenOf(alice))
  assert.equal(typeof (await plain.get('/todos/:todoId', { todoId: created.todoId })).dueAt, 'string')
})

test('rpc-client-exposed: the generated PikkuRPC invokes an exposed function through the public RPC endpoint', async () => {
  const { PikkuRPC } = await import('#pikku/pikku-rpc.gen.js')
  const rpc = new PikkuRPC()
  rpc.setServerUrl(app.url)
  rpc.setAuthorizationJWT(tokenOf(alice))
  const counts = await rpc.invoke('countOpenTodos')
  assert.equal(typeof counts.open, 'number')
  assert.equal(typeof counts.overdue, 'number')
})

test('wiring-without-metadata: a wireHTTP call codegen never saw logs a warning, registers nothing, and its route answers 404', async () => {
  const { wireHTTP } = await import('@pikku/core/http')
  const { health } = await import('../../src/functions/todos.functions.js')
  const warnings: string[] = []
  const original = console.warn
  console.warn = (...args: unknown[]) => void warnings.push(args.join(' '))
  try {
    wireHTTP({ method: 'get', route: '/not-generated', func: health, auth: false } as never)
  } finally {
    console.warn = original
  }
  assert.match(warnings[0]!, /^\[pikku\] Skipping HTTP route 'GET \/not-generated' — metadata not found/)
  assert.equal((await fetch(`${app.url}/not-generated`)).status, 404)
})

test('rpc-endpoint-exposed-only: POST /rpc/:rpcName runs an exposed function and answers 404 RPCNotFoundError for one without expose', async () => {
  const exposed = await fetch(`${app.url}/rpc/countOpenTodos`, { method: 'POST', headers: alice, body: JSON.stringify({ data: {} }) })
  assert.equal(exposed.status, 200)
  const hidden = await fetch(`${app.url}/rpc/getTodo`, { method: 'POST', headers: alice, body: JSON.stringify({ data: { todoId: 'x' } }) })
  assert.equal(hidden.status, 404)
  assert.deepEqual(await hidden.json().then(({ name, message }) => ({ name, message })), {
    name: 'RPCNotFoundError',
    message: 'RPC function not found: getTodo',
  })
})

test('app-unit-tests-pass: the unit tests the testing page shows (src/functions/todos.functions.test.ts, src/permissions.test.ts) pass', async () => {
  const files = ['src/functions/todos.functions.test.ts', 'src/permissions.test.ts']
  const { code, output } = await runNode(['--import', 'tsx', '--test', '--test-reporter=tap', ...files])
  assert.equal(code, 0, output)
  assert.match(output, /# pass 3/)
  assert.match(output, /# fail 0/)
})

test('spy-records-passes-through: spy passes each call to the real service and records it in the tracker getStubTracker returns', async () => {
  const sent: unknown[] = []
  const emailService = spy('emailService', { send: async (message: unknown) => (sent.push(message), 'queued') })
  assert.equal(await emailService.send({ to: 'alice@example.com' }), 'queued')
  assert.deepEqual(sent, [{ to: 'alice@example.com' }])
  assert.deepEqual(getStubTracker().getCalls('emailService'), [{ service: 'emailService', method: 'send', args: [{ to: 'alice@example.com' }] }])
})

test('cast-wire-missing-rpc: a handler called with a cast wire that lacks rpc compiles, and fails with a TypeError where it calls rpc.invoke', async () => {
  const services = app.services as never
  await assert.rejects(setTodoDone.func(services, { todoId: 't_1', done: true }, { session: { userId: 'alice' } } as never), TypeError)
})
