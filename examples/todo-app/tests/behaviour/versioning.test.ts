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
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { APP_DIR } from './harness/node-process.js'

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

/**
 * One inspector run, with schemas, over the names a versioned function takes: getThingV1 and getThingV3 declare
 * versions 1 and 3 (the same fields, in another order), getThing declares none and is wired to a route and a
 * channel, remoteThing is marked remote: true. Shared by the tests below; about 20 s, so it runs once.
 */
let inspected: ReturnType<typeof inspectFiles> | undefined
const inspectVersions = () =>
  (inspected ??= inspectFiles(
    'versions',
    {
      'things.ts': [
        "import { pikkuSessionlessFunc } from '@pikku/core'",
        "import { wireHTTP } from '@pikku/core/http'",
        "import { wireChannel } from '@pikku/core/channel'",
        "export const getThingV1 = pikkuSessionlessFunc<{ id: string; n: number }, { a: string }>({ version: 1, func: async () => ({ a: 'x' }) })",
        "export const getThingV3 = pikkuSessionlessFunc<{ n: number; id: string }, { a: string }>({ version: 3, func: async () => ({ a: 'x' }) })",
        "export const getThing = pikkuSessionlessFunc<{ id: string }, { b: string }>({ func: async () => ({ b: 'y' }) })",
        "export const remoteThing = pikkuSessionlessFunc<{ id: string }, { b: string }>({ remote: true, func: async () => ({ b: 'y' }) })",
        "wireHTTP({ method: 'get', route: '/thing/:id', func: getThing })",
        "wireChannel({ name: 'things', route: '/things', onMessageWiring: { action: { getThing } } })",
      ].join('\n'),
    },
    { schemaConfig: { tsconfig: join(APP_DIR, 'tsconfig.json') } },
  ))

test('inspector-version-names: a V<n> suffix matching the version is dropped, the unversioned function becomes the highest version plus one, and the route, the channel handler and the bare RPC name point at it', async () => {
  const { reported, state } = await inspectVersions()
  assert.deepEqual(reported, [])
  assert.deepEqual(Object.keys(state.functions.meta).sort(), ['getThing@v1', 'getThing@v3', 'getThing@v4', 'remoteThing'])
  assert.equal(state.http.meta.get['/thing/:id']!.pikkuFuncId, 'getThing@v4')
  assert.equal(state.channels.meta.things!.messageWirings.action!.getThing!.pikkuFuncId, 'getThing@v4')
  assert.equal(state.rpc.internalMeta.getThing, 'getThing@v4')
})

test('override-version-name: an export whose name has no matching V<n> suffix takes the name given by override, so legacyThing with override getThing and version 1 becomes getThing@v1, next to the unversioned getThing as getThing@v2', async () => {
  const { reported, state } = await inspectFiles('override-version', {
    'things.ts': [
      "import { pikkuSessionlessFunc } from '@pikku/core'",
      "export const legacyThing = pikkuSessionlessFunc<{ id: string }, { a: string }>({ override: 'getThing', version: 1, func: async () => ({ a: 'x' }) })",
      "export const getThing = pikkuSessionlessFunc<{ id: string }, { b: string }>({ func: async () => ({ b: 'y' }) })",
    ].join('\n'),
  })
  assert.deepEqual(reported, [])
  assert.deepEqual(Object.keys(state.functions.meta).sort(), ['getThing@v1', 'getThing@v2'])
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

test('manifest-contents: the manifest leaves remote: true functions out and records 8-hex SHA-256 hashes of name and schema with sorted keys; arrays keep their order, so declaring the same fields in another order changes the input hash', async () => {
  const { state } = await inspectVersions()
  const contracts = state.manifest.current!.contracts
  assert.ok(state.functions.meta.remoteThing)
  assert.deepEqual(Object.keys(contracts), ['getThing'])
  assert.equal(contracts.getThing!.latest, 4)
  const v1 = contracts.getThing!.versions['1'] as { inputHash: string; outputHash: string }
  const v3 = contracts.getThing!.versions['3'] as { inputHash: string; outputHash: string }
  const sortDeep = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sortDeep)
    : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]))
    : v
  const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(sortDeep(value))).digest('hex').slice(0, 8)
  assert.equal(v1.inputHash, hash({ functionKey: 'getThing', inputSchema: state.schemas.GetThingV1Input }))
  assert.equal(v1.outputHash, hash({ functionKey: 'getThing', outputSchema: state.schemas.GetThingV1Output }))
  // The output types are the same, so the output hashes agree; the inputs differ only in the order of their fields.
  assert.equal(v1.outputHash, v3.outputHash)
  assert.notEqual(v1.inputHash, v3.inputHash)
  assert.deepEqual([(state.schemas.GetThingV1Input as any).required, (state.schemas.GetThingV3Input as any).required], [['id', 'n'], ['n', 'id']])
})

test('manifest-check-codes: a changed recorded version is PKU861; a latest with no hashes is PKU862 with PKU863 for the same version; a skipped version is PKU864; a latest that is not the highest key is PKU865', async () => {
  const { state } = await inspectVersions()
  // contract-hashes.js is not among the package's exports; the file is reached by its path for validateContracts.
  const { extractContractsFromMeta, validateContracts } = await import(
    new URL('../../node_modules/@pikku/inspector/dist/utils/contract-hashes.js', import.meta.url).href
  )
  const current = extractContractsFromMeta(state.functions.meta)
  const recorded = state.manifest.current!.contracts.getThing!.versions as Record<string, { inputHash: string; outputHash: string }>
  const check = (latest: number, versions: Record<string, unknown>) =>
    (validateContracts({ manifestVersion: 1, contracts: { getThing: { latest, versions } } }, current).errors as Array<{ code: string; version?: number }>)
      .map(({ code, version }) => (version === undefined ? code : `${code} v${version}`))
  assert.deepEqual(check(4, recorded), [])
  assert.deepEqual(check(4, { ...recorded, 1: { ...recorded['1']!, outputHash: '00000000' } }), ['PKU861 v1'])
  assert.deepEqual(check(4, { 1: recorded['1'], 3: recorded['3'] }), ['PKU863 v4', 'PKU862', 'PKU865'])
  // A recorded version above the latest, with none for the latest itself, also gives PKU865 next to PKU862.
  assert.deepEqual(check(3, { 4: recorded['4'] }), ['PKU863 v1', 'PKU863 v3', 'PKU862', 'PKU865'])
  const noHashes = validateContracts({ manifestVersion: 1, contracts: { getThing: { latest: 4, versions: {} } } }, current).errors
  const pku862 = noHashes.find(({ code }: { code: string }) => code === 'PKU862')
  assert.match(pku862.message, /Set `version: 5` on the function/)
  assert.equal(pku862.previousInputHash, undefined)
  assert.deepEqual(check(1, { 1: recorded['1'] }), ['PKU864 v3', 'PKU864 v4'])
  assert.deepEqual(check(3, { 1: recorded['1'], 3: recorded['3'], 4: recorded['4'] }), ['PKU865'])
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
