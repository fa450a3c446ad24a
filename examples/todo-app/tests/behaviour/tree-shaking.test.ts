// Tree-shaking: what decides the service manifest and what a build filter keeps, run with the inspector and CLI
// that `pikku all` uses (inspector 0.12.63, CLI 0.12.113) on small sources written for each test (harness/inspector.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { APP_DIR } from './harness/node-process.js'
import { inspectFiles } from './harness/inspector.js'
import { recordingLogger } from './harness/core-probes.js'

const cliModule = (...path: string[]) => import(join(APP_DIR, 'node_modules', '@pikku', 'cli', 'dist', 'src', ...path))

/** The filter step of `pikku all`: parseCLIFilters, then the inspector's filterInspectorState on `state`. */
const applyFilter = async (state: unknown, args: Record<string, unknown>) => {
  const { parseCLIFilters } = await cliModule('utils', 'parse-cli-filters.js')
  const { filterInspectorState } = await import('@pikku/inspector')
  return filterInspectorState(state as never, parseCLIFilters(args, {}), recordingLogger().logger as never) as any
}

const routesOf = (state: any) =>
  Object.entries(state.http.meta as Record<string, Record<string, unknown>>).flatMap(([method, routes]) => Object.keys(routes).map((path) => `${method} ${path}`))

test('group-middleware-not-counted: a service only a wireHTTPRoutes group middleware destructures is not required; the same middleware on the route makes it required', async () => {
  const head = [
    "import { pikkuSessionlessFunc, pikkuMiddleware, wireHTTPRoutes } from '@pikku/core'",
    'export const audit = pikkuMiddleware(async ({ auditTrail }: any, _wire, next) => { auditTrail.note(); await next() })',
    "export const ping = pikkuSessionlessFunc<void, string>({ func: async () => 'pong' })",
  ].join('\n')
  const required = async (name: string, wiring: string) =>
    [...(await inspectFiles(name, { 'probe.ts': `${head}\n${wiring}\n` })).state.serviceAggregation.requiredServices].includes('auditTrail')
  assert.equal(await required('group-mw', "wireHTTPRoutes({ middleware: [audit], routes: { ping: { method: 'get', route: '/ping', func: ping } } })"), false)
  assert.equal(await required('route-mw', "wireHTTPRoutes({ routes: { ping: { method: 'get', route: '/ping', func: ping, middleware: [audit] } } })"), true)
})

test('force-required-services: a service forceRequiredServices lists is marked true in the manifest though nothing uses it', async () => {
  const { serializeServicesMap } = await cliModule('functions', 'wirings', 'functions', 'pikku-command-services.js')
  const manifest = (force: string[]) => serializeServicesMap(['config', 'logger', 'variables', 'schema', 'secrets', 'mailer'], [], new Set(), force, './services.js', './services.js') as string
  assert.match(manifest([]), /'mailer': false/)
  assert.match(manifest(['mailer']), /'mailer': true/)
})

test('disabled-graph-skipped: the inspector registers no workflow graph written with disabled: true, and registers the same graph without it', async () => {
  const steps = [
    "import { pikkuSessionlessFunc } from '@pikku/core'",
    'export const assess = pikkuSessionlessFunc({ func: async () => ({ ok: true }) })',
    'export const notify = pikkuSessionlessFunc({ func: async () => ({ sent: true }) })',
  ].join('\n')
  const graph = (extra: string) =>
    [
      "import { pikkuWorkflowGraph } from '@pikku/core/workflow'",
      `export const myGraph = pikkuWorkflowGraph({ name: 'my-graph',${extra} nodes: { assess: 'assess', notify: 'notify' }, config: { assess: { next: 'notify' }, notify: {} } })`,
    ].join('\n')
  const graphs = async (name: string, extra: string) =>
    Object.keys((await inspectFiles(name, { 'my.steps.ts': steps, 'my.graph.ts': graph(extra) })).state.workflows.graphMeta)
  assert.deepEqual(await graphs('ts-graph-on', ''), ['my-graph'])
  assert.deepEqual(await graphs('ts-graph-off', ' disabled: true,'), [])
})

test('disabled-route-skipped: the inspector registers no HTTP route written with disabled: true, though core\'s wireHTTP type does not declare the key, and registers the same route without it', async () => {
  const files = (extra: string) => ({
    'probe.ts': [
      "import { pikkuSessionlessFunc, wireHTTP } from '@pikku/core'",
      "export const ping = pikkuSessionlessFunc<void, string>({ func: async () => 'pong' })",
      `wireHTTP({ method: 'get', route: '/ping', auth: false,${extra} func: ping })`,
    ].join('\n'),
  })
  assert.deepEqual(routesOf((await inspectFiles('ts-route-on', files(''))).state), ['get /ping'])
  assert.deepEqual(routesOf((await inspectFiles('ts-route-off', files(' disabled: true,'))).state), [])
})

test('config-filters-key-ignored: a filters key in pikku.config.json changes nothing; namedFilters picked with --filter do', async () => {
  const { parseCLIFilters } = await cliModule('utils', 'parse-cli-filters.js')
  const clean = (filters: Record<string, unknown>) => Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined))
  assert.deepEqual(clean(parseCLIFilters({}, { filters: { tags: ['reports'] } } as never)), {})
  assert.deepEqual(clean(parseCLIFilters({ filter: ['reports'] }, { namedFilters: { reports: { tags: ['reports'] } } })), { tags: ['reports'] })
})

// A tagged function behind an HTTP route, an untagged one behind a queue worker and a scheduled task, each wiring in its own
// file; and, apart, a webhook gateway.
const sliceFiles = {
  'functions.ts': [
    "import { pikkuSessionlessFunc } from '@pikku/core'",
    "export const report = pikkuSessionlessFunc<void, string>({ tags: ['reports'], func: async () => 'r' })",
    "export const work = pikkuSessionlessFunc<void, void>({ func: async ({ jobStore }: any) => { jobStore.run() } })",
    "export const talk = pikkuSessionlessFunc<unknown, void>({ func: async ({ chatStore }: any) => { chatStore.save() } })",
    "export const hook = pikkuSessionlessFunc<unknown, void>({ func: async () => {} })",
  ].join('\n'),
  'routes.http.ts': "import { wireHTTP } from '@pikku/core'\nimport { report } from './functions.js'\nwireHTTP({ method: 'get', route: '/report', auth: false, func: report })\n",
  'jobs.queue.ts': "import { wireQueueWorker, wireScheduler } from '@pikku/core'\nimport { work } from './functions.js'\nwireQueueWorker({ name: 'jobs', func: work })\nwireScheduler({ name: 'nightly', schedule: '0 1 * * *', func: work })\n",
}
const channelFile = {
  'talk.channel.ts': "import { wireChannel } from '@pikku/core'\nimport { talk } from './functions.js'\nwireChannel({ name: 'talk', route: '/talk', onMessageWiring: { action: { talk } } })\n",
}
const gatewayFile = {
  'hook.gateway.ts': "import { wireGateway } from '@pikku/core'\nimport { hook } from './functions.js'\nconst adapter = { name: 'probe', parse: () => null, send: async () => {} } as any\nwireGateway({ name: 'probe-hook', type: 'webhook', route: '/webhooks/probe', adapter, func: hook })\n",
}

test('filter-directories-http-only: --directories drops only HTTP routes, matched by the file of the route\'s function, and --exclude-directories drops nothing', async () => {
  assert.deepEqual(routesOf((await inspectFiles('ts-dirs-all', sliceFiles)).state), ['get /report'])
  const dirs = await applyFilter((await inspectFiles('ts-dirs', sliceFiles)).state, { directories: ['no-such-dir'] })
  assert.deepEqual(routesOf(dirs), [])
  assert.deepEqual(Object.keys(dirs.queueWorkers.meta), ['jobs'])
  assert.deepEqual(Object.keys(dirs.scheduledTasks.meta), ['nightly'])
  // A route is matched by the file of its function (functions.ts), not by that of its wiring (routes.http.ts).
  assert.deepEqual(routesOf(await applyFilter((await inspectFiles('ts-dirs-func', sliceFiles)).state, { directories: ['functions.ts'] })), ['get /report'])
  assert.deepEqual(routesOf(await applyFilter((await inspectFiles('ts-dirs-wiring', sliceFiles)).state, { directories: ['routes.http.ts'] })), [])
  const excluded = await applyFilter((await inspectFiles('ts-dirs-excluded', sliceFiles)).state, { excludeDirectories: ['ts-dirs-excluded'] })
  assert.deepEqual(routesOf(excluded), ['get /report'])
  assert.deepEqual(Object.keys(excluded.queueWorkers.meta), ['jobs'])
})

test('filter-workers-keeps-gateway: --wires queue,scheduler keeps the queue worker and scheduled task, drops the HTTP route, the channel and the channel function\'s service from the manifest, but keeps the webhook gateway and its file', async () => {
  const { state } = await inspectFiles('ts-gateway', { ...sliceFiles, ...channelFile, ...gatewayFile })
  assert.deepEqual(Object.keys(state.channels.meta), ['talk'])
  assert.ok(state.serviceAggregation.requiredServices.has('chatStore'))
  const workers = await applyFilter(state, { wires: ['queue', 'scheduler'] })
  assert.deepEqual(routesOf(workers), [])
  assert.deepEqual(Object.keys(workers.channels.meta), [])
  // The manifest counts the services of the functions that survive: the workers' jobStore, not the channel's chatStore.
  assert.ok(workers.serviceAggregation.requiredServices.has('jobStore'))
  assert.ok(!workers.serviceAggregation.requiredServices.has('chatStore'))
  assert.deepEqual(Object.keys(workers.queueWorkers.meta), ['jobs'])
  assert.deepEqual(Object.keys(workers.scheduledTasks.meta), ['nightly'])
  assert.deepEqual(Object.keys(workers.gateways.meta), ['probe-hook'])
  assert.ok([...workers.gateways.files].some((file: string) => file.endsWith('hook.gateway.ts')))
})

test('filter-tags-match-wiring: --tags reports keeps a function tagged reports in the metadata but drops its untagged route, queue worker and scheduled task', async () => {
  const reportJobs = "import { wireQueueWorker, wireScheduler } from '@pikku/core'\nimport { report } from './functions.js'\nwireQueueWorker({ name: 'report-jobs', func: report })\nwireScheduler({ name: 'weekly-report', schedule: '0 1 * * 1', func: report })\n"
  const { state } = await inspectFiles('ts-tags', { ...sliceFiles, 'report.queue.ts': reportJobs })
  assert.deepEqual(Object.keys(state.queueWorkers.meta).sort(), ['jobs', 'report-jobs'])
  const tagged = await applyFilter(state, { tags: ['reports'] })
  assert.ok('report' in tagged.functions.meta)
  assert.deepEqual(routesOf(tagged), [])
  assert.deepEqual(Object.keys(tagged.queueWorkers.meta), [])
  assert.deepEqual(Object.keys(tagged.scheduledTasks.meta), [])
})

test('filter-keeps-matching-function: --tags, --names and --directories keep a function no kept wiring reaches when it matches them itself, and drop one that does not', async () => {
  const helpers = [
    "import { pikkuSessionlessFunc } from '@pikku/core'",
    "export const summarise = pikkuSessionlessFunc<void, string>({ tags: ['reports'], func: async () => 's' })",
    "export const untagged = pikkuSessionlessFunc<void, string>({ func: async () => 'u' })",
  ].join('\n')
  const kept = async (name: string, args: Record<string, unknown>) => {
    const { state } = await inspectFiles(name, { ...sliceFiles, 'helpers.ts': helpers })
    const functions = Object.keys((await applyFilter(state, args)).functions.meta)
    return ['summarise', 'untagged'].filter((id) => functions.includes(id))
  }
  assert.deepEqual(await kept('ts-keep-tags', { tags: ['reports'] }), ['summarise'])
  assert.deepEqual(await kept('ts-keep-names', { names: ['summarise'] }), ['summarise'])
  assert.deepEqual(await kept('ts-keep-dirs', { directories: ['helpers.ts'] }), ['summarise', 'untagged'])
})

test('deploy-target-service-wins: a function using a serverlessIncompatible service gets the server target, unless it says deploy: serverless, which throws IncompatibleDeployTargetError; otherwise its own deploy value decides', async () => {
  const { resolveDeployTarget } = await import('@pikku/inspector')
  const incompatible = new Set(['fileStore'])
  const meta = (services: string[], deploy?: 'serverless' | 'server' | 'auto') => ({ services: { optimized: true, services }, deploy }) as never
  assert.equal(resolveDeployTarget(meta(['fileStore']), incompatible, 'exportTodos'), 'server')
  assert.equal(resolveDeployTarget(meta(['fileStore'], 'auto'), incompatible, 'exportTodos'), 'server')
  assert.throws(() => resolveDeployTarget(meta(['fileStore'], 'serverless'), incompatible, 'exportTodos'), { name: 'IncompatibleDeployTargetError' })
  assert.equal(resolveDeployTarget(meta(['todoStore'], 'server'), incompatible, 'listTodos'), 'server')
  assert.equal(resolveDeployTarget(meta(['todoStore'], 'serverless'), incompatible, 'listTodos'), 'serverless')
  assert.equal(resolveDeployTarget(meta(['todoStore'], 'auto'), incompatible, 'listTodos'), 'serverless')
})
