// Statements of docs/runtimes/nextjs-app.mdx and docs/deploy/index.mdx run in this process: @pikku/next's PikkuNextJS
// and the generated .pikku/pikku-nextjs.gen.ts module (without starting Next.js), and the deploy commands' provider
// lookup of @pikku/cli 0.12.113. No cloud service is reached.
import { mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getSingletonServices } from '@pikku/core/state'
import { quiet, withWrappedFunction } from './harness/app.js'
import { recordingLogger } from './harness/core-probes.js'
import { runTempDir } from './harness/temp.js'

const APP = fileURLToPath(new URL('../../', import.meta.url))
const CLI_DIST = join(APP, 'node_modules', '@pikku', 'cli', 'dist')

test('nextjs-services-lazy-once: PikkuNextJS builds no services when constructed, and builds them once for the calls that follow, even concurrent ones', async () => {
  const { PikkuNextJS } = await import('@pikku/next')
  let created = 0
  const nextjs = new PikkuNextJS(
    async () => ({}) as never,
    async () => {
      created++
      return {} as never
    },
  )
  assert.equal(created, 0)
  const internal = nextjs as unknown as { getSingletonServices: () => Promise<unknown> }
  const [first, second] = await Promise.all([internal.getSingletonServices(), internal.getSingletonServices()])
  assert.equal(first, second)
  await internal.getSingletonServices()
  assert.equal(created, 1)
})

test('nextjs-static-session-refused: a static helper on a route that needs a session rejects with "Can\'t skip trying to get user session if auth is required", and the function never runs', async () => {
  const { pikku } = await import('#pikku/pikku-nextjs.gen.js')
  // Build the module's services first, so that quiet() silences the logger the call uses.
  assert.deepEqual(await pikku().staticGet('/health'), { status: 'ok' })
  quiet(getSingletonServices() as never)
  let ran = 0
  await withWrappedFunction(
    'listTodos',
    (original) => async (services, data, wire) => (ran++, original(services, data, wire)),
    async () => {
      await assert.rejects(pikku().staticGet('/todos', {} as never), {
        message: "Can't skip trying to get user session if auth is required",
      })
    },
  )
  assert.equal(ran, 0)
})

const NEXTJS_SERIALIZERS = join(CLI_DIST, 'src', 'functions', 'runtimes', 'nextjs')
const exportsOf = (source: string) => [...source.matchAll(/^export const (\w+)/gm)].map((m) => m[1]).sort()
const helpersOf = (source: string) =>
  source
    .slice(source.lastIndexOf('return {'))
    .match(/\{([^}]*)\}/)![1]
    .split(',')
    .map((entry) => entry.split(':')[0].trim())
    .filter(Boolean)
    .sort()
const HELPERS = ['del', 'get', 'patch', 'post', 'rpc', 'staticGet', 'staticPost', 'staticRPC']

test('nextjs-module-exports: the local module exports pikku, pikkuAPIRequest and removeAPIPrefix, the worker-rpc one the same, the http one pikku alone; pikku() returns the same eight helpers in each', async () => {
  // The to-do app's own module, written by `pikku all` with the default 'local' transport.
  const local = await import('#pikku/pikku-nextjs.gen.js')
  assert.deepEqual(Object.keys(local).sort(), ['pikku', 'pikkuAPIRequest', 'removeAPIPrefix'])
  assert.deepEqual(Object.keys(local.pikku()).sort(), HELPERS)
  // The two other modules, as the CLI's serializers write them (pikku-command-nextjs.js passes these arguments).
  const { serializeNextJsBackendWorkerRPCWrapper } = await import(join(NEXTJS_SERIALIZERS, 'serialize-nextjs-backend-worker-rpc-wrapper.js'))
  const { serializeNextJsHTTPWrapper } = await import(join(NEXTJS_SERIALIZERS, 'serialize-nextjs-http-wrapper.js'))
  const workerRPC: string = serializeNextJsBackendWorkerRPCWrapper('./routes.js', './rpc.js', './fetcher.js', '')
  const http: string = serializeNextJsHTTPWrapper('./routes.js', './rpc.js', './fetch.js', '', "'http://127.0.0.1:4004'")
  assert.deepEqual(exportsOf(workerRPC), ['pikku', 'pikkuAPIRequest', 'removeAPIPrefix'])
  assert.deepEqual(exportsOf(http), ['pikku'])
  assert.deepEqual(helpersOf(workerRPC), HELPERS)
  assert.deepEqual(helpersOf(http), HELPERS)
})

test('nextjs-wire-services-import-dropped: the local module\'s serializer is handed the import of the wire services factory and writes the config and services imports only', async () => {
  const { serializeNextJsBackendWrapper } = await import(join(NEXTJS_SERIALIZERS, 'serialize-nextjs-backend-wrapper.js'))
  const source: string = serializeNextJsBackendWrapper(
    './bootstrap.js',
    './routes.js',
    './rpc.js',
    "import { createConfig } from './config.js'",
    "import { createSingletonServices } from './services.js'",
    "import { createWireServices } from './wire-services.js'",
    '',
  )
  assert.match(source, /^import \{ createConfig \} from '\.\/config\.js'$/m)
  assert.match(source, /^import \{ createSingletonServices \} from '\.\/services\.js'$/m)
  assert.doesNotMatch(source, /wire-services|createWireServices/)
})

test('deploy-no-aws-provider: the deploy commands\' help names "(cloudflare, aws)", but the provider lookup knows no aws and does know serverless', async () => {
  const meta = readFileSync(join(CLI_DIST, '.pikku', 'cli', 'pikku-cli-wirings-meta.gen.json'), 'utf8')
  assert.equal(meta.split('"Deployment provider (cloudflare, aws)"').length - 1, 3)
  const { resolveProvider } = await import(join(CLI_DIST, 'src', 'functions', 'commands', 'deploy-apply.js'))
  await assert.rejects(resolveProvider(undefined, 'aws', {}), /^Error: Unknown deploy provider: 'aws'\. Available: cloudflare, serverless, azure, standalone$/)
  // serverless is a known name: the lookup goes on to import its package, not installed in this app.
  await assert.rejects(resolveProvider(undefined, 'serverless', {}), /Deploy provider '@pikku\/deploy-serverless' is not installed/)
})

test('deploy-from-plan-no-deploy-exit-1: apply --from-plan with a provider that has no deploy method logs "Provider \'<name>\' does not support deploy." and exits with code 1', async () => {
  // deploy-apply.js of @pikku/cli 0.12.113 called in this process, with a plan in place and a provider, loaded from a
  // data: URL through deploy.providers, that has no deploy method, as the serverless and azure adapters have none.
  const root = runTempDir('nextjs-deploy-no-deploy')
  const { deployApply } = await import(join(CLI_DIST, 'src', 'functions', 'commands', 'deploy-apply.js'))
  const exit = mock.method(process, 'exit', (code?: number) => {
    throw new Error(`process.exit(${code})`)
  })
  try {
    mkdirSync(join(root, '.deploy', 'files-only'), { recursive: true })
    writeFileSync(join(root, '.deploy', 'files-only', 'infra.json'), '{}')
    const adapter = `export const createAdapter = () => ({ name: 'files-only', deployDirName: 'files-only', generateEntrySource: () => '', generateUnitConfigs: () => new Map(), generateInfraManifest: () => '{}' })`
    const { logger, lines } = recordingLogger()
    const config = { rootDir: root, deploy: { providers: { 'files-only': `data:text/javascript,${encodeURIComponent(adapter)}` } } }
    await assert.rejects(deployApply.func({ logger, config }, { provider: 'files-only', fromPlan: true }), { message: 'process.exit(1)' })
    assert.deepEqual(
      lines.filter((line) => line.level === 'error').map((line) => line.text),
      ["Provider 'files-only' does not support deploy."],
    )
    assert.equal(exit.mock.callCount(), 1)
  } finally {
    exit.mock.restore()
    rmSync(root, { recursive: true, force: true })
  }
})
