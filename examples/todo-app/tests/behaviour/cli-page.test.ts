// Sentences of docs/cli.mdx that were only read from the source, run here in-process: the CLI's config loader
// (createConfig of @pikku/cli 0.12.113), the check behind `pikku validate`'s pikku-barrel-import finding, and the
// inspector's walk of the program (@pikku/inspector 0.12.63). No `pikku all` run: each calls the code that decides.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runTempDir } from './harness/temp.js'
import { APP_DIR } from './harness/node-process.js'

const CLI_DIST = join(APP_DIR, 'node_modules', '@pikku', 'cli', 'dist')

/**
 * The config createConfig of the CLI builds for `pikku all` from a pikku.config.json holding `config`, beside `files`.
 * Silent: the logo it prints on stdout otherwise can garble the test runner's own stream from this file's process.
 */
const loadConfig = async (config: Record<string, unknown>, files: Record<string, string> = {}) => {
  const { createConfig } = await import(join(CLI_DIST, 'src', 'services.js'))
  const dir = runTempDir('cli-page-config')
  try {
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
    writeFileSync(join(dir, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku', ...config }))
    return { dir, result: await createConfig({}, { configFile: join(dir, 'pikku.config.json'), silent: true }, ['all']) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('config-relative-paths: a relative outDir and clientFiles path resolve against the config file\'s folder; tsconfig and top-level fields ending in File, Directory or Dir, emailTemplatesDir, authFile and authTypesFile among them, against rootDir', async () => {
  const { dir, result } = await loadConfig({
    rootDir: './sub',
    outDir: './out',
    functionsFile: './gen/functions.gen.ts',
    schemaDirectory: './gen/schemas',
    emailTemplatesDir: './emails',
    authFile: './auth.ts',
    authTypesFile: './auth-types.ts',
    clientFiles: { fetchFile: './client/fetch.gen.ts' },
  })
  const root = join(dir, 'sub')
  assert.equal(result.rootDir, root)
  assert.equal(result.outDir, join(dir, 'out'))
  assert.equal(result.clientFiles.fetchFile, join(dir, 'client', 'fetch.gen.ts'))
  assert.deepEqual(
    [result.tsconfig, result.functionsFile, result.schemaDirectory, result.emailTemplatesDir, result.authFile, result.authTypesFile],
    [join(root, 'tsconfig.json'), join(root, 'gen', 'functions.gen.ts'), join(root, 'gen', 'schemas'), join(root, 'emails'), join(root, 'auth.ts'), join(root, 'auth-types.ts')],
  )
  // srcDirectories stays as written; the CLI joins each to rootDir when it gathers files (services.ts).
  assert.deepEqual(result.srcDirectories, ['./src'])
})

test('scaffold-function-dir: pikku new writes under functions/ of the first source directory below rootDir; a scaffold.functionDir replaces only that directory, and, left relative by the loader, is taken from the working directory', async () => {
  const { scaffoldFilePath } = await import(join(CLI_DIST, 'src', 'utils', 'file-writer.js'))
  const plain = await loadConfig({ rootDir: './sub' })
  assert.equal(scaffoldFilePath(plain.result, 'functions', 'sendReport', '.functions.ts', plain.result.scaffold?.functionDir), join(plain.dir, 'sub', 'src', 'functions', 'send-report.functions.ts'))
  const own = await loadConfig({ rootDir: './sub', scaffold: { functionDir: 'src/api' } })
  assert.equal(own.result.scaffold.functionDir, 'src/api')
  const path = scaffoldFilePath(own.result, 'functions', 'sendReport', '.functions.ts', own.result.scaffold.functionDir)
  assert.equal(path, join('src', 'api', 'functions', 'send-report.functions.ts'))
})

test('enable-replaces-inherited-scaffold: pikku enable writes only the found pikku.config.json: it sets the surface to true over a { path }, sets scaffold.pikkuDir to pikku when unset, and under extends its scaffold block replaces the inherited one whole', async () => {
  const { enableRpc } = await import(join(CLI_DIST, 'src', 'functions', 'commands', 'enable.js'))
  const { createConfig } = await import(join(CLI_DIST, 'src', 'services.js'))
  const base = runTempDir('cli-page-enable-base')
  const dir = runTempDir('cli-page-enable')
  try {
    const baseConfig = JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku', scaffold: { events: true } })
    writeFileSync(join(base, 'pikku.config.json'), baseConfig)
    writeFileSync(join(dir, 'pikku.config.json'), JSON.stringify({ extends: join(base, 'pikku.config.json'), scaffold: { rpc: { path: 'src/rpc.ts' } } }))
    const load = () => createConfig({}, { configFile: join(dir, 'pikku.config.json'), silent: true }, ['all'])
    assert.deepEqual((await load()).scaffold, { rpc: { path: 'src/rpc.ts' } })
    // Without a block of its own, the child inherits the extended config's scaffold.
    writeFileSync(join(dir, 'pikku.config.json'), JSON.stringify({ extends: join(base, 'pikku.config.json') }))
    const inherited = await load()
    assert.deepEqual(inherited.scaffold, { events: true })
    // With pikkuDir unset, a surface's file goes to <first srcDirectory>/scaffold under rootDir.
    assert.ok(inherited.eventsChannelFile.startsWith(join(inherited.rootDir, 'src', 'scaffold') + '/'), inherited.eventsChannelFile)
    await enableRpc.func({ logger: { info() {} }, config: { configDir: dir } } as never, undefined as never, {} as never)
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'pikku.config.json'), 'utf8')).scaffold, { pikkuDir: 'pikku', rpc: true })
    assert.equal(readFileSync(join(base, 'pikku.config.json'), 'utf8'), baseConfig)
    // The block it wrote replaces the inherited one whole: events, on in the extended config, is now off.
    const enabled = await load()
    assert.deepEqual(enabled.scaffold, { pikkuDir: 'pikku', rpc: true })
    // pikkuDir: 'pikku' moves the surface's file to a pikku folder under rootDir.
    assert.ok(enabled.publicRpcFile.startsWith(join(enabled.rootDir, 'pikku') + '/'), enabled.publicRpcFile)
    // Over a { path } already there, the surface becomes true.
    writeFileSync(join(dir, 'pikku.config.json'), JSON.stringify({ extends: join(base, 'pikku.config.json'), scaffold: { rpc: { path: 'src/rpc.ts' } } }))
    await enableRpc.func({ logger: { info() {} }, config: { configDir: dir } } as never, undefined as never, {} as never)
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'pikku.config.json'), 'utf8')).scaffold, { rpc: true, pikkuDir: 'pikku' })
  } finally {
    rmSync(base, { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  }
})

test('ignore-files-default-replaced: ignoreFiles defaults to the test, spec, node_modules and dist globs; a list in the config replaces it; the inspector still reads a file outside the list it is given when a given file imports it', async () => {
  const defaults = await loadConfig({})
  assert.deepEqual(defaults.result.ignoreFiles, ['**/*.test.ts', '**/*.spec.ts', '**/node_modules/**', '**/dist/**'])
  const own = await loadConfig({ ignoreFiles: ['**/*.draft.ts'] })
  assert.deepEqual(own.result.ignoreFiles, ['**/*.draft.ts'])
  // The inspector is handed only wiring.ts (as if helper.test.ts had been ignored), yet records the function it imports.
  const { inspect } = await import('@pikku/inspector')
  const dir = join(APP_DIR, '.behaviour', `cli-page-ignored-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  try {
    writeFileSync(join(dir, 'helper.test.ts'), "import { pikkuSessionlessFunc } from '@pikku/core'\nexport const ignoredHello = pikkuSessionlessFunc<void, string>({ func: async () => 'hi' })\n")
    writeFileSync(join(dir, 'wiring.ts'), "import { wireHTTP } from '@pikku/core'\nimport { ignoredHello } from './helper.test.js'\nwireHTTP({ method: 'get', route: '/hello', auth: false, func: ignoredHello })\n")
    const quiet = { info() {}, debug() {}, warn() {}, error() {}, diagnostic() {}, critical() {}, hasCriticalErrors: () => false }
    const state = (await inspect(quiet as never, [join(dir, 'wiring.ts')], { rootDir: dir } as never)) as any
    assert.ok(state.functions.meta.ignoredHello, Object.keys(state.functions.meta).join(','))
    assert.equal(state.functions.meta[state.http.meta.get['/hello'].pikkuFuncId], state.functions.meta.ignoredHello)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('addon-out-dir: with addon set, the config loader roots outDir, and every generated path derived from it, in <outDir>/addon', async () => {
  // An addon config needs the package's package.json, for its name.
  const { dir, result } = await loadConfig({ addon: true }, { 'package.json': JSON.stringify({ name: '@todo/probe-addon' }) })
  assert.equal(result.addonName, '@todo/probe-addon')
  const root = join(dir, '.pikku', 'addon')
  assert.equal(result.outDir, root)
  for (const path of [result.bootstrapFile, result.functionsFile, result.servicesFile, result.schemaDirectory]) {
    assert.ok(path.startsWith(root + '/'), path)
  }
  const app = await loadConfig({})
  assert.equal(app.result.outDir, join(app.dir, '.pikku'))
  assert.ok(!app.result.bootstrapFile.includes('/addon/'), app.result.bootstrapFile)
})

test('barrel-import-specifiers: the pikku-barrel-import check of pikku validate flags an import of #pikku and of #pikku/pikku-types.gen.js, but not of a leaf such as #pikku/function', async () => {
  const { runPikkuBarrelChecks } = await import(join(CLI_DIST, 'src', 'functions', 'validate', 'pikku-barrel-checks.js'))
  const dir = runTempDir('cli-page-barrel')
  try {
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src', 'hub.ts'), "import type { CoreConfig } from '#pikku'\nexport type A = CoreConfig\n")
    writeFileSync(join(dir, 'src', 'deep.ts'), "import { pikkuFunc } from '#pikku/pikku-types.gen.js'\nexport const f = pikkuFunc\n")
    writeFileSync(join(dir, 'src', 'leaf.ts'), "import { pikkuFunc } from '#pikku/function'\nexport const f = pikkuFunc\n")
    const findings: Array<{ id: string; severity: string; message: string }> = await runPikkuBarrelChecks(dir)
    assert.deepEqual(
      findings.map(({ id, severity, message }) => `${id} ${severity} ${message.split(' — ')[0]}`).sort(),
      ["pikku-barrel-import error src/deep.ts imports '#pikku/pikku-types.gen.js'", "pikku-barrel-import error src/hub.ts imports '#pikku'"],
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('db-config-fallback-warns: when config.ts fails to load or exports no createConfig, a project with a db/sqlite or db/postgres folder gets that folder\'s default with only a warning; without such a folder it is an error', async () => {
  const { loadUserConfigForDb } = await import(join(CLI_DIST, 'src', 'functions', 'commands', 'db-shared.js'))
  // A project of its own per case: the module of a config.ts, once imported, stays cached under its path.
  const load = async (configText: string, dbFolder?: string) => {
    const dir = runTempDir('cli-page-db')
    try {
      mkdirSync(join(dir, 'src'))
      if (dbFolder) mkdirSync(join(dir, 'db', dbFolder), { recursive: true })
      writeFileSync(join(dir, 'src', 'config.ts'), configText)
      const logged: string[] = []
      const logger = { warn: (message: string) => logged.push(`warn ${message}`), error: (message: string) => logged.push(`error ${message}`) }
      const result = await loadUserConfigForDb({ config: { rootDir: dir, srcDirectories: ['src'] }, logger }).catch((error: Error) => `threw ${error.message}`)
      return { result, logged }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const noExport = await load('export const other = 1\n', 'sqlite')
  assert.deepEqual(noExport.result, { sqliteDb: '.pikku-runtime/dev.db' })
  assert.equal(noExport.logged.length, 1)
  assert.match(noExport.logged[0], /^warn Falling back to default local db config because '.*config\.ts' does not export createConfig$/)
  const broken = await load("throw new Error('config broke')\n", 'postgres')
  assert.deepEqual(broken.result, {})
  assert.equal(broken.logged.length, 1)
  assert.match(broken.logged[0], /^warn Falling back to default local db config because '.*config\.ts' could not be loaded: config broke$/)
  // With neither folder, no default to fall back on.
  const bare = await load('export const other = 1\n')
  assert.equal(bare.result, null)
  assert.match(bare.logged.join('\n'), /^error Expected 'createConfig' in '.*config\.ts' to be a function$/)
})

test('db-reset-runtime-dir: with runtimeDir moved, pikku db reset refuses a sqliteDb outside it and deletes one inside it; the PGlite folder moves with runtimeDir; a sqliteDb set beside a db/postgres folder makes the project SQLite', async () => {
  const { resolveDb, reset } = await import(join(CLI_DIST, 'src', 'functions', 'db', 'local-db.js'))
  const root = runTempDir('cli-page-reset')
  const outDir = join(root, '.pikku')
  try {
    mkdirSync(join(root, 'db', 'postgres'), { recursive: true })
    // A sqliteDb outside the moved runtimeDir is refused, and the file stays.
    mkdirSync(join(root, 'data'))
    writeFileSync(join(root, 'data', 'dev.db'), '')
    const outside = resolveDb({ sqliteDb: 'data/dev.db' }, root, outDir, 'runtime')
    assert.equal(outside.dialect, 'sqlite')
    await assert.rejects(reset(outside, root), /pikku db reset refused: resolved DB file \(.*data\/dev\.db\) is outside the runtime directory/)
    assert.ok(existsSync(join(root, 'data', 'dev.db')))
    // Inside it, the file is deleted.
    mkdirSync(join(root, 'runtime'))
    writeFileSync(join(root, 'runtime', 'dev.db'), '')
    await reset(resolveDb({ sqliteDb: 'runtime/dev.db' }, root, outDir, 'runtime'), root)
    assert.ok(!existsSync(join(root, 'runtime', 'dev.db')))
    // With no sqliteDb, the db/postgres folder gives PGlite, whose folder is inside runtimeDir, and reset clears it.
    const pglite = resolveDb({}, root, outDir, 'runtime')
    assert.deepEqual([pglite.dialect, pglite.mode, pglite.pgliteDir], ['postgres', 'pglite', join(root, 'runtime', 'dev-postgres')])
    mkdirSync(pglite.pgliteDir)
    await reset(pglite, root)
    assert.ok(!existsSync(pglite.pgliteDir))
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

test('client-commands-write-only-the-client: pikku fetch, rpc, websocket and queue-service never inspect the project and write only their own file, which imports a wirings map that only the default pikku run writes; without that map the client fails to compile with TS2307', async () => {
  const { readdirSync } = await import('node:fs')
  const { compileScratch } = await import('./harness/node-process.js')
  const commands = {
    fetchFile: ['runtimes/fetch/index.js', 'pikkuFetch', 'pikku-http-wirings-map.gen.d.js'],
    rpcWiringsFile: ['wirings/rpc/pikku-command-rpc-client.js', 'pikkuRPCClient', 'pikku-rpc-wirings-map.gen.d.js'],
    websocketFile: ['runtimes/websocket/pikku-command-websocket-typed.js', 'pikkuWebSocketTyped', 'pikku-channels-map.gen.d.js'],
    queueWiringsFile: ['wirings/queue/pikku-command-queue-service.js', 'pikkuQueueService', 'pikku-queue-workers-wirings-map.gen.d.js'],
  } as const
  const clientFiles = Object.fromEntries(Object.keys(commands).map((key) => [key, `./clients/${key}.gen.ts`]))
  const { dir, result: config } = await loadConfig({ clientFiles })
  const logger = new Proxy({}, { get: () => () => {} })
  try {
    for (const [key, [file, name, map]] of Object.entries(commands)) {
      const command = (await import(join(CLI_DIST, 'src', 'functions', file)))[name]
      // No getInspectorState among the services: a command that inspected the project would throw here.
      await command.func({ logger, config } as never, undefined as never, {} as never)
      const client = readFileSync(config.clientFiles[key], 'utf8')
      assert.match(client, new RegExp(`from '[^']*/${map.replaceAll('.', '\\.')}'`), key)
    }
    // Only the four clients were written: no map, no other generated file.
    assert.deepEqual(readdirSync(dir, { recursive: true }).map(String).sort(), ['clients', ...Object.keys(commands).map((key) => join('clients', `${key}.gen.ts`))].sort())
    const clients = Object.fromEntries(Object.keys(commands).map((key) => [`${key}.gen.ts`, readFileSync(config.clientFiles[key], 'utf8')]))
    const { code, output } = await compileScratch('client-commands', clients)
    assert.notEqual(code, 0)
    for (const [key, [, , map]] of Object.entries(commands)) {
      assert.match(output, new RegExp(`${key}\\.gen\\.ts\\(\\d+,\\d+\\): error TS2307: Cannot find module '[^']*/${map.replaceAll('.', '\\.')}'`), key)
    }
    assert.match(output, /error TS2307: Cannot find module '[^']*\/http\/pikku-http-wirings-map\.gen\.d\.js'/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('pikku-func-command-needs-session: a command whose function is a pikkuFunc, run as executeCLI runs it (no session), warns that auth was explicitly disabled and fails with ForbiddenError "Authentication required"; given a session it runs, still warning; a sessionless one runs without the warning', async () => {
  const { runCLICommand } = await import('@pikku/core/cli')
  const { pikkuState } = await import('@pikku/core/state')
  const { registerProbe, recordingLogger } = await import('./harness/core-probes.js')
  registerProbe('p12SessionCommand', { func: async () => 'ran' })
  registerProbe('p12SessionlessCommand', { func: async () => 'ran' }, { sessionless: true })
  const hadMeta = pikkuState(null, 'cli', 'meta') as { programs?: Record<string, unknown> } | undefined
  const meta = hadMeta ?? { programs: {} }
  meta.programs ??= {}
  meta.programs.p12 = {
    program: 'p12',
    commands: {
      secured: { pikkuFuncId: 'p12SessionCommand', positionals: [], options: {} },
      open: { pikkuFuncId: 'p12SessionlessCommand', positionals: [], options: {} },
    },
    options: {},
  }
  if (!hadMeta) pikkuState(null, 'cli', 'meta', meta as never)
  const { lines, logger } = recordingLogger()
  const run = (command: string, session?: object) =>
    runCLICommand({ program: 'p12', commandPath: [command], data: {}, singletonServices: { logger } as never, session: session as never })
  const warning = "Function 'p12SessionCommand' requires a session but auth was explicitly disabled — use pikkuSessionlessFunc instead."
  try {
    await assert.rejects(run('secured'), (error: Error) => error.constructor.name === 'ForbiddenError' && error.message === 'Authentication required')
    assert.deepEqual(lines.filter((l) => l.level === 'warn').map((l) => l.text), [warning])
    assert.equal(await run('secured', { userId: 'user-1' }), 'ran')
    assert.equal(lines.filter((l) => l.level === 'warn').length, 2)
    assert.equal(await run('open'), 'ran')
    assert.equal(lines.filter((l) => l.level === 'warn').length, 2)
  } finally {
    delete meta.programs.p12
    const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
    const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
    for (const name of ['p12SessionCommand', 'p12SessionlessCommand']) {
      functions.delete(name)
      delete functionMeta[name]
    }
  }
})

test('openapi-output-file-cwd: the loader leaves a relative openAPI.outputFile as written, and the OpenAPI step writes it under the working directory, not beside the config file', async () => {
  const { result } = await loadConfig({ openAPI: { outputFile: './docs/openapi.json', additionalInfo: { info: { title: 't', version: '1' } } } })
  assert.equal(result.openAPI.outputFile, './docs/openapi.json')
  const { pikkuOpenAPI } = await import(join(CLI_DIST, 'src', 'functions', 'wirings', 'http', 'pikku-command-openapi.js'))
  const project = runTempDir('cli-page-openapi-project')
  const below = join(project, 'packages', 'api')
  const cwd = process.cwd()
  const quiet = { debug() {}, info() {} }
  try {
    mkdirSync(below, { recursive: true })
    process.chdir(below)
    await pikkuOpenAPI.func({ logger: quiet, config: { openAPI: result.openAPI }, getInspectorState: async () => ({ openAPISpec: { openapi: '3.1.0' } }) }, undefined, {})
    assert.ok(existsSync(join(below, 'docs', 'openapi.json')))
    assert.ok(!existsSync(join(project, 'docs', 'openapi.json')))
  } finally {
    process.chdir(cwd)
    rmSync(project, { recursive: true, force: true })
  }
})
