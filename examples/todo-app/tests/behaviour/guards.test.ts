// What stands between a request and a function on the real @pikku/express: the middleware chain and its order,
// the session check, input validation, the app's permission guards (src/permissions.ts, src/roles.ts) and a
// global permission. The extra middleware and the global permission are registered here before the server
// starts, as a module the generated bootstrap imports would register them.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import type { JWTService } from '@pikku/core/services'
import { addGlobalMiddleware, addHTTPMiddleware, addTagMiddleware, pikkuMiddleware } from '#pikku/middleware'
import { addGlobalPermission, pikkuAuth, pikkuPermission } from '#pikku/auth'
import { pikkuState } from '@pikku/core/state'
import { runPikkuFunc } from '@pikku/core/function'
import { MissingScopeError, NotFoundError } from '@pikku/core/errors'
import { hasScopes, verifyScopes } from '@pikku/core/scope'
import { wireCLI } from '@pikku/core/cli'
import { listTodosForOwner } from '../../src/functions/cli.functions.js'
import { startExpressApp, waitFor, type RunningApp } from './harness/app.js'
import { createTestJWT } from './harness/http.js'
import { recordingLogger, registerProbe } from './harness/core-probes.js'
import { slowCallWarning } from '../../src/slow-calls.middleware.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

let app: RunningApp
let jwt: JWTService
const token = (session: object) => jwt.encode({ value: 1, unit: 'hour' }, session)
const as = async (session: object) => ({ authorization: `Bearer ${await token(session)}` })

const alice = { userId: 'u_alice', role: 'member' }
const bob = { userId: 'u_bob', role: 'member' }
const admin = { userId: 'u_admin', role: 'admin' }

// ---- middleware that records what it saw, keyed by the x-trace header of the request
const seen = new Map<string, string[]>()
const record = (wire: { http?: { request?: { header(name: string): string | null | undefined } } }, what: string) => {
  const trace = wire.http?.request?.header('x-trace')
  if (trace) seen.set(trace, [...(seen.get(trace) ?? []), what])
}
const outermost = pikkuMiddleware({
  name: 'outermost',
  priority: 'highest',
  func: async (_services, wire, next) => {
    record(wire, `outermost in, session ${(await wire.getSession?.())?.userId ?? 'none'}`)
    await next()
    record(wire, `outermost out, session ${(await wire.getSession?.())?.userId ?? 'none'}`)
  },
})
const globalProbe = pikkuMiddleware(async ({ secrets }, wire, next) => {
  record(wire, `global, secrets ${typeof secrets?.getSecret}`)
  await next()
})
const starProbe = pikkuMiddleware(async (_services, wire, next) => {
  record(wire, `star, session ${(await wire.getSession?.())?.userId ?? 'none'}, wire.session ${wire.session?.userId ?? 'none'}`)
  if (wire.http?.request?.header('x-stop')) return
  await next()
})
const twice = pikkuMiddleware(async (_services, wire, next) => {
  record(wire, 'twice')
  await next()
})
const unresolved = pikkuMiddleware(async (_services, wire, next) => {
  record(wire, 'unresolved /todos pattern')
  await next()
})

// ---- the global permission of the permission-guards page
const knownRole = pikkuPermission(async (_services, _data, { session }) => {
  if (!session) return true
  return session.role === 'member' || session.role === 'admin'
})
// A guard that reaches for the secrets service, which guards do not get.
// Even destructuring `secrets` throws, so it is only touched for a session that asks for it.
const readsSecrets = pikkuPermission(async (services, _data, { session }) => {
  if ((session as { probe?: boolean } | undefined)?.probe) await (services as { secrets?: { getSecret(key: string): Promise<unknown> } }).secrets?.getSecret('JWT_SECRET')
  return true
})

// A global entry with two alternatives: both header checks of `quiet` pass, or `allowed` does.
type HeaderWire = { http?: { request?: { header(name: string): string | null | undefined } } }
const hasHeader = (wire: unknown, name: string) => Boolean((wire as HeaderWire).http?.request?.header(name))
const noDenyA = pikkuPermission(async (_services, _data, wire) => !hasHeader(wire, 'x-deny-a'))
const noDenyB = pikkuPermission(async (_services, _data, wire) => !hasHeader(wire, 'x-deny-b'))
const allowed = pikkuPermission(async (_services, _data, wire) => hasHeader(wire, 'x-allow'))

before(async () => {
  addGlobalMiddleware([globalProbe, twice])
  addHTTPMiddleware('*', [outermost, starProbe, twice])
  addHTTPMiddleware('/todos', [unresolved])
  addGlobalPermission({ knownRole })
  addGlobalPermission({ readsSecrets })
  addGlobalPermission({ quiet: [noDenyA, noDenyB], allowed })
  process.env.JWT_SECRET = 'behaviour-suite-secret-of-at-least-32-chars'
  jwt = await createTestJWT()
  app = await startExpressApp({ jwt })
})
after(() => app.stop())

const create = async (session: object, title = 'Plan sprint') => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await as(session)) },
    body: JSON.stringify({ title }),
  })
  assert.equal(response.status, 200)
  return (await response.json()) as { todoId: string }
}

// ---- permissions

test('owner-passes: the owner of a to-do may read it', async () => {
  const { todoId } = await create(alice)
  const response = await fetch(`${app.url}/todos/${todoId}`, { headers: await as(alice) })
  assert.equal(response.status, 200)
})

test('not-owner-403: another member reading, changing or deleting a to-do gets 403 "Permission denied"', async () => {
  const { todoId } = await create(alice)
  for (const method of ['GET', 'PATCH', 'DELETE']) {
    const response = await fetch(`${app.url}/todos/${todoId}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await as(bob)) },
      body: method === 'PATCH' ? JSON.stringify({ done: true }) : undefined,
    })
    assert.equal(response.status, 403, method)
    const body = await response.json()
    assert.equal(body.name, 'ForbiddenError')
    assert.equal(body.message, 'Permission denied')
  }
  const still = await fetch(`${app.url}/todos/${todoId}`, { headers: await as(alice) })
  assert.equal((await still.json()).done, false)
})

test('admin-passes: an admin may read anyone\'s to-do', async () => {
  const { todoId } = await create(alice)
  const response = await fetch(`${app.url}/todos/${todoId}`, { headers: await as(admin) })
  assert.equal(response.status, 200)
})

test('missing-todo-404: a to-do that does not exist answers 404 from the function, not 403 from the guard', async () => {
  const response = await fetch(`${app.url}/todos/no-such-todo`, { headers: await as(bob) })
  assert.equal(response.status, 404)
})

test('session-check-before-guard: with no session, a guarded function answers "Authentication required", not "Permission denied"', async () => {
  const { todoId } = await create(alice)
  const response = await fetch(`${app.url}/todos/${todoId}`)
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Authentication required')
})

test('validation-before-guard: invalid input from a caller the guard would refuse answers 422, not 403', async () => {
  const { todoId } = await create(alice)
  const response = await fetch(`${app.url}/todos/${todoId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...(await as(bob)) },
    body: JSON.stringify({ done: 'maybe' }),
  })
  assert.equal(response.status, 422)
})

test('pikku-auth-member-403: the pikkuAuth guard isAdmin refuses a member with 403 "Permission denied"', async () => {
  const response = await fetch(`${app.url}/session/act-as-member`, { method: 'POST', headers: await as(bob) })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Permission denied')
})

// ---- global permissions

test('global-permission-refuses: a global permission that returns false answers 403 "Permission denied"', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: await as({ userId: 'u_guest', role: 'guest' }) })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Permission denied')
})

test('global-permission-sessionless: global permissions also run for sessionless functions such as health', async () => {
  const refused = await fetch(`${app.url}/health`, { headers: await as({ userId: 'u_guest', role: 'guest' }) })
  assert.equal(refused.status, 403)
  const anonymous = await fetch(`${app.url}/health`)
  assert.equal(anonymous.status, 200)
})

test('global-and-function-gates: passing the function\'s own guard does not get past a failing global one', async () => {
  const { todoId } = await create(alice)
  // The owner, but with a role the global knownRole refuses: isTodoOwner would pass, the global gate does not.
  const response = await fetch(`${app.url}/todos/${todoId}`, { headers: await as({ userId: 'u_alice', role: 'owner' }) })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Permission denied')
})

test('guard-no-secrets: a guard that reads the secrets service throws SecretAccessDeniedError, a 500', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: await as({ ...alice, probe: true }) })
  assert.equal(response.status, 500)
  assert.match((await response.json()).message, /'secrets' is not available inside a permission/)
})

test('or-of-ands: an entry passes if any group passes, and an array group only if all of its guards pass', async () => {
  const status = async (headers: Record<string, string>) =>
    (await fetch(`${app.url}/todos`, { headers: { ...headers, ...(await as(alice)) } })).status
  assert.equal(await status({}), 200) // quiet: both guards pass
  assert.equal(await status({ 'x-deny-a': '1' }), 403) // quiet fails on one guard, allowed fails
  assert.equal(await status({ 'x-deny-b': '1' }), 403)
  assert.equal(await status({ 'x-deny-a': '1', 'x-allow': '1' }), 200) // the other alternative passes
})

test('empty-array-group-passes: an array group with no guards passes, so it opens the entry it is in', async () => {
  const globals = pikkuState(null, 'permissions', 'global') as unknown[]
  const refuseProbe = pikkuPermission(async (_services, _data, wire) => !hasHeader(wire, 'x-empty-group'))
  const withEmpty = { refuseProbe, none: [] }
  const alone = { refuseProbe }
  const drop = (entry: unknown) => {
    const index = globals.indexOf(entry)
    if (index >= 0) globals.splice(index, 1)
  }
  const status = async () =>
    (await fetch(`${app.url}/todos`, { headers: { 'x-empty-group': '1', ...(await as(alice)) } })).status
  try {
    addGlobalPermission(withEmpty)
    assert.equal(await status(), 200) // refuseProbe says no, the empty group says yes
    drop(withEmpty)
    addGlobalPermission(alone)
    assert.equal(await status(), 403) // the same guard on its own refuses
  } finally {
    drop(withEmpty)
    drop(alone)
    addGlobalPermission([]) // registers nothing, and clears the resolved-globals cache
  }
})

test('throwing-group-ends-check: a guard that throws ends the OR check with its error, even when a later group would pass', async () => {
  const globals = pikkuState(null, 'permissions', 'global') as unknown[]
  const throwsFirst = pikkuPermission(async (_services, _data, wire) => {
    if (hasHeader(wire, 'x-throw')) throw new NotFoundError('No such record')
    return false
  })
  const allowedLater = pikkuPermission(async (_services, _data, wire) => hasHeader(wire, 'x-allow-later'))
  const entry = { throwsFirst, allowedLater }
  const status = async (headers: Record<string, string>) =>
    (await fetch(`${app.url}/todos`, { headers: { ...headers, ...(await as(alice)) } })).status
  try {
    addGlobalPermission(entry)
    assert.equal(await status({ 'x-allow-later': '1' }), 200) // the first group says no, the second yes
    assert.equal(await status({ 'x-allow-later': '1', 'x-throw': '1' }), 404) // the first group's error answers
  } finally {
    const index = globals.indexOf(entry)
    if (index >= 0) globals.splice(index, 1)
    addGlobalPermission([]) // registers nothing, and clears the resolved-globals cache
  }
})

/** Runs a probe function registered under `name` through core's function runner, with no session unless given one. */
const runProbe = (name: string, wireType: 'rpc' | 'queue' | 'scheduler' | 'mcp' = 'rpc', wire: object = {}, extra: object = {}) =>
  runPikkuFunc(wireType, (wire as { wireId?: string }).wireId ?? `${wireType}:${name}`, name, {
    singletonServices: app.services as never,
    data: () => ({}),
    wire: wire as never,
    ...extra,
  })

/** Registers probe functions for `body` and unregisters them afterwards. */
const withProbes = async (probes: Record<string, { config: object; sessionless?: boolean }>, body: () => Promise<void>) => {
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  try {
    for (const [name, { config, sessionless }] of Object.entries(probes)) registerProbe(name, config as never, { sessionless: sessionless ?? true })
    await body()
  } finally {
    for (const name of Object.keys(probes)) {
      functions.delete(name)
      delete functionMeta[name]
    }
  }
}

test('permission-groups-in-order: groups are tried in the order written and the first that passes ends the check; the guards of an array group start together, in a function\'s record and in a global entry alike', async () => {
  const log: string[] = []
  const guard = (label: string, result: boolean) => async () => {
    log.push(`${label} start`)
    await new Promise((resolve) => setImmediate(resolve))
    log.push(`${label} end`)
    return result
  }
  const globals = pikkuState(null, 'permissions', 'global') as unknown[]
  const entry = { both: [guard('g1', true), guard('g2', true)] }
  const func = async () => 'ran'
  const permissions = { first: [guard('a1', false), guard('a2', true)], second: guard('b', true), third: guard('c', true) }
  try {
    addGlobalPermission(entry)
    await withProbes({ probeGroups: { config: { func, permissions } } }, async () => {
      assert.equal(await runProbe('probeGroups'), 'ran')
    })
    assert.deepEqual(log, [
      'g1 start', 'g2 start', 'g1 end', 'g2 end', // the global entry's array group, started together
      'a1 start', 'a2 start', 'a1 end', 'a2 end', // the function's first group, started together; a1 says no
      'b start', 'b end', // the second group says yes, so the third is never asked
    ])
  } finally {
    const index = globals.indexOf(entry)
    if (index >= 0) globals.splice(index, 1)
    addGlobalPermission([]) // registers nothing, and clears the resolved-globals cache
  }
})

test('no-permissions-no-own-check: a function with no permissions, or an empty record, runs for a caller with no session, unless a global entry refuses', async () => {
  const globals = pikkuState(null, 'permissions', 'global') as unknown[]
  const refuse = { refuse: async () => false }
  const func = async () => 'ran'
  await withProbes({ probeNoPerms: { config: { func } }, probeEmptyPerms: { config: { func, permissions: {} } } }, async () => {
    assert.equal(await runProbe('probeNoPerms'), 'ran')
    assert.equal(await runProbe('probeEmptyPerms'), 'ran')
    try {
      addGlobalPermission(refuse)
      await assert.rejects(runProbe('probeNoPerms'), { name: 'ForbiddenError', message: 'Permission denied' })
      await assert.rejects(runProbe('probeEmptyPerms'), { name: 'ForbiddenError', message: 'Permission denied' })
    } finally {
      const index = globals.indexOf(refuse)
      if (index >= 0) globals.splice(index, 1)
      addGlobalPermission([])
    }
  })
})

test('guard-destructures-secrets: a guard that only destructures { secrets } from its services fails the call with SecretAccessDeniedError', async () => {
  const func = async () => 'ran'
  const destructures = async ({ secrets }: { secrets?: unknown }) => secrets === undefined || true
  await withProbes({ probeSecretsGuard: { config: { func, permissions: { destructures } } } }, async () => {
    await assert.rejects(runProbe('probeSecretsGuard'), { name: 'SecretAccessDeniedError' })
  })
})

test('no-session-goes-to-guards: a sessionless function run with no session where nothing asks for one (rpc, queue, mcp) reaches its guards; a pikkuAuth guard refuses without being called, with "Permission denied"', async () => {
  let called = 0
  const signedIn = pikkuAuth(async (_services, session) => {
    called++
    return Boolean(session)
  })
  const func = async () => 'ran'
  await withProbes({ probeAuthGuard: { config: { func, permissions: { signedIn } } } }, async () => {
    for (const wireType of ['rpc', 'queue', 'mcp'] as const) {
      await assert.rejects(runProbe('probeAuthGuard', wireType), { name: 'ForbiddenError', message: 'Permission denied' })
    }
    assert.equal(called, 0)
    assert.equal(await runProbe('probeAuthGuard', 'rpc', { session: { userId: 'u_alice', role: 'member' } }), 'ran')
    assert.equal(called, 1)
  })
})

/**
 * Runs `body` with a `callByName` that calls listTodosForOwner by name, as rpc.invoke reaches it (not through the CLI),
 * then puts back the function's config and the app's todos program, which a `wireCLI` in `body` replaces.
 */
const withTodosProgramRewired = async (body: (callByName: () => Promise<unknown>) => Promise<void>) => {
  const functions = pikkuState(null, 'function', 'functions')
  const programs = pikkuState(null, 'cli', 'programs') as Record<string, unknown>
  const originalConfig = functions.get('listTodosForOwner')
  const originalProgram = programs.todos
  const callByName = () =>
    runPikkuFunc('rpc', 'listTodosForOwner', 'listTodosForOwner', {
      singletonServices: app.services as never,
      data: () => ({ owner: 'u_alice' }),
      wire: {} as never,
    })
  try {
    await body(callByName)
  } finally {
    if (originalConfig) functions.set('listTodosForOwner', originalConfig)
    programs.todos = originalProgram
  }
}

test('cli-command-permissions-everywhere: a wireCLI command\'s permissions replace its function\'s own for every caller in the process', async () => {
  await withTodosProgramRewired(async (callByName) => {
    assert.ok(Array.isArray(await callByName()))
    // The app's todos program again, with one command that only a refusing permission may run.
    wireCLI({
      program: 'todos',
      commands: { list: { func: listTodosForOwner, permissions: { terminalOnly: async () => false } } },
    } as never)
    await assert.rejects(callByName(), { name: 'ForbiddenError', message: 'Permission denied' })
  })
})

test('cli-command-auth-everywhere: a wireCLI command\'s auth: true replaces its sessionless function\'s own, so a call by name with no session is refused with "Authentication required"', async () => {
  await withTodosProgramRewired(async (callByName) => {
    assert.ok(Array.isArray(await callByName()))
    wireCLI({ program: 'todos', commands: { list: { func: listTodosForOwner, auth: true } } } as never)
    await assert.rejects(callByName(), { name: 'ForbiddenError', message: 'Authentication required' })
  })
})

// ---- middleware order

test('middleware-order: priority "highest" runs outermost, then global middleware, then the "*" group; wire.session stays as the call arrived', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { 'x-trace': 'order', ...(await as(alice)) } })
  assert.equal(response.status, 200)
  const trace = seen.get('order') ?? []
  assert.deepEqual(
    trace.filter((line) => !line.startsWith('twice')),
    [
      'outermost in, session none',
      'global, secrets function',
      'star, session u_alice, wire.session none',
      'outermost out, session u_alice',
    ],
  )
})

test('middleware-dedupe: the same middleware registered globally and for "*" runs once', async () => {
  await fetch(`${app.url}/todos`, { headers: { 'x-trace': 'dedupe', ...(await as(alice)) } })
  assert.equal((seen.get('dedupe') ?? []).filter((line) => line === 'twice').length, 1)
})

test('middleware-unresolved-pattern: a pattern registered at run time that the CLI did not resolve never runs', async () => {
  await fetch(`${app.url}/todos`, { headers: { 'x-trace': 'pattern', ...(await as(alice)) } })
  assert.ok(!(seen.get('pattern') ?? []).includes('unresolved /todos pattern'))
})

test('middleware-tags-recorded-literal-only: the inspector records a tag on a function or a wiring only when an addTagMiddleware call registers that very tag, with the tag a string literal and the middleware an array literal; an addHTTPMiddleware pattern is recorded on a route only when both are literals', async () => {
  const { state } = await inspectFiles('guards-literal-groups', {
    'probe.ts': [
      "import { pikkuMiddleware, pikkuSessionlessFunc, addTagMiddleware, addHTTPMiddleware, wireHTTP } from '@pikku/core'",
      'export const mw = pikkuMiddleware(async (_s, _w, next) => { await next() })',
      'const group = [mw]',
      "const tagName = 'viaVar'",
      "export const a = () => addTagMiddleware('todos', [mw])",
      "export const b = () => addTagMiddleware('listed', group)",
      'export const c = () => addTagMiddleware(tagName, [mw])',
      "export const d = () => addHTTPMiddleware('/lit/*', [mw])",
      "export const e = () => addHTTPMiddleware('/var/*', group)",
      "export const child = pikkuSessionlessFunc<void, string>({ tags: ['todos:write'], func: async () => 'x' })",
      "export const both = pikkuSessionlessFunc<void, string>({ tags: ['todos', 'todos:write'], func: async () => 'x' })",
      "export const listed = pikkuSessionlessFunc<void, string>({ tags: ['listed'], func: async () => 'x' })",
      "export const viaVar = pikkuSessionlessFunc<void, string>({ tags: ['viaVar'], func: async () => 'x' })",
      "wireHTTP({ method: 'get', route: '/lit/x', auth: false, func: child })",
      "wireHTTP({ method: 'get', route: '/var/x', auth: false, tags: ['listed', 'viaVar', 'todos:write'], func: listed })",
    ].join('\n'),
  })
  const meta = (state as any).functions.meta
  assert.deepEqual(
    Object.fromEntries(['child', 'both', 'listed', 'viaVar'].map((name) => [name, meta[name].middleware ?? 'none'])),
    { child: 'none', both: [{ type: 'tag', tag: 'todos' }], listed: 'none', viaVar: 'none' },
  )
  const routes = (state as any).http.meta.get
  assert.deepEqual(routes['/lit/x'].middleware, [{ type: 'http', route: '/lit/*' }])
  assert.equal(routes['/var/x'].middleware, undefined)
})

test('middleware-child-tag-runs-parent: a function whose recorded tag is a child tag runs the child tag\'s middleware and then its parent tag\'s; a tag in its config that the metadata does not record runs none', async () => {
  const tagGroups = pikkuState(null, 'middleware', 'tagGroup') as Record<string, unknown>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, any>
  const runs: string[] = []
  const step = (label: string) => pikkuMiddleware(async (_services, _wire, next) => {
    runs.push(label)
    await next()
  })
  try {
    addTagMiddleware('probe-parent', [step('parent')])
    addTagMiddleware('probe-parent:child', [step('child')])
    await withProbes({ probeChildTag: { config: { func: async () => void runs.push('function') } } }, async () => {
      functionMeta.probeChildTag.middleware = [{ type: 'tag', tag: 'probe-parent:child' }]
      await runProbe('probeChildTag')
    })
    assert.deepEqual(runs, ['child', 'parent', 'function'])
    // A tag in the config but not in the recorded metadata selects nothing.
    runs.length = 0
    await withProbes({ probeUnrecordedTag: { config: { tags: ['probe-parent:child'], func: async () => void runs.push('function') } } }, async () => {
      await runProbe('probeUnrecordedTag')
    })
    assert.deepEqual(runs, ['function'])
  } finally {
    delete tagGroups['probe-parent']
    delete tagGroups['probe-parent:child']
  }
})

test('middleware-no-next: a middleware that returns without next() skips the function, and the route answers 204', async () => {
  const before = (await (await fetch(`${app.url}/todos`, { headers: await as({ userId: 'u_stop', role: 'member' }) })).json())
    .todos.length
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stop': '1', ...(await as({ userId: 'u_stop', role: 'member' })) },
    body: JSON.stringify({ title: 'Never created' }),
  })
  assert.equal(response.status, 204)
  const afterList = await (await fetch(`${app.url}/todos`, { headers: await as({ userId: 'u_stop', role: 'member' }) })).json()
  assert.equal(afterList.todos.length, before)
})

test('middleware-error-stops: an error thrown in middleware ends the call with its status (401 from authBearer)', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { 'x-trace': 'error', authorization: 'Basic abc' } })
  assert.equal(response.status, 401)
  assert.equal((await response.json()).name, 'InvalidSessionError')
  // authBearer is global and ran before the '*' group, so nothing after it saw the request, and the error
  // passed up through the outermost middleware's next() without its code after next() running.
  assert.deepEqual(seen.get('error'), ['outermost in, session none'])
})

test('middleware-collection-order: within one priority the chain runs global middleware, the wiring\'s inherited groups, the wiring\'s own, the function\'s tag groups, then the function\'s own', async () => {
  const globals = pikkuState(null, 'middleware', 'global') as unknown[]
  const tagGroups = pikkuState(null, 'middleware', 'tagGroup') as Record<string, unknown>
  const order: string[] = []
  const step = (label: string) => pikkuMiddleware(async (_services, _wire, next) => {
    order.push(label)
    await next()
  })
  const globalStep = step('global')
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, any>
  try {
    addGlobalMiddleware([globalStep])
    addTagMiddleware('probe-wire-tag', [step('wiring tag group')])
    addTagMiddleware('probe-func-tag', [step('function tag group')])
    await withProbes({ probeChain: { config: { func: async () => void order.push('function'), middleware: [step('function own')] } } }, async () => {
      functionMeta.probeChain.middleware = [{ type: 'tag', tag: 'probe-func-tag' }]
      await runProbe('probeChain', 'rpc', {}, {
        inheritedMiddleware: [{ type: 'tag', tag: 'probe-wire-tag' }],
        wireMiddleware: [step('wiring own')],
      })
    })
    assert.deepEqual(order, ['global', 'wiring tag group', 'wiring own', 'function tag group', 'function own', 'function'])
  } finally {
    const index = globals.indexOf(globalStep)
    if (index >= 0) globals.splice(index, 1)
    delete tagGroups['probe-wire-tag']
    delete tagGroups['probe-func-tag']
  }
})

test('global-middleware-every-wire-type: global middleware is in the chain the function runner builds for a queue job, a scheduled task and an RPC call alike', async () => {
  const globals = pikkuState(null, 'middleware', 'global') as unknown[]
  const seenTypes: string[] = []
  const recorder = pikkuMiddleware(async (_services, wire, next) => {
    seenTypes.push(String((wire as { wireType?: string }).wireType))
    await next()
  })
  try {
    addGlobalMiddleware([recorder])
    await withProbes({ probeEveryType: { config: { func: async () => 'ran' } } }, async () => {
      for (const wireType of ['queue', 'scheduler', 'rpc'] as const) assert.equal(await runProbe('probeEveryType', wireType), 'ran')
    })
    assert.deepEqual(seenTypes, ['queue', 'scheduler', 'rpc'])
  } finally {
    const index = globals.indexOf(recorder)
    if (index >= 0) globals.splice(index, 1)
  }
})

test('middleware-dedupe-by-identity: the same middleware value listed twice runs once, but two middleware made by two calls of one factory both run', async () => {
  const runs: string[] = []
  const counter = (label: string) => pikkuMiddleware(async (_services, _wire, next) => {
    runs.push(label)
    await next()
  })
  const one = counter('factory call')
  const two = counter('factory call')
  await withProbes({ probeDedupe: { config: { func: async () => 'ran' } } }, async () => {
    await runProbe('probeDedupe', 'rpc', {}, { wireMiddleware: [one, two, one] })
  })
  assert.deepEqual(runs, ['factory call', 'factory call'])
})

test('middleware-factory-takes-options: pikkuMiddlewareFactory returns a function that, called with the options, gives the middleware built with them', async () => {
  const { lines, logger } = recordingLogger()
  const warnings = () => lines.filter((line) => line.level === 'warn').map((line) => line.text.replace(/\d+ ms$/, 'N ms'))
  assert.equal(typeof slowCallWarning, 'function')
  await withProbes({ probeFactory: { config: { func: async () => 'ran' } } }, async () => {
    for (const thresholdMs of [60_000, -1]) {
      const result = await runPikkuFunc('rpc', `rpc:probeFactory:${thresholdMs}`, 'probeFactory', {
        singletonServices: { ...app.services, logger } as never,
        data: () => ({}),
        wire: {} as never,
        wireMiddleware: [slowCallWarning({ thresholdMs }) as never],
      })
      assert.equal(result, 'ran')
    }
  })
  assert.deepEqual(warnings(), ['slow rpc to probeFactory: N ms'])
})

test('middleware-late-tag-and-http: middleware added with addTagMiddleware or addHTTPMiddleware after a wiring\'s first call does not run for that wiring, but does for a wiring first called afterwards', async () => {
  const tagGroups = pikkuState(null, 'middleware', 'tagGroup') as Record<string, unknown>
  const httpGroups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown>
  const runs: string[] = []
  const late = (label: string) => pikkuMiddleware(async (_services, _wire, next) => {
    runs.push(label)
    await next()
  })
  const inherited = { inheritedMiddleware: [{ type: 'tag', tag: 'probe-late-tag' }, { type: 'http', route: '/probe-late/*' }] }
  try {
    await withProbes({ probeLate: { config: { func: async () => 'ran' } } }, async () => {
      await runProbe('probeLate', 'rpc', { wireId: 'probe-late-first' }, inherited)
      addTagMiddleware('probe-late-tag', [late('tag')])
      addHTTPMiddleware('/probe-late/*', [late('http')])
      await runProbe('probeLate', 'rpc', { wireId: 'probe-late-first' }, inherited)
      assert.deepEqual(runs, [])
      await runProbe('probeLate', 'rpc', { wireId: 'probe-late-second' }, inherited)
      assert.deepEqual(runs, ['tag', 'http'])
    })
  } finally {
    delete tagGroups['probe-late-tag']
    delete httpGroups['/probe-late/*']
  }
})

test('http-middleware-no-pattern-never-runs: addHTTPMiddleware given only a list records no group in the inspector, and at run time files the list under no pattern, so a wiring that runs the \'*\' group does not run it', async () => {
  const { state } = await inspectFiles('guards-http-no-pattern', {
    'probe.ts': [
      "import { pikkuMiddleware, pikkuSessionlessFunc, addHTTPMiddleware, wireHTTP } from '@pikku/core'",
      'export const mw = pikkuMiddleware(async (_s, _w, next) => { await next() })',
      'export const noPattern = () => addHTTPMiddleware([mw] as any)',
      "export const withPattern = () => addHTTPMiddleware('/lit/*', [mw])",
      "export const open = pikkuSessionlessFunc<void, string>({ func: async () => 'x' })",
      "wireHTTP({ method: 'get', route: '/open', auth: false, func: open })",
    ].join('\n'),
  })
  assert.equal((state as any).http.meta.get['/open'].middleware, undefined)
  assert.deepEqual([...(state as any).http.routeMiddleware.keys()], ['/lit/*'])
  const httpGroups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown[]>
  const patternsBefore = new Set(Object.keys(httpGroups))
  const runs: string[] = []
  const listOnly = pikkuMiddleware(async (_services, _wire, next) => {
    runs.push('list only')
    await next()
  })
  const control = pikkuMiddleware(async (_services, _wire, next) => {
    runs.push('control')
    await next()
  })
  try {
    addHTTPMiddleware([listOnly])
    addHTTPMiddleware('/probe-no-pattern/*', [control])
    // Core takes the list as the pattern argument and the missing second argument as the group: no group holds it.
    assert.ok(!Object.values(httpGroups).some((group) => Array.isArray(group) && group.includes(listOnly)))
    await withProbes({ probeNoPattern: { config: { func: async () => 'ran' } } }, async () => {
      const inherited = { inheritedMiddleware: [{ type: 'http', route: '*' }, { type: 'http', route: '/probe-no-pattern/*' }] }
      assert.equal(await runProbe('probeNoPattern', 'rpc', { wireId: 'probe-no-pattern' }, inherited), 'ran')
    })
    assert.deepEqual(runs, ['control'])
  } finally {
    for (const key of Object.keys(httpGroups)) if (!patternsBefore.has(key)) delete httpGroups[key]
  }
})

test('middleware-late-registration: global middleware added after a wiring\'s first call does not run for that wiring', async () => {
  const globals = pikkuState(null, 'middleware', 'global') as unknown[]
  const late = pikkuMiddleware(async (_services, wire, next) => {
    record(wire, 'late')
    await next()
  })
  try {
    // The first call builds and caches the chain of GET /todos, if an earlier test has not already.
    assert.equal((await fetch(`${app.url}/todos`, { headers: await as(alice) })).status, 200)
    addGlobalMiddleware([late])
    assert.equal((await fetch(`${app.url}/todos`, { headers: { 'x-trace': 'late', ...(await as(alice)) } })).status, 200)
    assert.ok((seen.get('late') ?? []).length > 0) // the chain ran, as recorded by the earlier middleware
    assert.ok(!(seen.get('late') ?? []).includes('late'))
  } finally {
    const index = globals.indexOf(late)
    if (index >= 0) globals.splice(index, 1)
  }
})

// Wires a `todos probe` command to the health function with a guard that always refuses, as a wireCLI call with the
// metadata `pikku` would write for it, runs check, then puts back the registration, the CLI state and GET /health.
const withRefusingHealthCommand = async (check: (health: any) => Promise<void>) => {
  const { wireCLI } = await import('@pikku/core/cli')
  const { pikkuState } = await import('@pikku/core/state')
  const functions = pikkuState(null, 'function', 'functions') as Map<string, any>
  const cliMeta = pikkuState(null, 'cli', 'meta') as any
  const programs = pikkuState(null, 'cli', 'programs') as any
  const getRoutes = pikkuState(null, 'http', 'routes').get('get') as Map<string, unknown>
  const health = functions.get('health')
  const healthRoute = getRoutes.get('/health')
  const todosMeta = cliMeta.programs.todos
  const todosProgram = programs.todos
  try {
    assert.equal((await fetch(`${app.url}/health`)).status, 200)
    cliMeta.programs.todos = { ...todosMeta, commands: { ...todosMeta.commands, probe: { pikkuFuncId: 'health' } } }
    const never = pikkuPermission(async () => false)
    wireCLI({ program: 'todos', commands: { probe: { func: health, permissions: { never } } } } as any)
    await check(health)
  } finally {
    functions.set('health', health)
    getRoutes.set('/health', healthRoute)
    cliMeta.programs.todos = todosMeta
    programs.todos = todosProgram
  }
  assert.equal((await fetch(`${app.url}/health`)).status, 200)
}

test('cli-command-permissions-shared: a wireCLI command\'s permissions replace its function\'s registration, so the same function\'s HTTP route refuses with them too', async () => {
  await withRefusingHealthCommand(async () => {
    // Only the command asked for the guard, but the route GET /health now answers with it.
    const refused = await fetch(`${app.url}/health`)
    assert.equal(refused.status, 403)
    assert.equal((await refused.json()).message, 'Permission denied')
  })
})

test('cli-command-permissions-undone-by-later-wiring: a wireHTTP call for the same function after the wireCLI call puts the function\'s own permissions back', async () => {
  const { wireHTTP } = await import('@pikku/core/http')
  const functions = pikkuState(null, 'function', 'functions') as Map<string, any>
  await withRefusingHealthCommand(async (health) => {
    assert.equal((await fetch(`${app.url}/health`)).status, 403)
    assert.ok(functions.get('health').permissions?.never)
    // The app's own wiring of GET /health, run once more after the command's; it replaces the registered route.
    wireHTTP({ method: 'get', route: '/health', func: health, auth: false } as any)
    assert.equal((await fetch(`${app.url}/health`)).status, 200)
    // The registration is the function's own again, so the command has lost its guard too.
    assert.equal(functions.get('health'), health)
    assert.equal(functions.get('health').permissions, undefined)
  })
})

/**
 * Runs `use` with pikku dev's reloader watching a folder of its own inside the app (so '#pikku/...' imports resolve)
 * under the git-ignored .behaviour/, `files` written there before it starts, and the reloader's log lines. Afterwards,
 * whatever happens, it closes the reloader, then unregisters `functionNames`, runs `afterClose` and removes the folder.
 */
const withDevReloader = async (
  name: string,
  options: { files?: Record<string, string>; functionNames?: string[]; afterClose?: () => void },
  use: (dir: string, lines: Array<{ level: string; text: string }>) => Promise<void>,
) => {
  const { pikkuDevReloader } = await import('@pikku/core/dev')
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const dir = join(fileURLToPath(new URL('../../', import.meta.url)), '.behaviour', `${name}-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  for (const [file, source] of Object.entries(options.files ?? {})) writeFileSync(join(dir, file), source)
  const { logger, lines } = recordingLogger()
  const reloader = await pikkuDevReloader({ srcDirectories: [dir], logger: logger as never })
  try {
    await use(dir, lines)
  } finally {
    reloader.close()
    for (const functionName of options.functionNames ?? []) functions.delete(functionName)
    options.afterClose?.()
    rmSync(dir, { recursive: true, force: true })
  }
}

test('dev-reload-readds-middleware: pikku dev\'s reloader re-runs a saved file, so a module-level addGlobalMiddleware registers its middleware once more per run, while a factory the bootstrap calls is not called again', async () => {
  const globals = pikkuState(null, 'middleware', 'global') as unknown as Array<{ name?: string }>
  const httpGroups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown>
  // Shaped like the app's src/auth.ts: one call at module level, one group behind an exported factory.
  const source = (save: number) => [
    `import { addGlobalMiddleware, addHTTPMiddleware } from '#pikku/middleware'`,
    `// save ${save}`,
    `const devReloadProbe = async (_services: unknown, _wire: unknown, next: () => Promise<void>) => next()`,
    `addGlobalMiddleware([devReloadProbe as never])`,
    `export const devReloadGroup = () => addHTTPMiddleware('/dev-reload-probe', [devReloadProbe as never])`,
    '',
  ].join('\n')
  const probes = () => globals.filter((m) => m.name === 'devReloadProbe').length
  const afterClose = () => {
    for (let i = globals.length - 1; i >= 0; i--) if (globals[i]?.name === 'devReloadProbe') globals.splice(i, 1)
    delete httpGroups['/dev-reload-probe']
  }
  await withDevReloader('dev-reload', { afterClose }, async (dir) => {
    const file = join(dir, 'dev-reload-probe.ts')
    writeFileSync(file, source(1))
    await waitFor(async () => probes(), (n) => n >= 1)
    writeFileSync(file, source(2))
    await waitFor(async () => probes(), (n) => n >= 2)
    // The first registration is still there after the second save: the middleware now runs twice or more.
    assert.ok(probes() >= 2)
    assert.equal(httpGroups['/dev-reload-probe'], undefined)
  })
})

test('dev-reload-removed-route-500: after a reload whose regenerated HTTP metadata no longer has a route, the route is still matched and answers 500 with a TypeError, not 404', async () => {
  const { reloadGeneratedMeta } = await import('@pikku/core/dev')
  const { httpRouter } = await import('@pikku/core/http')
  const dir = join(fileURLToPath(new URL('../../', import.meta.url)), '.behaviour', `dev-reload-route-${process.pid}`)
  mkdirSync(join(dir, 'http'), { recursive: true })
  const httpMeta = pikkuState(null, 'http', 'meta') as unknown as Record<string, Record<string, unknown>>
  // What codegen writes once the /health wiring is deleted: the same metadata without that route.
  const { '/health': _removed, ...otherGets } = httpMeta.get ?? {}
  writeFileSync(join(dir, 'http', 'pikku-http-wirings-meta.gen.json'), JSON.stringify({ ...httpMeta, get: otherGets }))
  const { logger } = recordingLogger()
  try {
    await reloadGeneratedMeta({ pikkuDir: dir, logger: logger as never })
    const res = await fetch(`${app.url}/health`)
    assert.equal(res.status, 500)
    assert.match(await res.text(), /Cannot read properties of undefined \(reading 'headersSchemaName'\)/)
  } finally {
    pikkuState(null, 'http', 'meta', httpMeta as never)
    httpRouter.reset()
    rmSync(dir, { recursive: true, force: true })
  }
  assert.equal((await fetch(`${app.url}/health`)).status, 200)
})
test('dev-reload-meta-no-channels: reloadGeneratedMeta, which pikku dev runs after each regeneration, loads new function metadata but not channel metadata', async () => {
  const { reloadGeneratedMeta } = await import('@pikku/core/dev')
  const dir = join(fileURLToPath(new URL('../../', import.meta.url)), '.behaviour', `dev-reload-meta-${process.pid}`)
  mkdirSync(join(dir, 'function'), { recursive: true })
  mkdirSync(join(dir, 'channel'), { recursive: true })
  // Only these two generated files: the HTTP and RPC metadata, which a reload replaces whole, stay as they are.
  writeFileSync(join(dir, 'function', 'pikku-functions-meta.gen.json'), JSON.stringify({ devReloadProbeFn: { pikkuFuncId: 'devReloadProbeFn' } }))
  writeFileSync(join(dir, 'channel', 'pikku-channels-meta.gen.json'), JSON.stringify({ devReloadProbeChannel: { name: 'devReloadProbeChannel', route: '/dev-reload-probe' } }))
  const functionMeta = pikkuState(null, 'function', 'meta')
  const { logger } = recordingLogger()
  try {
    await reloadGeneratedMeta({ pikkuDir: dir, logger: logger as never })
    assert.ok(pikkuState(null, 'function', 'meta')['devReloadProbeFn'])
    assert.equal((pikkuState(null, 'channel', 'meta') as Record<string, unknown>)['devReloadProbeChannel'], undefined)
  } finally {
    pikkuState(null, 'function', 'meta', functionMeta)
    rmSync(dir, { recursive: true, force: true })
  }
})

test('dev-reload-imports-stay-old: pikku dev\'s reloader runs only the saved file again; a module it imports keeps the code loaded first, even after the importing file is saved again', async () => {
  const functions = pikkuState(null, 'function', 'functions') as Map<string, { func: () => Promise<string> }>
  // The helper also exports a function, so that the reloader registering it shows the helper's own change was run.
  const helper = (value: string) =>
    `export const devReloadGreeting: string = '${value}'\nexport const devReloadHelperProbe = { func: async () => '${value}' }\n`
  const user = (suffix: string) =>
    `import { devReloadGreeting } from './dev-reload-helper.js'\nexport const devReloadGreet = { func: async () => devReloadGreeting + '${suffix}' }\n`
  const greet = async () => (functions.has('devReloadGreet') ? functions.get('devReloadGreet')!.func() : undefined)
  const options = { files: { 'dev-reload-helper.ts': helper('v1') }, functionNames: ['devReloadGreet', 'devReloadHelperProbe'] }
  await withDevReloader('dev-reload-imports', options, async (dir) => {
    writeFileSync(join(dir, 'dev-reload-user.ts'), user(''))
    assert.equal(await waitFor(greet, (v) => v === 'v1'), 'v1')
    writeFileSync(join(dir, 'dev-reload-helper.ts'), helper('v2'))
    const probe = async () => (functions.has('devReloadHelperProbe') ? functions.get('devReloadHelperProbe')!.func() : undefined)
    assert.equal(await waitFor(probe, (v) => v === 'v2'), 'v2')
    // The file that uses the helper is saved again: its own change arrives, the helper's does not.
    writeFileSync(join(dir, 'dev-reload-user.ts'), user('!'))
    assert.equal(await waitFor(greet, (v) => v?.endsWith('!') === true), 'v1!')
  })
})

test('dev-reload-import-error-no-reason: a saved file that cannot run (a syntax error, a top-level await) is logged as "Failed to import: <file> (keeping old code)" with no reason, and the old function stays', async () => {
  const functions = pikkuState(null, 'function', 'functions') as Map<string, { func: () => Promise<number> }>
  await withDevReloader('dev-reload-error', { functionNames: ['devReloadBroken'] }, async (dir, lines) => {
    const file = join(dir, 'dev-reload-broken.ts')
    const failures = async () => lines.filter((l) => l.level === 'error' && l.text.includes('Failed to import'))
    writeFileSync(file, 'export const devReloadBroken = { func: async () => 1 }\n')
    await waitFor(async () => functions.has('devReloadBroken'), (v) => v)
    writeFileSync(file, 'export const devReloadBroken = { func: async () => 2 \n')
    await waitFor(failures, (l) => l.length >= 1)
    writeFileSync(file, 'const two = await Promise.resolve(2)\nexport const devReloadBroken = { func: async () => two }\n')
    const logged = await waitFor(failures, (l) => l.length >= 2)
    for (const line of logged) {
      assert.match(line.text, /^Failed to import: .*dev-reload-broken\.ts \(keeping old code\)$/)
    }
    assert.equal(await functions.get('devReloadBroken')!.func(), 1)
  })
})

test('dev-reload-import-error-other-causes: deleting or renaming a watched file, or saving one whose top-level code throws, logs the same "Failed to import: <file> (keeping old code)" line, and the deleted file\'s function stays registered', async () => {
  const functions = pikkuState(null, 'function', 'functions') as Map<string, { func: () => Promise<number> }>
  const functionNames = ['devReloadDeleted', 'devReloadThrowing', 'devReloadRenamed']
  await withDevReloader('dev-reload-causes', { functionNames }, async (dir, lines) => {
    const deleted = join(dir, 'dev-reload-deleted.ts')
    const throwing = join(dir, 'dev-reload-throwing.ts')
    const failures = async () => lines.filter((l) => l.level === 'error' && l.text.includes('Failed to import'))
    writeFileSync(deleted, 'export const devReloadDeleted = { func: async () => 1 }\n')
    await waitFor(async () => functions.has('devReloadDeleted'), (v) => v)
    rmSync(deleted)
    const [gone] = await waitFor(failures, (l) => l.length >= 1)
    assert.match(gone!.text, /^Failed to import: .*dev-reload-deleted\.ts \(keeping old code\)$/)
    assert.equal(await functions.get('devReloadDeleted')!.func(), 1)
    const renamed = join(dir, 'dev-reload-renamed.ts')
    writeFileSync(renamed, 'export const devReloadRenamed = { func: async () => 3 }\n')
    await waitFor(async () => functions.has('devReloadRenamed'), (v) => v)
    renameSync(renamed, join(dir, 'dev-reload-renamed-now.ts'))
    const moved = await waitFor(async () => (await failures()).filter((l) => /dev-reload-renamed\.ts /.test(l.text)), (l) => l.length >= 1)
    assert.match(moved[0]!.text, /^Failed to import: .*dev-reload-renamed\.ts \(keeping old code\)$/)
    writeFileSync(throwing, "throw new Error('devReloadThrow')\nexport const devReloadThrowing = { func: async () => 2 }\n")
    const logged = await waitFor(async () => (await failures()).filter((l) => l.text.includes('dev-reload-throwing')), (l) => l.length >= 1)
    assert.match(logged[0]!.text, /^Failed to import: .*dev-reload-throwing\.ts \(keeping old code\)$/)
    assert.equal(functions.has('devReloadThrowing'), false)
  })
})

test('console-scope-root-covers-areas: a call into the console addon requires pikku:console and the function\'s own scope; a session with pikku:console satisfies every narrower one, and a session with only a narrower one is refused', () => {
  // function-runner.ts in core 0.12.90 checks the addon's scopes followed by the function's own, here
  // wireAddon({ scopes: ['pikku:console'] }) from the generated console.gen.ts and a console function's scope.
  const required = (own: string) => ['pikku:console', own]
  assert.equal(hasScopes(required('pikku:console:secrets:write'), ['pikku:console']), true)
  assert.equal(hasScopes(required('pikku:console:workflows:manage'), ['pikku:console']), true)
  assert.equal(hasScopes(required('pikku:console:workflows:read'), ['pikku:console:workflows:read']), false)
})

test('missing-scope-grants: verifyScopes passes a session holding the scope, an ancestor of it or a wildcard over it, and otherwise throws MissingScopeError', () => {
  // The check the function runner makes (core 0.12.90, scopes.ts), called directly.
  for (const held of [['todos:write'], ['todos'], ['todos:*'], ['*']])
    assert.doesNotThrow(() => verifyScopes(['todos:write'], { userId: 'u', scopes: held }), held.join())
  for (const held of [['todos:read'], ['todos:write:own'], []])
    assert.throws(() => verifyScopes(['todos:write'], { userId: 'u', scopes: held }), MissingScopeError, held.join())
  assert.throws(() => verifyScopes(['todos:write'], { userId: 'u' }), MissingScopeError)
})

test('scopes-from-session-only: the runner compares a function\'s scopes with session.scopes and never asks the scopeService; a refusal is MissingScopeError, 403, with the payload { error: "missing_scope", scope }, and hasScopes gives verifyScopes\' answer', async () => {
  let asked = 0
  const scopeService = new Proxy({}, { get: () => { asked++; return async () => ['todos:export'] } })
  const call = (session: object) =>
    runPikkuFunc('rpc', 'rpc:probeScoped', 'probeScoped', {
      singletonServices: { ...app.services, scopeService } as never,
      data: () => ({}),
      wire: { session } as never,
    })
  await withProbes({ probeScoped: { config: { scopes: ['todos:export'], func: async () => 'ran' }, sessionless: false } }, async () => {
    const error = await call({ userId: 'u_scoped', role: 'member' }).then(() => 'passed', (e: unknown) => e)
    assert.ok(error instanceof MissingScopeError)
    assert.deepEqual(error.payload, { error: 'missing_scope', scope: 'todos:export' })
    assert.equal((pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>).get(MissingScopeError)?.status, 403)
    assert.equal(await call({ userId: 'u_scoped', role: 'member', scopes: ['todos'] }), 'ran')
  })
  assert.equal(asked, 0)
  for (const held of [['todos:export'], ['todos'], ['todos:*'], ['todos:read'], []]) {
    let verified = true
    try {
      verifyScopes(['todos:export'], { userId: 'u', scopes: held })
    } catch {
      verified = false
    }
    assert.equal(hasScopes(['todos:export'], held), verified, held.join())
  }
})

test('pku574-global-and-inline-gates: an exposed sessionless function gated only by a global permission or by a permission written in place as an arrow function is reported with PKU574; one with a named permission or auth: true is not', async () => {
  const head = "import { pikkuSessionlessFunc, pikkuPermission, addGlobalPermission } from '@pikku/core'\nexport const isOk = pikkuPermission(async () => true)\n"
  const cases: Record<string, string> = {
    inline: "export const f = pikkuSessionlessFunc<{ a: string }, string>({ expose: true, permissions: { open: async () => true }, func: async () => 'x' })",
    global: "addGlobalPermission({ isOk })\nexport const f = pikkuSessionlessFunc<{ a: string }, string>({ expose: true, func: async () => 'x' })",
    named: "export const f = pikkuSessionlessFunc<{ a: string }, string>({ expose: true, permissions: { isOk }, func: async () => 'x' })",
    auth: "export const f = pikkuSessionlessFunc<{ a: string }, string>({ expose: true, auth: true, func: async () => 'x' })",
  }
  const warned: Record<string, string[]> = {}
  for (const [name, body] of Object.entries(cases)) {
    const { reported } = await inspectFiles(`guards-pku574-${name}`, { 'probe.functions.ts': head + body })
    warned[name] = codes(reported).filter((c) => c.startsWith('PKU574'))
  }
  assert.deepEqual(warned, { inline: ['PKU574 warn'], global: ['PKU574 warn'], named: [], auth: [] })
})

test('middleware-guard-pku410: a middleware or a permission that takes its services or its wire as one named parameter is recorded with PKU410 or PKU411, as a function is; destructured or underscore-named parameters are not', async () => {
  const { state } = await inspectFiles('guards-pku410', {
    'probe.ts': [
      "import { pikkuMiddleware, pikkuPermission } from '@pikku/core'",
      'export const wholeMw = pikkuMiddleware(async (services, wire, next) => { services.logger.info(String(wire)); await next() })',
      'export const wholeGuard = pikkuPermission(async (services, _data, wire) => { services.logger.info(String(wire)); return true })',
      'export const okMw = pikkuMiddleware(async ({ logger }, _wire, next) => { logger.info("x"); await next() })',
      'export const okGuard = pikkuPermission(async (_services, _data, { session }) => Boolean(session))',
    ].join('\n'),
  })
  const found = (state.diagnostics as Array<{ code: string; message: string }>).map((d) => `${d.code} ${d.message.split(' ').slice(0, 2).join(' ')}`)
  assert.deepEqual(found.sort(), [
    "PKU410 Middleware 'wholeMw'",
    "PKU410 Permission 'wholeGuard'",
    "PKU411 Middleware 'wholeMw'",
    "PKU411 Permission 'wholeGuard'",
  ])
})

test('global-middleware-literal-only: the inspector records an addGlobalMiddleware call, and the file it is in, only when its list is an array literal; a call given a variable leaves no global entry and no file for the bootstrap to import', async () => {
  const mw = "import { pikkuMiddleware, addGlobalMiddleware } from '@pikku/core'\nexport const mw = pikkuMiddleware(async (_s, _w, next) => { await next() })\n"
  const { state } = await inspectFiles('guards-global-literal', {
    'literal.ts': mw + 'addGlobalMiddleware([mw])\n',
    'variable.ts': mw.replace('export const mw', 'export const other') + 'const list = [other]\naddGlobalMiddleware(list)\n',
  })
  const globals = Object.entries((state as any).middleware.instances as Record<string, { sourceFile: string }>)
    .filter(([id]) => id.startsWith('global:'))
    .map(([, instance]) => instance.sourceFile.split('/').pop())
  assert.deepEqual(globals, ['literal.ts'])
  assert.deepEqual([...(state as any).http.files].map((file: string) => file.split('/').pop()), ['literal.ts'])
})
