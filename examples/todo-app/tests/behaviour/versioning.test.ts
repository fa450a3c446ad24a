// Contract versioning at run time (docs/core-features/versioning.mdx). The app keeps no versioned function, so
// this file registers getTodo's two contracts the way the CLI's output does when a getTodoV1 with `version: 1`
// sits next to the unversioned getTodo (inspector resolve-versions.ts): functions 'getTodo@v1' and 'getTodo@v2',
// and RPC names 'getTodo' -> 'getTodo@v2', 'getTodo@v1' -> 'getTodo@v1', 'getTodo@v2' -> 'getTodo@v2'.
// Then it calls them through core's real function runner and rpc.invoke.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { addFunction, runPikkuFunc } from '@pikku/core/function'
import { pikkuState } from '@pikku/core/state'
import { formatVersionedId, parseVersionedId } from '@pikku/core/utils'
import { pikkuFunc } from '#pikku/function'
import { NotFoundError } from '#pikku/error'
import { getTodo } from '../../src/functions/todos.functions.js'
import { isTodoOwner } from '../../src/permissions.js'
import { startSignedInApp, type SignedInApp } from './harness/core-app.js'
import { recordingLogger, registerProbe } from './harness/core-probes.js'
import { inspectFiles } from './harness/inspector.js'

/** The page's getTodoV1: the first published contract, with no owner and no due date. */
const getTodoV1 = pikkuFunc<{ todoId: string }, { todoId: string; title: string; done: boolean }>({
  description: 'Fetch one to-do by id, in the version 1 shape',
  version: 1,
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore }, { todoId }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    return { todoId: todo.todoId, title: todo.title, done: todo.done }
  },
})

let app: SignedInApp
let todoId: string
const alice = { userId: 'alice', role: 'member' as const }

before(async () => {
  app = await startSignedInApp()
  const meta = pikkuState(null, 'function', 'meta') as Record<string, any>
  addFunction('getTodo@v1', getTodoV1)
  addFunction('getTodo@v2', getTodo)
  meta['getTodo@v1'] = { ...meta.getTodo, pikkuFuncId: 'getTodo@v1', name: 'getTodoV1', version: 1, outputSchemaName: null }
  meta['getTodo@v2'] = { ...meta.getTodo, pikkuFuncId: 'getTodo@v2', version: 2 }
  const rpc = pikkuState(null, 'rpc', 'meta') as Record<string, string>
  Object.assign(rpc, { getTodo: 'getTodo@v2', 'getTodo@v1': 'getTodo@v1', 'getTodo@v2': 'getTodo@v2' })
  // A probe that calls whatever name it is given through rpc.invoke, as one function calls another.
  registerProbe('invokeByName', { func: async (_s: unknown, { name, data }: any, wire: any) => wire.rpc.invoke(name, data) })
  todoId = (await app.services.todoStore.create({ ownerId: 'alice', title: 'Versioned', done: false })).todoId
})
after(() => app.stop())

const invoke = async (name: string, wire: Record<string, unknown> = { session: alice }, logger = app.services.logger) =>
  runPikkuFunc('rpc', 'invokeByName', 'invokeByName', {
    singletonServices: { ...app.services, logger } as never,
    data: () => ({ name, data: { todoId } }),
    wire: wire as never,
  }) as Promise<Record<string, unknown>>

test('versioned-id-format: version n of a function is named <name>@v<n>', () => {
  assert.equal(formatVersionedId('getTodo', 1), 'getTodo@v1')
  assert.deepEqual(parseVersionedId('getTodo@v2'), { baseName: 'getTodo', version: 2 })
  // Not a version: v0 and non-numbers stay part of the name.
  assert.deepEqual(parseVersionedId('getTodo@v0'), { baseName: 'getTodo@v0', version: null })
})

test('versioned-name-runs-that-version: rpc.invoke("getTodo@v1") runs the version 1 contract', async () => {
  const result = await invoke('getTodo@v1')
  assert.deepEqual(Object.keys(result).sort(), ['done', 'title', 'todoId'])
})

test('bare-name-runs-latest: rpc.invoke("getTodo") runs the latest version', async () => {
  const result = await invoke('getTodo')
  assert.equal(result.ownerId, 'alice')
})

test('old-version-keeps-checks: the old version keeps its own permission guard', async () => {
  await assert.rejects(invoke('getTodo@v1', { session: { userId: 'bob', role: 'member' } }), { name: 'ForbiddenError' })
})

test('old-version-needs-expose: POST /rpc/getTodo@v1 answers 404 RPCNotFoundError while getTodoV1 has no expose, and the version 1 shape once it is exposed', async () => {
  const call = async () =>
    fetch(`${app.url}/rpc/getTodo@v1`, { method: 'POST', headers: await app.as(alice), body: JSON.stringify({ data: { todoId } }) })
  const hidden = await call()
  assert.equal(hidden.status, 404)
  assert.equal((await hidden.json()).name, 'RPCNotFoundError')
  // `expose: true` on getTodoV1 is recorded in its meta, as here.
  const meta = pikkuState(null, 'function', 'meta') as Record<string, any>
  meta['getTodo@v1'] = { ...meta['getTodo@v1'], expose: true }
  try {
    const exposed = await call()
    assert.equal(exposed.status, 200)
    assert.deepEqual(Object.keys(await exposed.json()).sort(), ['done', 'title', 'todoId'])
  } finally {
    meta['getTodo@v1'] = { ...meta['getTodo@v1'], expose: undefined }
  }
})

test('unknown-version-serves-latest: rpc.invoke of a version nobody registered is served by the latest, without an error', async () => {
  const result = await invoke('getTodo@v7')
  assert.equal(result.ownerId, 'alice')
})

test('runner-unknown-version-warns: the function runner given an unregistered version runs the base name and logs a warning', async () => {
  const { logger, lines } = recordingLogger()
  const result = await runPikkuFunc('rpc', 'listTodos', 'listTodos@v3', {
    singletonServices: { ...app.services, logger } as never,
    data: () => ({}),
    wire: { session: alice } as never,
  })
  assert.ok(Array.isArray((result as { todos: unknown[] }).todos))
  assert.ok(lines.some((l) => l.level === 'warn' && l.text === "Version 'listTodos@v3' not registered, resolved to 'listTodos'"))
})

test('runner-versioned-unknown-not-found: with getTodo registered only as getTodo@v1 and getTodo@v2, as the CLI writes it, the runner given getTodo@v7 throws "Function not found"', async () => {
  // The CLI renames the unversioned getTodo to getTodo@v2 and registers no function under the bare name; the app's
  // bootstrap still registers one here, so this test takes it away for the call.
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const meta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  const bare = { config: functions.get('getTodo'), meta: meta.getTodo }
  functions.delete('getTodo')
  delete meta.getTodo
  try {
    await assert.rejects(
      runPikkuFunc('rpc', 'getTodo', 'getTodo@v7', {
        singletonServices: app.services as never,
        data: () => ({ todoId }),
        wire: { session: alice } as never,
      }),
      { message: 'Function not found: getTodo@v7' },
    )
  } finally {
    functions.set('getTodo', bare.config)
    meta.getTodo = bare.meta
  }
})

test('public-unknown-version-serves-latest: once the latest getTodo is exposed, POST /rpc/getTodo@v7 answers 200 with the latest shape, not 404', async () => {
  const call = async (name: string) =>
    fetch(`${app.url}/rpc/${name}`, { method: 'POST', headers: await app.as(alice), body: JSON.stringify({ data: { todoId } }) })
  const meta = pikkuState(null, 'function', 'meta') as Record<string, any>
  const before = meta['getTodo@v2']
  // `expose: true` on the unversioned getTodo is recorded in the meta of getTodo@v2, as here.
  meta['getTodo@v2'] = { ...before, expose: true }
  try {
    const res = await call('getTodo@v7')
    assert.equal(res.status, 200)
    assert.equal((await res.json()).ownerId, 'alice')
  } finally {
    meta['getTodo@v2'] = before
  }
})

test('unknown-version-not-remote: with a deploymentService configured, rpc.invoke("getTodo@v7") still runs the local latest and never reaches the service', async () => {
  const calls: string[] = []
  const deploymentService = {
    invoke: async (name: string) => {
      calls.push(name)
      return { remote: true }
    },
  }
  const result = (await runPikkuFunc('rpc', 'invokeByName', 'invokeByName', {
    singletonServices: { ...app.services, deploymentService } as never,
    data: () => ({ name: 'getTodo@v7', data: { todoId } }),
    wire: { session: alice } as never,
  })) as Record<string, unknown>
  assert.equal(result.ownerId, 'alice')
  assert.deepEqual(calls, [])
  // A name with no local base at all does go to the service.
  await runPikkuFunc('rpc', 'invokeByName', 'invokeByName', {
    singletonServices: { ...app.services, deploymentService } as never,
    data: () => ({ name: 'archiveTodo@v2', data: {} }),
    wire: { session: alice } as never,
  })
  assert.deepEqual(calls, ['archiveTodo@v2'])
})

test('duplicate-version-no-pku850: two declarations of version 1 of one name get the same id, so the inspector reports PKU851 when they sit in two files and nothing when they share one; PKU850 never fires', async () => {
  const header = "import { pikkuSessionlessFunc } from '@pikku/core'"
  // getThingV1 with version 1 drops its V1 suffix, so both are named getThing@v1.
  const first = "export const getThingV1 = pikkuSessionlessFunc<void, { a: string }>({ version: 1, func: async () => ({ a: 'x' }) })"
  const second = "export const getThing = pikkuSessionlessFunc<void, { b: string }>({ version: 1, func: async () => ({ b: 'y' }) })"
  const codesFor = async (files: Record<string, string[]>) => {
    const sources = Object.fromEntries(Object.entries(files).map(([name, lines]) => [name, [header, ...lines].join('\n')]))
    const { reported, state } = await inspectFiles('duplicate-version', sources)
    return { reported: reported.map(({ code }) => code), ids: Object.keys(state.functions.meta) }
  }
  assert.deepEqual(await codesFor({ 'one.ts': [first], 'two.ts': [second] }), { reported: ['PKU851'], ids: ['getThing@v1'] })
  assert.deepEqual(await codesFor({ 'both.ts': [first, second] }), { reported: [], ids: ['getThing@v1'] })
})
