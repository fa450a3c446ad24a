// Five leads of the docs audit settled by running them: a function's `secrets` when the singletons hold none
// (core-features/functions.mdx, services.mdx), a schema in an unexported variable (functions.mdx), a pikkuWorkflowFunc
// listed by identifier in an agent's `workflows` (ai-agents/tools.mdx), HEAD on a GET-only route (http/router.mdx and
// the Express and Fastify pages), and global middleware on a websocket gateway (gateways/index.mdx).
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { runPikkuFunc } from '@pikku/core/function'
import { SecretAccessDeniedError } from '@pikku/core/services'
import { addHTTPMiddleware, fetch as coreFetch, httpRouter } from '@pikku/core/http'
import { pikkuState } from '@pikku/core/state'
import { RawClient, startWsApp, type RunningWsApp } from './harness/channels.js'
import { startFastifyApp } from './harness/fastify.js'
import { registerProbe } from './harness/core-probes.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { setAsideGlobalMiddleware } from './harness/gateways.js'
import { APP_DIR } from './harness/node-process.js'

let app: RunningWsApp

before(async () => {
  app = await startWsApp()
})
after(async () => {
  await app.stop()
})

/** Puts this file's app singletons back in core's state after a test started a second app. */
const restoreAppSingletons = () => pikkuState(null, 'package', 'singletonServices', app.services as never)

test('secrets-undefined-without-service: with singleton services that hold no secrets property, a function and a permission reading services.secrets get undefined; with one, the permission\'s read throws SecretAccessDeniedError and the function does not run', async () => {
  const seen: Record<string, unknown> = {}
  registerProbe('l3ReadsSecrets', {
    permissions: {
      notesSecrets: async (services: any) => {
        seen.permission = services.secrets
        return true
      },
    },
    func: async (services: any) => {
      seen.func = services.secrets
      return 'ran'
    },
  } as never, { sessionless: true })
  const run = (singletonServices: object) =>
    runPikkuFunc('rpc', 'l3ReadsSecrets', 'l3ReadsSecrets', { singletonServices: singletonServices as never, data: () => ({}), wire: {} as never })
  const { secrets, ...withoutSecrets } = app.services as Record<string, unknown>
  assert.ok(secrets)
  // No `secrets` key at all: core hands the services on unchanged, and the property reads as undefined.
  assert.equal(await run(withoutSecrets), 'ran')
  assert.deepEqual(seen, { permission: undefined, func: undefined })
  // The app's own singletons carry `secrets`: the permission's read throws before the function runs.
  delete seen.func
  await assert.rejects(run(app.services), SecretAccessDeniedError)
  assert.equal('func' in seen, false)
})

test('schema-unexported-variable: a Zod input held in a variable that is not exported passes the inspector with no code, then schema generation throws "Schema generation failed for 1 schema"; exported, it converts', async () => {
  const source = (exported: boolean) => [
    "import { z } from 'zod'",
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    `${exported ? 'export ' : ''}const ProbeInput = z.object({ title: z.string() })`,
    'export const probeTakesInput = pikkuSessionlessFunc({ input: ProbeInput, func: async (_services, { title }) => title })',
  ].join('\n')
  const schemaConfig = { tsconfig: join(APP_DIR, 'tsconfig.json') }
  // Without schema generation (the analysis pass alone) the unexported variable is accepted like an exported one.
  const analysed = await inspectFiles('l3-schema-unexported-analysis', { 'probe.functions.ts': source(false) })
  assert.deepEqual(codes(analysed.reported), [])
  assert.ok(analysed.state.schemaLookup.size >= 1)
  // With schema generation, as `pikku all` runs it, the module is imported and the variable is not among its exports.
  await assert.rejects(
    inspectFiles('l3-schema-unexported', { 'probe.functions.ts': source(false) }, { schemaConfig }),
    { message: 'Schema generation failed for 1 schema' },
  )
  const exported = await inspectFiles('l3-schema-exported', { 'probe.functions.ts': source(true) }, { schemaConfig })
  assert.deepEqual(codes(exported.reported), [])
  assert.ok(Object.keys(exported.state.schemas).some((name) => /ProbeTakesInput/i.test(name)))
})

test('agent-workflow-func-identifier-pku124: an agent listing a pikkuWorkflowFunc by its identifier in workflows gets a critical PKU124 and no workflows; a pikkuWorkflowGraph identifier or ref(\'…\') is kept', async () => {
  const text = [
    "import { pikkuAgent } from '#pikku/agent'",
    "import { ref } from '#pikku/function'",
    "import { pikkuWorkflowFunc, pikkuWorkflowGraph } from '#pikku/workflow'",
    'export const probeFlow = pikkuWorkflowFunc<{ n: number }, { n: number }>({ func: async (_services, input) => input })',
    "export const probeGraph = pikkuWorkflowGraph({ description: 'p', nodes: { only: 'probeStep' }, config: {} } as any)",
    ...[
      ['byFunc', 'probeFlow'],
      ['byGraph', 'probeGraph'],
      ['byRef', "ref('probeFlow')"],
    ].map(([name, entry]) => `export const ${name} = pikkuAgent({ name: '${name}', description: 'p', goal: 'p', model: 'openai/gpt-4o-mini', workflows: [${entry}] })`),
  ].join('\n')
  const { reported, state } = await inspectFiles('l3-agent-workflows', { 'probe.agent.ts': text })
  assert.deepEqual(codes(reported).filter((c) => c.startsWith('PKU124')), ['PKU124 critical'])
  const workflowsOf = (name: string) => (state as any).agents.agentsMeta[name]?.workflows
  assert.deepEqual([workflowsOf('byFunc'), workflowsOf('byGraph'), workflowsOf('byRef')], [undefined, ['probeGraph'], ['probeFlow']])
})

test('head-on-get-route-404: a HEAD request to a route wired only as GET answers 404 with core\'s fetch, on Express with pikkuExpressMiddleware and on @pikku/fastify-plugin, while GET answers 200', async () => {
  // Core's own runner.
  assert.equal((await coreFetch(new Request('http://localhost/health'))).status, 200)
  assert.equal((await coreFetch(new Request('http://localhost/health', { method: 'HEAD' }))).status, 404)
  // Express with pikkuExpressMiddleware (this file's app).
  assert.equal((await fetch(`${app.url}/health`)).status, 200)
  assert.equal((await fetch(`${app.url}/health`, { method: 'HEAD' })).status, 404)
  // Fastify with the plugin; its own GET route next to it gets Fastify's automatic HEAD.
  const fastify = await startFastifyApp()
  try {
    assert.equal((await fetch(`${fastify.url}/health`)).status, 200)
    assert.equal((await fetch(`${fastify.url}/health`, { method: 'HEAD' })).status, 404)
    assert.equal((await fetch(`${fastify.url}/legacy/ping`, { method: 'HEAD' })).status, 200)
  } finally {
    await fastify.stop()
    restoreAppSingletons()
  }
})

test('websocket-gateway-global-middleware-twice: on a websocket gateway, middleware added with addGlobalMiddleware runs twice for each message that reaches the function (channel layer, then gateway layer), the \'*\' HTTP group only at the upgrade; parse gets each message as text', async () => {
  const { wireGateway } = await import('@pikku/core/gateway')
  const { clearMiddlewareCache } = await import(new URL('../../node_modules/@pikku/core/dist/middleware-runner.js', import.meta.url).href)
  const name = 'l3-ws-gateway'
  const route = '/l3-ws-gateway'
  const funcIds = [`gateway__${name}__message`, `gateway__${name}__connect`, `gateway__${name}__handler`]
  const calls: string[] = []
  const parsed: unknown[] = []
  const label = (wire: any) => (wire.http ? 'upgrade' : wire.gateway ? 'gateway' : 'channel')
  const recorder = (kind: string) => async (_services: unknown, wire: any, next: () => Promise<void>) => {
    calls.push(`${kind}:${label(wire)}`)
    await next()
  }
  const groups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown>
  const star = groups['*']
  const restoreGlobals = await setAsideGlobalMiddleware()
  const client: { socket?: RawClient } = {}
  try {
    ;(pikkuState(null, 'middleware', 'global') as unknown as unknown[]).push(recorder('global'))
    addHTTPMiddleware('*', [recorder('star') as any])
    clearMiddlewareCache()
    wireGateway({
      name,
      type: 'websocket',
      route,
      adapter: {
        name: 'probe',
        parse: (data: unknown) => {
          parsed.push(data)
          const event = typeof data === 'string' ? JSON.parse(data) : (data as any)
          return event?.skip ? null : { senderId: 'U1', text: String(event?.text), raw: data }
        },
        send: async () => {},
        init: async () => {},
        close: async () => {},
      },
      func: { func: async (_services: unknown, data: any) => (calls.push('function'), { text: `got ${data.text}` }) },
    } as any)
    client.socket = new RawClient(`${app.wsUrl}${route}`)
    await client.socket.opened
    client.socket.send({ text: 'hi' })
    assert.deepEqual(await client.socket.next((f) => f?.text === 'got hi'), { text: 'got hi' })
    // The connection: the upgrade (global and '*'), then the global middleware twice around the gateway's onConnect.
    // Then the message: once on the channel layer, once more on the gateway layer around the function.
    assert.deepEqual(calls, [
      'global:upgrade', 'star:upgrade', 'global:channel', 'global:channel',
      'global:channel', 'global:gateway', 'function',
    ])
    // A message parse drops never reaches the gateway layer: the global middleware runs once, on the channel layer.
    calls.length = 0
    client.socket.send({ skip: true, text: 'dropped' })
    client.socket.send({ text: 'again' })
    await client.socket.next((f) => f?.text === 'got again')
    assert.deepEqual(calls, ['global:channel', 'global:channel', 'global:gateway', 'function'])
    // parse is handed each message as the text it arrived as, not as parsed JSON.
    assert.deepEqual(parsed, ['{"text":"hi"}', '{"skip":true,"text":"dropped"}', '{"text":"again"}'])
  } finally {
    await client.socket?.close()
    restoreGlobals()
    groups['*'] = star
    pikkuState(null, 'gateway', 'gateways').delete(name)
    delete (pikkuState(null, 'channel', 'meta') as any)[name]
    ;(pikkuState(null, 'channel', 'channels') as Map<string, unknown>).delete(name)
    const funcMeta = pikkuState(null, 'function', 'meta') as any
    const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
    for (const id of funcIds) {
      delete funcMeta[id]
      functions.delete(id)
    }
    clearMiddlewareCache()
    httpRouter.reset()
  }
})
