// Command lines: the app's own `todos` program (src/cli.ts over src/wirings/todos.cli.ts, executeCLI of core 0.12.90)
// run as real processes, one run of the pikku CLI (@pikku/cli 0.12.113) on a small scratch project (the app's
// tsconfig and #pikku imports, a few types, one file with a PKU410 and a PKU411 mistake), and `pikku db` on two
// smaller ones. Every process starts in `before`, all at once, so the file costs one pikku run and the db runs.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { recordingLogger } from './harness/core-probes.js'
import { runTempDir } from './harness/temp.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { APP_DIR, runNode } from './harness/node-process.js'

const APP = fileURLToPath(new URL('../../', import.meta.url))
// Inside the app (so its node_modules resolve) and inside .behaviour/ (git-ignored); removed in `after`.
const COPY = join(APP, '.behaviour', `cli-scratch-${process.pid}`)
// An empty folder outside any project, for a run that names its config with --config; removed in `after`.
const ELSEWHERE = runTempDir('cli-elsewhere')
// A folder outside any project holding a pikku.config.json without `tsconfig`; removed in `after`.
const NO_TSCONFIG = runTempDir('cli-no-tsconfig')
// Two more such folders: one whose pikku.config.json has no `outDir`, one with no `srcDirectories`; removed in `after`.
const NO_OUTDIR = runTempDir('cli-no-outdir')
const NO_SRC = runTempDir('cli-no-src')
const PIKKU = join(APP, 'node_modules', '@pikku', 'cli', 'dist', 'bin', 'pikku.js')
// Two small projects for `pikku db`, inside .behaviour/ (git-ignored); removed in `after`. DB_PROJECT has a
// db/sqlite migration, a runtimeDir, a createConfig in src/services.ts and a db/annotations.ts that does not compile;
// DB_BARE has neither a config.ts nor a db folder.
const DB_PROJECT = join(APP, '.behaviour', `cli-db-${process.pid}`)
const DB_BARE = join(APP, '.behaviour', `cli-db-bare-${process.pid}`)
// A small project for `pikku meta`, `pikku info` and `pikku validate`, inside .behaviour/ (git-ignored): one function
// offered over MCP and wired to a scheduled task and a queue worker under names of their own, and one file that imports
// the removed `#pikku` hub; removed in `after`.
const META = join(APP, '.behaviour', `cli-meta-${process.pid}`)

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

const run = (args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })

/** `npx tsx src/cli.ts <args>` in the app. */
const todos = (...args: string[]) => run(['--import', 'tsx', 'src/cli.ts', ...args], APP)

const runs: Record<string, Promise<Run>> = {}

const FIXED_FUNCTIONS = `import { pikkuFunc } from '#pikku/function'

export const countDoneTodos = pikkuFunc<void, { done: number }>({
  description: "Count the caller's finished to-dos",
  func: async ({ todoStore }, _data, { session }) => {
    const todos = await todoStore.list(session.userId)
    return { done: todos.filter((todo) => todo.done).length }
  },
})

export const whoAmI = pikkuFunc<void, { userId: string }>({
  description: 'The caller id',
  func: async (_services, _data, { session }) => ({ userId: session.userId }),
})
`

/**
 * Starts `pikku watch` in the scratch project, whose first pass (run as soon as the watcher is ready) fails on
 * PKU410/PKU411; once it has, writes the fixed file and waits for the pass that change starts (watch.ts registers its
 * change handlers after that first pass). Resolves with the output after the fix; stops the watcher.
 */
const watchThenFix = (): Promise<Run> =>
  new Promise((resolve, reject) => {
    const file = join(COPY, 'src', 'functions', 'done-count.functions.ts')
    const child = spawn(process.execPath, [PIKKU, 'watch'], { cwd: COPY, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } })
    let output = ''
    let fixedAt = -1
    let step = 0
    const timer = setTimeout(() => finish(new Error(`pikku watch: no second pass within 240 s:\n${output}`)), 240_000)
    const finish = (error?: Error) => {
      clearTimeout(timer)
      child.kill()
      if (error) reject(error)
      else resolve({ code: null, stdout: output.slice(fixedAt), stderr: '' })
    }
    const passes = () => output.match(/Error running watch|Generated in \d+ms/g)?.length ?? 0
    const onData = (chunk: Buffer) => {
      output += chunk
      if (step === 0 && passes() === 1) {
        step = 1
        fixedAt = output.length
        writeFileSync(file, FIXED_FUNCTIONS)
      } else if (step === 1 && passes() === 2) {
        step = 2
        finish()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('error', (error) => finish(error))
  })

before(() => {
  // The scratch project: the app's tsconfig.json and #pikku imports, the core types the inspector looks for, and
  // two functions that break the destructuring lints.
  mkdirSync(join(COPY, 'src', 'functions'), { recursive: true })
  const appPackage = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8'))
  const tsconfig = readFileSync(join(APP, 'tsconfig.json'), 'utf8').replace(/"include": \[[^\]]*\]/, '"include": ["src", ".pikku"]')
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'scratch', private: true, type: 'module', imports: appPackage.imports }),
    'pikku.config.json': JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku' }),
    'tsconfig.json': tsconfig,
    'src/application-types.d.ts': `import type { CoreConfig, CoreServices, CoreSingletonServices, CoreUserSession } from '@pikku/core/types'

export interface Config extends CoreConfig {}
export interface UserSession extends CoreUserSession {
  userId: string
}
export interface SingletonServices extends CoreSingletonServices<Config> {
  todoStore: { list(ownerId: string): Promise<Array<{ done: boolean }>> }
}
export interface Services extends CoreServices<SingletonServices> {}
`,
    'src/functions/done-count.functions.ts': `import { pikkuFunc } from '#pikku/function'

export const countDoneTodos = pikkuFunc<void, { done: number }>({
  description: "Count the caller's finished to-dos",
  func: async (services, _data, { session }) => {
    const todos = await services.todoStore.list(session.userId)
    return { done: todos.filter((todo) => todo.done).length }
  },
})

export const whoAmI = pikkuFunc<void, { userId: string }>({
  description: 'The caller id',
  func: async (_services, _data, wire) => ({ userId: wire.session.userId }),
})
`,
  }
  for (const [path, text] of Object.entries(files)) writeFileSync(join(COPY, path), text)
  // PIKKU_TIMING asks for the table of step timings, on this failing run and on the passing one after the fix.
  runs.pikkuAll = run([PIKKU, 'all'], COPY, { PIKKU_TIMING: '1' })
  runs.configElsewhere = run([PIKKU, 'all', '--config', join(COPY, 'pikku.config.json')], ELSEWHERE)
  // No command named: the default command `all` runs only when no bare word follows, and a spaced option value is one.
  runs.defaultSpacedValue = run([PIKKU, '--tags', 'todos'], ELSEWHERE)
  runs.defaultEqualsValue = run([PIKKU, '--tags=todos'], ELSEWHERE)
  runs.consoleCommand = run([PIKKU, 'console'], ELSEWHERE)
  // The same project again with --json, once the first run is done with the folder.
  runs.pikkuJson = runs.pikkuAll.then(() => run([PIKKU, 'all', '--json'], COPY))
  // Then once saving the inspector state, and once more reading it back instead of inspecting.
  runs.stateSave = runs.pikkuJson.then(() => run([PIKKU, 'all', '--stateOutput', 'state.json'], COPY))
  runs.stateLoad = runs.stateSave.then(() => run([PIKKU, 'all', '--stateInput', 'state.json'], COPY))
  // Last in the folder: `pikku watch`, one change that keeps the mistakes, one that fixes both, then a plain run.
  runs.watchAfterFix = runs.stateLoad.then(() => watchThenFix())
  // Before that run, a stale copy of the removed hub file, as a project generated before CLI 0.12.106 has it.
  runs.allAfterFix = runs.watchAfterFix.then(() => {
    mkdirSync(join(COPY, '.pikku'), { recursive: true })
    writeFileSync(join(COPY, '.pikku', 'pikku-types.gen.ts'), 'export {}\n')
    return run([PIKKU, 'all'], COPY, { PIKKU_TIMING: '1' })
  })
  writeFileSync(join(NO_TSCONFIG, 'pikku.config.json'), JSON.stringify({ srcDirectories: ['./src'], outDir: './.pikku' }))
  runs.noTsconfig = run([PIKKU, 'all'], NO_TSCONFIG)
  writeFileSync(join(NO_OUTDIR, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'] }))
  runs.noOutDir = run([PIKKU, 'all'], NO_OUTDIR)
  writeFileSync(join(NO_SRC, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', outDir: './.pikku' }))
  runs.noSrcDirectories = run([PIKKU, 'all'], NO_SRC)
  // The same with --json, after the plain run: the TypeError that step throws is not a JSON record.
  runs.noSrcJson = runs.noSrcDirectories.then(() => run([PIKKU, 'all', '--json'], NO_SRC))
  // `pikku db`: migrate the small project with a DATABASE_URL set, then reset it; and migrate a project with no database.
  const dbFiles: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'scratch-db', private: true, type: 'module' }),
    'pikku.config.json': JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku', runtimeDir: './.rt' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext' }, include: ['src'] }),
    'src/services.ts': "export const createConfig = async () => ({ sqliteDb: 'data/app.db' })\n",
    'db/sqlite/0001_todos.sql': 'CREATE TABLE todos (todo_id TEXT PRIMARY KEY, title TEXT NOT NULL);\n',
    // The closing brace of `todos` is missing.
    'db/annotations.ts': "export const classifications = {\n  todos: { title: { security: 'pii' } }\n",
  }
  for (const [path, text] of Object.entries(dbFiles)) {
    mkdirSync(join(DB_PROJECT, path, '..'), { recursive: true })
    writeFileSync(join(DB_PROJECT, path), text)
  }
  runs.dbMigrate = run([PIKKU, 'db', 'migrate'], DB_PROJECT, { DATABASE_URL: 'env.db' })
  runs.dbReset = runs.dbMigrate.then(() => run([PIKKU, 'db', 'reset'], DB_PROJECT))
  mkdirSync(DB_BARE, { recursive: true })
  for (const path of ['package.json', 'pikku.config.json', 'tsconfig.json']) writeFileSync(join(DB_BARE, path), dbFiles[path])
  runs.dbBare = run([PIKKU, 'db', 'migrate'], DB_BARE)
  const metaFiles: Record<string, string> = {
    'package.json': files['package.json'],
    'pikku.config.json': files['pikku.config.json'],
    'tsconfig.json': tsconfig,
    'src/application-types.d.ts': files['src/application-types.d.ts'],
    'src/functions/digest.functions.ts': `import { pikkuSessionlessFunc } from '#pikku/function'

export const sendDigest = pikkuSessionlessFunc<void, void>({
  description: 'Send the daily digest',
  mcp: true,
  func: async ({ logger }) => {
    logger.info('digest')
  },
})
`,
    'src/wirings/digest.wiring.ts': `import { wireScheduler } from '#pikku/scheduler'
import { wireQueueWorker } from '#pikku/queue'
import { sendDigest } from '../functions/digest.functions.js'

wireScheduler({ name: 'daily-digest', schedule: '0 8 * * *', func: sendDigest })
wireQueueWorker({ name: 'digest-queue', func: sendDigest })
`,
    'src/barrel.ts': "import type { CoreConfig } from '#pikku'\n\nexport type AppConfig = CoreConfig\n",
  }
  for (const [path, text] of Object.entries(metaFiles)) {
    mkdirSync(join(META, path, '..'), { recursive: true })
    writeFileSync(join(META, path), text)
  }
  // One after the other: each run inspects the project (the first fills its schema cache).
  runs.metaText = run([PIKKU, 'meta', 'context'], META)
  runs.metaJson = runs.metaText.then(() => run([PIKKU, 'meta', 'context', '--json'], META))
  runs.infoVerbose = runs.metaJson.then(() => run([PIKKU, 'info', 'functions', '--verbose'], META))
  runs.validate = run([PIKKU, 'validate'], META)
  runs.help = todos('--help')
  runs.add = todos('add', 'Renew the domain', '--owner', 'user-1', '--due', '2030-01-01T09:00:00Z')
  runs.noTitle = todos('add', '--owner', 'user-1')
  runs.noOwner = todos('list')
  runs.unknown = todos('archive')
  runs.unknownLong = todos('list', '--owner', 'user-1', '--shade', 'dark')
  runs.unknownShort = todos('list', '--owner', 'user-1', '-x')
  runs.unknownBeforeTitle = todos('add', '--urgent', 'Renew the domain', '--owner', 'user-1')
  runs.unknownInputField = todos('add', 'Renew the domain', '--owner', 'user-1', '--title', 'Renew the lease')
  runs.unknownJson = todos('list', '--owner', 'user-1', '--json')
  runs.noArgs = todos()
  runs.addHelp = todos('add', '-h')
  runs.helpAsValue = todos('list', '--owner', '-h')
  runs.helpAfterAdd = todos('add', 'Renew the domain', '--owner', 'user-1', '-h')
  runs.verbose = todos('list', '--verbose')
  runs.shortV = todos('list', '--owner', 'user-1', '-v')
})
after(() => {
  rmSync(COPY, { recursive: true, force: true })
  rmSync(ELSEWHERE, { recursive: true, force: true })
  rmSync(NO_TSCONFIG, { recursive: true, force: true })
  rmSync(NO_OUTDIR, { recursive: true, force: true })
  rmSync(NO_SRC, { recursive: true, force: true })
  rmSync(DB_PROJECT, { recursive: true, force: true })
  rmSync(DB_BARE, { recursive: true, force: true })
  rmSync(META, { recursive: true, force: true })
})

test('todos-help: --help prints the program usage built from the wiring, exit 0', async () => {
  const { code, stdout } = await runs.help
  assert.equal(code, 0)
  assert.match(stdout, /^Usage: todos <command> \[options\]/m)
  assert.match(stdout, /^ {2}list {17}List a user's to-dos$/m)
  assert.match(stdout, /^ {2}add {18}Add a to-do for a user$/m)
})

test('todos-no-arguments-help: with no arguments, todos (no default command) prints the program usage and exits 0', async () => {
  const { code, stdout } = await runs.noArgs
  assert.equal(code, 0)
  assert.match(stdout, /^Usage: todos <command> \[options\]/m)
  assert.match(stdout, /^ {2}add {18}Add a to-do for a user$/m)
})

test('todos-lone-h-help: a lone -h after the command, in place of an option value or after all arguments prints that command\'s usage, runs nothing, exit 0', async () => {
  const add = await runs.addHelp
  assert.equal(add.code, 0)
  assert.match(add.stdout, /^Usage: todos add <title> \[options\]$/m)
  const asValue = await runs.helpAsValue
  assert.equal(asValue.code, 0)
  assert.match(asValue.stdout, /^Usage: todos list \[options\]$/m)
  assert.doesNotMatch(asValue.stdout, /No to-dos/)
  const after = await runs.helpAfterAdd
  assert.equal(after.code, 0)
  assert.match(after.stdout, /^Usage: todos add <title> \[options\]$/m)
  assert.doesNotMatch(after.stdout, /Created/)
})

test('todos-add: add runs addTodoForOwner and its renderer prints "Created <id>: <title>", exit 0', async () => {
  const { code, stdout } = await runs.add
  assert.equal(code, 0)
  assert.match(stdout, /^Created [0-9a-f-]{36}: Renew the domain\n$/)
})

test('todos-missing-argument: add without its <title> prints the error to stderr and exits 1', async () => {
  const { code, stdout, stderr } = await runs.noTitle
  assert.equal(code, 1)
  assert.match(stderr, /Missing required argument: title/)
  assert.doesNotMatch(stdout, /Created/)
})

test('todos-validation: a missing option the function input requires fails schema validation, exit 1', async () => {
  const { code, stderr } = await runs.noOwner
  assert.equal(code, 1)
  assert.match(stderr, /Instance does not have required property "owner"\./)
})

test('todos-error-exit-verbose: a Pikku error (422 validation) prints its message alone and exits 1; --verbose adds a Stack trace line; -v is an unknown short option that stops the run before the command', async () => {
  const verbose = await runs.verbose
  assert.equal(verbose.code, 1)
  // The message on a line of its own, not after `Error:` (the ERROR: line before it is the schema service's log).
  assert.match(verbose.stderr, /^Instance does not have required property "owner"\.$/m)
  assert.doesNotMatch(verbose.stderr, /^Error:/m)
  assert.match(verbose.stderr, /^Stack trace: UnprocessableContentError: Instance does not have required property "owner"\./m)
  const shortV = await runs.shortV
  assert.equal(shortV.code, 1)
  assert.match(shortV.stderr, /Unknown option: -v/)
  assert.doesNotMatch(shortV.stdout + shortV.stderr, /No to-dos|Stack trace/)
})

test('todos-unknown-command: an unknown command prints the usage and exits 1', async () => {
  const { code, stdout, stderr } = await runs.unknown
  assert.equal(code, 1)
  assert.match(stdout + stderr, /Usage: todos <command> \[options\]/)
})

test('todos-unknown-option: an unknown long option is ignored with a warning on stderr; an unknown short one is an error', async () => {
  const long = await runs.unknownLong
  assert.equal(long.code, 0)
  assert.equal(long.stdout, 'No to-dos.\n')
  assert.match(long.stderr, /Warning: Unknown option: --shade \(ignored\)/)
  const short = await runs.unknownShort
  assert.equal(short.code, 1)
  assert.match(short.stderr, /Unknown option: -x/)
})

test('todos-unknown-option-takes-value: an unknown long option without = takes the next argument as its value, so before the title it leaves add without one', async () => {
  const { code, stdout, stderr } = await runs.unknownBeforeTitle
  assert.equal(code, 1)
  assert.match(stderr, /Warning: Unknown option: --urgent \(ignored\)/)
  assert.match(stderr, /Missing required argument: title/)
  assert.doesNotMatch(stdout, /Created/)
})

test('todos-unknown-option-not-ignored: an unknown option named like an input field reaches the function, and --json switches to JSON, both under the "(ignored)" warning', async () => {
  // command-parser.ts keeps the value of an unknown option; pluckCLIData in cli-runner.ts passes every key of the
  // input schema, and the options are spread after the positionals. runCLICommand reads data.json itself.
  const field = await runs.unknownInputField
  assert.equal(field.code, 0)
  assert.match(field.stderr, /Warning: Unknown option: --title \(ignored\)/)
  assert.match(field.stdout, /^Created [0-9a-f-]{36}: Renew the lease\n$/)
  const json = await runs.unknownJson
  assert.equal(json.code, 0)
  assert.match(json.stderr, /Warning: Unknown option: --json \(ignored\)/)
  assert.equal(json.stdout, '[]\n')
})

// This test waits for the first pikku run, started in `before` beside the file's other processes; on a loaded machine
// that run alone has taken over the suite's 120 s test timeout, so this test gets twice that.
test('pku410-fails-build: plain pikku all (no --fail-on-error) reports PKU410 and PKU411 and exits non-zero', { timeout: 240_000 }, async () => {
  const { code, stdout, stderr } = await runs.pikkuAll
  const output = stdout + stderr
  assert.notEqual(code, 0)
  assert.match(
    output,
    /\[PKU410\] Function 'countDoneTodos' does not destructure its services parameter, preventing tree-shaking optimization\./,
  )
  assert.match(output, /https:\/\/pikku\.dev\/docs\/pikku-cli\/errors\/pku410/)
  assert.match(output, /\[PKU411\] Function 'whoAmI' does not destructure its wires parameter/)
  assert.match(output, /Pikku inspection failed due to critical diagnostics/)
})

test('json-output: pikku all --json writes each coded diagnostic as a JSON line on stderr, but the error that ends the failed run as plain text', async () => {
  const { code, stderr } = await runs.pikkuJson
  assert.notEqual(code, 0)
  const lines = stderr.split('\n').filter((line) => line.trim() !== '')
  const parse = (line: string): Record<string, unknown> | undefined => {
    try {
      return JSON.parse(line) as Record<string, unknown>
    } catch {
      return undefined
    }
  }
  const pku410 = lines.map(parse).find((record) => record?.code === 'PKU410')
  assert.ok(pku410)
  assert.equal(pku410.level, 'critical')
  assert.equal(pku410.url, 'https://pikku.dev/docs/pikku-cli/errors/pku410')
  assert.equal(typeof pku410.message, 'string')
  assert.equal(typeof pku410.timestamp, 'string')
  assert.ok(lines.some((line) => parse(line) === undefined && line.includes('Pikku inspection failed due to critical diagnostics')))
})

test('json-command-error-plain-text: with --json, an error a command throws (the TypeError of a config with no srcDirectories) reaches stderr as plain "Error: ..." text with its stack among the JSON records, exit 1', async () => {
  const { code, stdout, stderr } = await runs.noSrcJson
  // executeCLI of core prints an error that is not a Pikku one as `Error:` and the error with its stack; exit 1.
  assert.equal(code, 1)
  assert.equal(stdout, '')
  assert.match(stderr, /^Error: TypeError: [^\n]+\n {4}at /m)
  const lines = stderr.split('\n').filter((line) => line.trim() !== '')
  const parses = (line: string) => {
    try {
      JSON.parse(line)
      return true
    } catch {
      return false
    }
  }
  assert.ok(lines.some(parses), 'some records are JSON')
  const errorLine = lines.find((line) => line.startsWith("Error: TypeError: Cannot read properties of undefined (reading 'map')"))
  assert.ok(errorLine, stderr)
  assert.equal(parses(errorLine), false)
})

test('config-option-ignored: --config naming the project config, run from a folder outside the project, still searches and fails', async () => {
  // CLI 0.12.113 parses --config into data.config, but createConfig passes data.configFile on (services.ts).
  const { code, stdout, stderr } = await runs.configElsewhere
  assert.notEqual(code, 0)
  assert.match(stdout + stderr, /Config file pikku\.config\.json not found/)
})

// The start of every `pikku` command (CLI 0.12.113), called in this process: core's parseCLIArguments with the CLI's
// own generated metadata, then createConfig of the CLI's services.js with the options it parsed, which sets the level,
// output mode and failing severities of the CLI's logger (a CLILogger, whose setters are watched here) and merges the
// config file into the command's config.
const CLI_DIST = join(APP, 'node_modules', '@pikku', 'cli', 'dist')
const cliStart = async (args: string[], config: Record<string, unknown> = {}) => {
  const { parseCLIArguments } = await import('@pikku/core/cli')
  const cliMeta = JSON.parse(readFileSync(join(CLI_DIST, '.pikku', 'cli', 'pikku-cli-wirings-meta.gen.json'), 'utf8'))
  const { createConfig } = await import(join(CLI_DIST, 'src', 'services.js'))
  const { CLILogger } = await import(join(CLI_DIST, 'src', 'services', 'cli-logger.service.js'))
  const parsed = parseCLIArguments(args, 'pikku', cliMeta)
  const dir = runTempDir('cli-start')
  const calls: Record<string, unknown[]> = {}
  const originals = { setLevel: CLILogger.prototype.setLevel, setFailOn: CLILogger.prototype.setFailOn, setOutputMode: CLILogger.prototype.setOutputMode }
  try {
    writeFileSync(join(dir, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku', ...config }))
    for (const [name, original] of Object.entries(originals)) {
      CLILogger.prototype[name] = function (this: unknown, value: unknown) {
        calls[name] = value === undefined ? [] : [value]
        return original.call(this, value)
      }
    }
    const result = await createConfig({}, { ...parsed.options, configFile: join(dir, 'pikku.config.json') }, parsed.commandPath)
    return { parsed, result, level: calls.setLevel?.[0], failOn: calls.setFailOn?.[0] as string[], outputMode: calls.setOutputMode?.[0] }
  } finally {
    Object.assign(CLILogger.prototype, originals)
    rmSync(dir, { recursive: true, force: true })
  }
}

test('option-spellings: the pikku CLI takes each option in kebab-case or in camelCase, to the same value', async () => {
  const pairs: Array<[string[], string[], string, unknown]> = [
    [['all', '--fail-on-error'], ['all', '--failOnError'], 'failOnError', true],
    [['all', '--strict-meta'], ['all', '--strictMeta'], 'strictMeta', true],
    [['all', '--state-output', 's.json'], ['all', '--stateOutput', 's.json'], 'stateOutput', 's.json'],
    [['all', '--user-session-type', 'Session'], ['all', '--userSessionType', 'Session'], 'userSessionType', 'Session'],
  ]
  const { parseCLIArguments } = await import('@pikku/core/cli')
  const cliMeta = JSON.parse(readFileSync(join(CLI_DIST, '.pikku', 'cli', 'pikku-cli-wirings-meta.gen.json'), 'utf8'))
  for (const [kebab, camel, key, value] of pairs) {
    const a = parseCLIArguments(kebab, 'pikku', cliMeta)
    const b = parseCLIArguments(camel, 'pikku', cliMeta)
    assert.equal(a.options[key], value, kebab.join(' '))
    assert.deepEqual(b.options, a.options, camel.join(' '))
    assert.deepEqual([...a.errors, ...a.warnings, ...b.errors, ...b.warnings], [])
  }
})

test('strict-meta-pku154: with strictMeta (the --strictMeta flag) an agent tool whose function has no description is a critical PKU154, which stops the run; without it nothing is reported', async () => {
  const files = {
    'probe.functions.ts': [
      "import { pikkuSessionlessFunc } from '#pikku/function'",
      'export const undocumented = pikkuSessionlessFunc<void, void>({ func: async () => {} })',
      "export const documented = pikkuSessionlessFunc<void, void>({ description: 'Does nothing', func: async () => {} })",
    ].join('\n'),
    'probe.agent.ts': [
      "import { pikkuAgent } from '#pikku/agent'",
      "import { documented, undocumented } from './probe.functions.js'",
      "export const probeAgent = pikkuAgent({ name: 'probe-agent', description: 'probe', goal: 'probe', model: 'openai/gpt-4o-mini', tools: [undocumented, documented] })",
    ].join('\n'),
  }
  const strict = await inspectFiles('strict-meta-on', files, { strictMeta: true })
  assert.deepEqual(codes(strict.reported).filter((c) => c.startsWith('PKU154')), ['PKU154 critical'])
  const plain = await inspectFiles('strict-meta-off', files)
  assert.deepEqual(codes(plain.reported).filter((c) => c.startsWith('PKU154')), [])
  // The flag reaches the config that services.ts hands the inspector as strictMeta.
  assert.equal((await cliStart(['all', '--strict-meta'])).result.strictMeta, true)
})

test('log-level-ignored: -l, --logLevel and --log-level leave the CLI at info; --loglevel, warned about as unknown, sets the level', async () => {
  const { LogLevel } = await import('@pikku/core/services')
  for (const args of [['all', '-l', 'error'], ['all', '--logLevel', 'error'], ['all', '--log-level', 'debug']]) {
    const { parsed, level } = await cliStart(args)
    assert.equal(parsed.options.logLevel, args[2])
    assert.deepEqual(parsed.warnings, [])
    assert.equal(level, LogLevel.info, args.join(' '))
  }
  const lower = await cliStart(['all', '--loglevel', 'debug'])
  assert.equal(lower.level, LogLevel.debug)
  assert.equal(lower.parsed.warnings.length, 1)
  assert.match(lower.parsed.warnings[0], /^Unknown option: --loglevel \(ignored\)/)
})

test('output-json-stderr: --output json and --json put the logger in JSON mode, whose records go to stderr and none to stdout', async () => {
  assert.equal((await cliStart(['all', '--output', 'json'])).outputMode, 'json')
  assert.equal((await cliStart(['all', '--json'])).outputMode, 'json')
  const { CLILogger } = await import(join(CLI_DIST, 'src', 'services', 'cli-logger.service.js'))
  const logger = new CLILogger({ logLogo: false })
  logger.setOutputMode('json')
  const written: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' }
  const originals = { stdout: process.stdout.write, stderr: process.stderr.write }
  const originalLog = console.log
  try {
    process.stdout.write = ((chunk: string) => ((written.stdout += chunk), true)) as never
    process.stderr.write = ((chunk: string) => ((written.stderr += chunk), true)) as never
    console.log = (...parts: unknown[]) => void (written.stdout += parts.join(' '))
    logger.info('Generated in 1ms')
    logger.diagnostic({ severity: 'error', code: 'PKU463', message: 'probe' })
  } finally {
    process.stdout.write = originals.stdout
    process.stderr.write = originals.stderr
    console.log = originalLog
  }
  assert.equal(written.stdout, '')
  const records = written.stderr.trim().split('\n').map((line) => JSON.parse(line))
  assert.deepEqual(records.map((record) => record.level), ['info', 'error'])
  // A real `pikku all --json` run: nothing on stdout is a record.
  const real = await runs.pikkuJson
  assert.ok(real.stdout.split('\n').every((line) => !line.trim().startsWith('{')), real.stdout)
})

test('fail-on-flags: --failOnError fails on a coded error, --failOnWarn on a coded warn, --failOnCritical false still on a critical; uncoded lines and lint warnings never', async () => {
  const { CLILogger } = await import(join(CLI_DIST, 'src', 'services', 'cli-logger.service.js'))
  const { processDiagnostics } = await import(join(CLI_DIST, 'src', 'services.js'))
  const { pikkuSummary } = await import(join(CLI_DIST, 'src', 'functions', 'commands', 'pikku-command-summary.js'))
  // The summary step that ends `pikku all`, with a logger set up as createConfig set up the CLI's for these flags.
  const summaryFails = async (args: string[], record: (logger: InstanceType<typeof CLILogger>) => void) => {
    const logger = new CLILogger({ logLogo: false, silent: true })
    logger.setFailOn((await cliStart(['all', ...args])).failOn)
    record(logger)
    try {
      await pikkuSummary.func({ logger, getInspectorState: async () => ({}) }, undefined, {})
      return undefined
    } catch (error) {
      return (error as Error).message
    }
  }
  const codedError = (logger: InstanceType<typeof CLILogger>) => logger.diagnostic({ severity: 'error', code: 'PKU463', message: 'probe' })
  assert.equal(await summaryFails([], codedError), undefined)
  assert.equal(await summaryFails(['--failOnError'], codedError), 'Pikku inspection failed due to error diagnostics')
  // A red line with no code is not recorded.
  assert.equal(await summaryFails(['--failOnError'], (logger) => logger.error('Handler for pikkuMiddleware is not a function.')), undefined)
  const codedWarn = (logger: InstanceType<typeof CLILogger>) => logger.diagnostic({ severity: 'warn', code: 'PKU951', message: 'probe' })
  assert.equal(await summaryFails(['--failOnError'], codedWarn), undefined)
  assert.equal(await summaryFails(['--failOnWarn'], codedWarn), 'Pikku inspection failed due to warn diagnostics')
  // A lint lowered to 'warn', and a plain warning, are not recorded.
  const lintWarn = (logger: InstanceType<typeof CLILogger>) => {
    processDiagnostics([{ code: 'PKU410', message: 'probe' }], { servicesNotDestructured: 'warn' }, logger)
    logger.warn('a plain warning')
  }
  assert.equal(await summaryFails(['--failOnWarn'], lintWarn), undefined)
  const critical = (logger: InstanceType<typeof CLILogger>) => logger.critical('PKU410', 'probe')
  assert.equal(await summaryFails(['--failOnCritical', 'false'], critical), 'Pikku inspection failed due to critical diagnostics')
  assert.equal(await summaryFails(['--fail-on-critical=false'], critical), 'Pikku inspection failed due to critical diagnostics')
})

test('config-keys-overridden: security, stateInput and filters in pikku.config.json change nothing; the --security and --stateInput flags do', async () => {
  const fromConfig = await cliStart(['all'], { security: true, stateInput: 'state.json', filters: { tags: ['admin'] } })
  assert.equal(fromConfig.parsed.options.security, false)
  assert.equal(fromConfig.result.security, false)
  assert.equal(fromConfig.result.preloadedInspectorState, undefined)
  assert.equal(fromConfig.result.filters.tags, undefined)
  assert.equal((await cliStart(['all', '--security'])).result.security, true)
  // The flag is read: a file that is not there fails the start.
  await assert.rejects(cliStart(['all', '--stateInput', join(ELSEWHERE, 'no-state.json')]), /ENOENT/)
})

test('default-command-needs-no-bare-word: pikku --tags todos prints the usage and exits 1; pikku --tags=todos runs all', async () => {
  // parseCLIArguments in core's command-parser.ts applies an isDefault command only when no argument without a
  // leading '-' remains, and it checks that before it knows which options take a value.
  const spaced = await runs.defaultSpacedValue
  assert.equal(spaced.code, 1)
  assert.match(spaced.stdout, /^Usage: pikku <command> \[options\]/m)
  assert.doesNotMatch(spaced.stdout + spaced.stderr, /Config file/)
  const equals = await runs.defaultEqualsValue
  assert.notEqual(equals.code, 0)
  assert.match(equals.stdout + equals.stderr, /Config file pikku\.config\.json not found/)
})

test('console-command-removed: pikku console is no longer a command: it prints the usage, which lists none, and exits 1', async () => {
  // CLI 0.12.113's cli.wiring.ts has no console command (removed in f14a7dfbe); dev and serve --console mount the console.
  const { code, stdout, stderr } = await runs.consoleCommand
  assert.equal(code, 1)
  assert.match(stdout, /^Usage: pikku <command> \[options\]/m)
  assert.match(stdout, /^ {2}serve {2,}/m)
  assert.doesNotMatch(stdout, /^ {2}console {2,}/m)
  assert.doesNotMatch(stdout + stderr, /Pikku Console/)
})

test('diagnostics-per-inspection: a first run, with no .pikku yet, prints each diagnostic more than once; a later run once', async () => {
  // The first run inspects the project again after writing the generated types, and every inspection reports anew
  // (services.ts getInspectorState calls processDiagnostics after each inspect).
  const cold = await runs.pikkuAll
  const coldCount = (cold.stdout + cold.stderr).match(/\[PKU410\] Function 'countDoneTodos'/g)?.length ?? 0
  assert.ok(coldCount >= 2, `PKU410 printed ${coldCount} time(s) on the first run`)
  const warm = await runs.pikkuJson
  const warmCount = warm.stderr.split('\n').filter((line) => line.includes('"code":"PKU410"')).length
  assert.equal(warmCount, 1)
})

test('state-input-skips-checks: pikku all --stateInput passes a project whose plain run fails on PKU410 and PKU411', async () => {
  const save = await runs.stateSave
  assert.notEqual(save.code, 0)
  assert.match(save.stdout + save.stderr, /Saving inspector state to state\.json/)
  assert.match(save.stdout + save.stderr, /Pikku inspection failed due to critical diagnostics/)
  const load = await runs.stateLoad
  const output = load.stdout + load.stderr
  assert.equal(load.code, 0)
  assert.match(output, /Loading inspector state from state\.json/)
  assert.doesNotMatch(output, /PKU41[01]/)
  assert.doesNotMatch(output, /inspection failed/)
})

test('config-loader-paths: --outDir against rootDir, outDir against the config folder; extends brings the derived paths along; clientFiles and scaffold checks', async () => {
  const { PikkuCLIConfigError } = await import(join(CLI_DIST, 'src', 'utils', 'pikku-cli-config.js'))
  // A relative --outDir is taken from rootDir, not from the working directory (this process's, the app's).
  const flag = await cliStart(['all', '--outDir', 'gen'], { rootDir: './sub' })
  assert.equal(flag.result.outDir, join(flag.result.configDir, 'sub', 'gen'))
  assert.notEqual(process.cwd(), flag.result.rootDir)
  // outDir in the config is taken from the config file's folder, whatever rootDir says.
  const key = await cliStart(['all'], { rootDir: './sub', outDir: './out' })
  assert.equal(key.result.outDir, join(key.result.configDir, 'out'))
  // The flag stands in for a missing outDir key, and the generated paths are derived from it.
  const noKey = await cliStart(['all', '--outDir', 'gen'], { outDir: undefined })
  assert.equal(noKey.result.bootstrapFile, join(noKey.result.configDir, 'gen', 'pikku-bootstrap.gen.ts'))
  // extends: the extended config's generated paths and rootDir come along; this config's outDir moves neither.
  const base = runTempDir('cli-extends-base')
  try {
    writeFileSync(join(base, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku', packageMappings: { a: 'pkg-a' }, schema: { additionalProperties: true } }))
    const child = await cliStart(['all'], { extends: join(base, 'pikku.config.json'), outDir: './mine', packageMappings: { b: 'pkg-b' }, schema: { supportsImportAttributes: false } })
    assert.equal(child.result.outDir, join(child.result.configDir, 'mine'))
    assert.equal(child.result.bootstrapFile, join(base, '.pikku', 'pikku-bootstrap.gen.ts'))
    for (const path of [child.result.functionsFile, child.result.schemaDirectory]) assert.ok(path.startsWith(join(base, '.pikku')), path)
    assert.deepEqual(child.result.schema, { additionalProperties: true, supportsImportAttributes: false })
    assert.equal(child.result.rootDir, base)
    assert.deepEqual(child.result.packageMappings, { a: 'pkg-a', b: 'pkg-b' })
    // Its own relative rootDir is not resolved against its folder: it is joined to itself and stays relative, and so do
    // the paths built on it, such as tsconfig.
    const ownRoot = await cliStart(['all'], { extends: join(base, 'pikku.config.json'), rootDir: './sub' })
    assert.equal(ownRoot.result.rootDir, join('sub', 'sub'))
    assert.equal(ownRoot.result.tsconfig, join('sub', 'sub', 'tsconfig.json'))
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
  // clientFiles: realtimeFile is set beside fetchFile when scaffold.events is on; the old startServerFnsFile is refused.
  const events = await cliStart(['all'], { scaffold: { events: true }, clientFiles: { fetchFile: './client/fetch.gen.ts' } })
  assert.equal(events.result.clientFiles.realtimeFile, join(events.result.configDir, 'client', 'realtime.gen.ts'))
  assert.equal((await cliStart(['all'], { clientFiles: { fetchFile: './client/fetch.gen.ts' } })).result.clientFiles.realtimeFile, undefined)
  await assert.rejects(cliStart(['all'], { clientFiles: { startServerFnsFile: './start.gen.ts' } }), /startServerFnsFile is now clientFiles\.tanstackStartFile/)
  // scaffold: a key other than path is refused, except under webhook and graph.
  await assert.rejects(cliStart(['all'], { scaffold: { rpc: { auth: true } } }), (error: unknown) => error instanceof PikkuCLIConfigError)
  await assert.rejects(cliStart(['all'], { scaffold: { console: { path: 'x.ts', auth: false } } }), (error: unknown) => error instanceof PikkuCLIConfigError)
  assert.deepEqual((await cliStart(['all'], { scaffold: { webhook: { auth: true }, graph: { anything: 1 } } })).result.scaffold, { webhook: { auth: true }, graph: { anything: 1 } })
})

test('config-without-tsconfig: a valid pikku.config.json with no tsconfig key fails to load', async () => {
  const { code, stdout, stderr } = await runs.noTsconfig
  const output = stdout + stderr
  assert.notEqual(code, 0)
  assert.match(output, /The "path" argument must be of type string\. Received undefined/)
  assert.match(output, /Failed to load config file: .*pikku\.config\.json/)
})

test('config-without-outdir: a pikku.config.json with no outDir fails to load, as one with no tsconfig does', async () => {
  // pikku-cli-config.ts derives every generated path with join(result.outDir, ...), which throws on undefined.
  const { code, stdout, stderr } = await runs.noOutDir
  const output = stdout + stderr
  assert.notEqual(code, 0)
  assert.match(output, /The "path" argument must be of type string\. Received undefined/)
  assert.match(output, /Failed to load config file: .*pikku\.config\.json/)
})

test('config-without-src-directories: a config with no srcDirectories loads, then pikku all fails with a TypeError', async () => {
  // The loader gives srcDirectories no default; the first step that maps over it throws.
  const { code, stdout, stderr } = await runs.noSrcDirectories
  const output = stdout + stderr
  assert.notEqual(code, 0)
  assert.doesNotMatch(output, /Failed to load config file/)
  assert.match(output, /TypeError: Cannot read properties of undefined \(reading 'map'\)/)
})

test('watch-diagnostics-stick: once a pass of pikku watch records PKU410, every later pass fails, even after the fix', async () => {
  // The CLI's logger is one object for the life of the process (services.ts) and never clears the diagnostics it has
  // recorded, while the summary step fails whenever one of them is blocking (pikku-command-summary.ts).
  const afterFix = await runs.watchAfterFix
  assert.match(afterFix.stdout, /Pikku inspection failed due to critical diagnostics/)
  assert.match(afterFix.stdout, /Error running watch/)
  assert.doesNotMatch(afterFix.stdout, /\[PKU41[01]\]/)
  // The same files, generated by a fresh process, pass.
  const fresh = await runs.allAfterFix
  assert.equal(fresh.code, 0)
  assert.doesNotMatch(fresh.stdout + fresh.stderr, /PKU41[01]/)
})

test('timing-after-success: with PIKKU_TIMING set, a pikku all that succeeds prints the step timings; one that fails prints none', async () => {
  const passed = await runs.allAfterFix
  assert.equal(passed.code, 0)
  assert.match(passed.stdout, /^\[TIMING\] pikku all — \d+ steps, \d+ms total \(slowest first\):$/m)
  assert.match(passed.stdout, /^\[TIMING\] +\d+ms {2}\S+/m)
  const failed = await runs.pikkuAll
  assert.notEqual(failed.code, 0)
  assert.doesNotMatch(failed.stdout + failed.stderr, /\[TIMING\]/)
})

test('stale-hub-deleted: a pikku all that succeeds deletes a stale .pikku/pikku-types.gen.ts and writes none', async () => {
  const passed = await runs.allAfterFix
  assert.equal(passed.code, 0)
  assert.equal(existsSync(join(COPY, '.pikku', 'pikku-types.gen.ts')), false)
  assert.equal(existsSync(join(COPY, '.pikku', 'function', 'index.ts')), true)
})

// The `pikku db` commands of @pikku/cli 0.12.113: loadUserConfigForDb (db-shared.ts) and resolveDb, reset and
// compileClassifications (db/local-db.ts).
test('db-config-file-name: pikku db reads createConfig only from a config.ts; one in src/services.ts is passed over in silence for the db/sqlite default', async () => {
  const { code, stdout, stderr } = await runs.dbMigrate
  const output = stdout + stderr
  assert.equal(code, 0)
  assert.match(output, /db migrate: applied 0001_todos\.sql/)
  assert.ok(existsSync(join(DB_PROJECT, '.pikku-runtime', 'dev.db')))
  assert.ok(!existsSync(join(DB_PROJECT, 'data', 'app.db')))
  assert.doesNotMatch(output, /createConfig|services\.ts|[Ff]alling back/)
})

test('db-ignores-database-url: pikku db migrate does not read DATABASE_URL', async () => {
  const { code } = await runs.dbMigrate
  assert.equal(code, 0)
  assert.ok(existsSync(join(DB_PROJECT, '.pikku-runtime', 'dev.db')))
  assert.ok(!existsSync(join(DB_PROJECT, 'env.db')))
})

test('db-annotations-error-silent: a db/annotations.ts that does not compile is skipped without a message', async () => {
  const { code, stdout, stderr } = await runs.dbMigrate
  assert.equal(code, 0)
  assert.match(stdout + stderr, /db migrate: regenerated .*schema\.gen\.ts \(1 tables\)/)
  assert.doesNotMatch(stdout + stderr, /annotations/)
  assert.ok(!existsSync(join(DB_PROJECT, 'db', 'annotations.gen.json')))
})

test('db-runtime-dir-sqlite: with runtimeDir set, the default SQLite file stays in .pikku-runtime and pikku db reset refuses it', async () => {
  await runs.dbMigrate
  assert.ok(existsSync(join(DB_PROJECT, '.pikku-runtime', 'dev.db')))
  assert.ok(!existsSync(join(DB_PROJECT, '.rt', 'dev.db')))
  const { code, stdout, stderr } = await runs.dbReset
  assert.notEqual(code, 0)
  assert.match(stdout + stderr, /pikku db reset refused: resolved DB file \(.*\.pikku-runtime[\\/]dev\.db\) is outside the runtime directory/)
  assert.ok(existsSync(join(DB_PROJECT, '.pikku-runtime', 'dev.db')))
})

test('db-no-config-exit-0: with no config.ts and no db folder, pikku db migrate prints an error and exits 0', async () => {
  const { code, stdout, stderr } = await runs.dbBare
  assert.equal(code, 0)
  assert.match(stdout + stderr, /createConfig must be defined in your project/)
  assert.ok(!existsSync(join(DB_BARE, '.pikku')))
})

test('meta-context-stdout-logo: pikku meta context prints the logo on stdout before its JSON; with --json stdout is the JSON alone', async () => {
  const text = await runs.metaText
  assert.equal(text.code, 0)
  assert.match(text.stdout, /^\n◇◆ pikku ::/)
  assert.throws(() => JSON.parse(text.stdout))
  const json = await runs.metaJson
  assert.equal(json.code, 0)
  assert.equal(JSON.parse(json.stdout).schemaVersion, 'meta-context.v1')
})

test('meta-wires-function-id: a scheduled task and a queue worker list their own name as functionId, and capabilities.mcp stays false', async () => {
  // meta.ts wiresByType reads the keys of scheduledTasks.meta and queueWorkers.meta, which the inspector keys by the
  // wiring's name (add-schedule.ts, add-queue-worker.ts); capabilities.mcp reads state.mcp, which InspectorState lacks.
  const context = JSON.parse((await runs.metaJson).stdout)
  assert.deepEqual(context.wires.scheduler, [{ id: 'daily-digest', functionId: 'daily-digest', cron: '0 8 * * *' }])
  assert.deepEqual(context.wires.queue, [{ id: 'digest-queue', functionId: 'digest-queue', queueName: null }])
  assert.equal(context.functions[0].id, 'sendDigest')
  assert.equal(context.capabilities.mcp, false)
})

test('info-verbose-types: pikku info functions --verbose lists mcp but not scheduler or queue for a function wired to both', async () => {
  const { code, stdout } = await runs.infoVerbose
  assert.equal(code, 0)
  const row = stdout.split('\n').find((line) => line.startsWith('sendDigest '))
  assert.ok(row)
  assert.match(row, /\bmcp\b/)
  assert.doesNotMatch(row, /scheduler|queue/)
  // --verbose is also the CLI's own verbose flag, so the inspector's debug lines come first.
  assert.match(stdout, /Inspector took \d+ms/)
})

test('validate-exit-0: pikku validate lists errors, among them a missing packages/functions/ folder, the console, rpc, agent and workflow scaffolds and a #pikku import, and still exits 0', async () => {
  const { code, stdout } = await runs.validate
  assert.equal(code, 0)
  assert.match(stdout, /✗ {2}packages\/functions\/ directory not found/)
  assert.match(stdout, /✗ {2}src\/barrel\.ts imports '#pikku'/)
  // The project's config has no scaffold block: each of these four is an error, not a warning.
  for (const key of ['console', 'rpc', 'agent', 'workflow']) {
    assert.match(stdout, new RegExp(`✗ {2}pikku\\.config\\.json scaffold is missing "${key}"`))
  }
  assert.match(stdout, /\d+ errors/)
})

test('skills-install-skips-existing: pikku skills install leaves a skill folder that is already there; --update rewrites its files and deletes none', async () => {
  // An empty folder outside any project: `skills` is one of the CLI's config-free commands (services.ts).
  const dir = runTempDir('cli-skills')
  try {
    const skill = join(dir, '.claude', 'skills', 'pikku-cli')
    const first = await run([PIKKU, 'skills', 'install', '--only', 'pikku-cli'], dir)
    assert.equal(first.code, 0)
    assert.match(first.stdout, /Installed 1 skill\(s\) into \.claude\/skills\//)
    writeFileSync(join(skill, 'SKILL.md'), 'edited\n')
    writeFileSync(join(skill, 'stale.md'), 'left over\n')
    const again = await run([PIKKU, 'skills', 'install', '--only', 'pikku-cli'], dir)
    assert.equal(again.code, 0)
    assert.match(again.stdout, /Installed 0 skill\(s\) into \.claude\/skills\/ \(skipped 1 already present/)
    assert.equal(readFileSync(join(skill, 'SKILL.md'), 'utf8'), 'edited\n')
    const update = await run([PIKKU, 'skills', 'install', '--only', 'pikku-cli', '--update'], dir)
    assert.equal(update.code, 0)
    assert.notEqual(readFileSync(join(skill, 'SKILL.md'), 'utf8'), 'edited\n')
    assert.ok(existsSync(join(skill, 'stale.md')))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('deploy-default-provider: the parser fills in -p cloudflare for pikku deploy, so deploy.defaultProvider in the config is never reached', async () => {
  const { parseCLIArguments } = await import('@pikku/core/cli')
  const cliMeta = JSON.parse(readFileSync(join(CLI_DIST, '.pikku', 'cli', 'pikku-cli-wirings-meta.gen.json'), 'utf8'))
  const { resolveProvider } = await import(join(CLI_DIST, 'src', 'functions', 'commands', 'deploy-apply.js'))
  const parsed = parseCLIArguments(['deploy', 'plan'], 'pikku', cliMeta)
  assert.equal(parsed.options.provider, 'cloudflare')
  // Which provider resolveProvider picks shows in its refusal when the config lists no such provider.
  const config = { deploy: { defaultProvider: 'standalone', providers: { standalone: '@pikku/no-such-package' } } }
  await assert.rejects(resolveProvider(config, parsed.options.provider, {}), /Unknown deploy provider: 'cloudflare'/)
})

test('deploy-failure-exit-0: pikku deploy apply --from-plan whose provider reports a failed deploy logs the errors, writes success: false to the result file and returns normally, leaving no exit code', async () => {
  // The command's function of @pikku/cli 0.12.113 called in this process (bin/pikku.js exits with process.exitCode ?? 0
  // once it returns), with a provider loaded from a data: URL through deploy.providers, as the CLI's own tests do.
  const root = runTempDir('cli-deploy-exit')
  const { deployApply } = await import(join(APP, 'node_modules', '@pikku', 'cli', 'dist', 'src', 'functions', 'commands', 'deploy-apply.js'))
  const exitCode = process.exitCode
  try {
    mkdirSync(join(root, '.deploy', 'fake'), { recursive: true })
    writeFileSync(join(root, '.deploy', 'fake', 'infra.json'), '{}')
    const adapter = `export const createAdapter = () => ({ name: 'fake', deployDirName: 'fake', generateEntrySource: () => '', generateUnitConfigs: () => new Map(), generateInfraManifest: () => null, deploy: async () => ({ success: false, errors: [{ step: 'upload', error: 'refused' }] }) })`
    const { logger, lines } = recordingLogger()
    const resultFile = join(root, 'result.json')
    const config = { rootDir: root, deploy: { providers: { fake: `data:text/javascript,${encodeURIComponent(adapter)}` } } }
    await deployApply.func({ logger, config }, { provider: 'fake', fromPlan: true, resultFile })
    const errors = lines.filter((line) => line.level === 'error').map((line) => line.text)
    assert.deepEqual(errors, ['Deployment finished with 1 error(s):', '  upload: refused'])
    assert.equal(JSON.parse(readFileSync(resultFile, 'utf8')).success, false)
    assert.equal(process.exitCode, exitCode)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

test('scaffold-path-deletes-files: before it generates anything, pikku all deletes the file a scenarios path names, and a file named like a surface file one folder above that file\'s folder', async () => {
  // The first two steps of @pikku/cli 0.12.113's `pikku all` (all.workflow.js calls pruneLegacyScaffoldFiles, then
  // removeRetiredScaffoldFiles, before any inspection), called in this process on the config its own loader resolves.
  const root = runTempDir('cli-scaffold-path')
  const utils = join(APP, 'node_modules', '@pikku', 'cli', 'dist', 'src', 'utils')
  const { getPikkuCLIConfig } = await import(join(utils, 'pikku-cli-config.js'))
  const { pruneLegacyScaffoldFiles, removeRetiredScaffoldFiles } = await import(join(utils, 'remove-legacy-scaffold-file.js'))
  try {
    mkdirSync(join(root, 'src', 'realtime'), { recursive: true })
    writeFileSync(join(root, 'tsconfig.json'), '{}')
    const scaffold = { events: { path: 'src/realtime/events.ts' }, scenarios: { path: 'src/scenarios.ts' } }
    writeFileSync(join(root, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['src'], outDir: '.pikku', scaffold }))
    // Two files of the project's own, neither of them generated.
    writeFileSync(join(root, 'src', 'events.ts'), 'export const mine = 1\n')
    writeFileSync(join(root, 'src', 'scenarios.ts'), 'export const mine = 2\n')
    const { logger } = recordingLogger()
    const config = await getPikkuCLIConfig(logger, join(root, 'pikku.config.json'), [])
    assert.equal(config.eventsChannelFile, join(root, 'src', 'realtime', 'events.ts'))
    await pruneLegacyScaffoldFiles(config)
    assert.equal(existsSync(join(root, 'src', 'events.ts')), false)
    assert.equal(existsSync(join(root, 'src', 'scenarios.ts')), true)
    await removeRetiredScaffoldFiles(config)
    assert.equal(existsSync(join(root, 'src', 'scenarios.ts')), false)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

// The filter step of `pikku all` (CLI 0.12.113, inspector 0.12.63), called in this process: parseCLIFilters turns the
// command-line lists into filters and filterInspectorState narrows the inspected state with them, as services.js does.
// The state is a hand-made slice of the to-do app's: two routes, the todo-reminders queue worker and a function reached
// only by an rpc.invoke of listTodos.
const filterAppSlice = async (args: Record<string, string | string[]>, config: Record<string, unknown> = {}, rpc: Record<string, unknown> = {}) => {
  const { parseCLIFilters } = await import(join(APP, 'node_modules', '@pikku', 'cli', 'dist', 'src', 'utils', 'parse-cli-filters.js'))
  const { filterInspectorState } = await import(join(APP, 'node_modules', '@pikku', 'inspector', 'dist', 'index.js'))
  const fn = (services: string[] = [], tags?: string[]) => ({ services: { optimized: true, services }, tags })
  const functions: Record<string, object> = { listTodos: fn(), addTodo: fn(), sendReminder: fn(), countTodos: fn(['todoStore'], ['todos']) }
  const route = (pikkuFuncId: string, method: string, tags?: string[]) => ({ pikkuFuncId, route: '/todos', method, tags, sourceFile: '/app/src/todos.http.ts' })
  const state = {
    functions: { meta: functions, files: new Map(Object.keys(functions).map((id) => [id, { path: `/app/src/functions/${id}.ts`, exportedName: id }])) },
    http: { meta: { get: { '/todos': route('listTodos', 'get', ['todos']) }, post: { '/todos': route('addTodo', 'post') }, put: {}, patch: {}, delete: {}, head: {}, options: {} }, files: new Set(['/app/src/todos.http.ts']), routeMiddleware: new Map() },
    workflows: { graphMeta: {}, meta: {} },
    channels: { meta: {}, files: new Set() },
    triggers: { meta: {}, files: new Set() },
    scheduledTasks: { meta: {}, files: new Set() },
    queueWorkers: { meta: { 'todo-reminders': { name: 'todo-reminders', pikkuFuncId: 'sendReminder', sourceFile: '/app/src/wirings/reminders.queue.ts' } }, files: new Set(['/app/src/wirings/reminders.queue.ts']) },
    mcpEndpoints: { toolsMeta: {}, resourcesMeta: {}, promptsMeta: {}, files: new Set() },
    agents: { agentsMeta: {}, files: new Map() },
    scorers: { scorersMeta: {}, files: new Map() },
    rpc: {
      internalMeta: { countTodos: 'countTodos' }, internalFiles: new Map([['countTodos', { path: '/app/src/functions/countTodos.ts', exportedName: 'countTodos' }]]),
      exposedMeta: {}, exposedFiles: new Map(), remoteMeta: {}, remoteFiles: new Map(),
      invokedFunctions: new Set(['countTodos']), invokedFunctionsByFile: new Map([['/app/src/functions/listTodos.ts', new Set(['countTodos'])]]),
      wireAddonDeclarations: new Map(), usedAddons: new Set(),
      ...rpc,
    },
    cli: { meta: { programs: {}, renderers: {} }, files: new Set() },
    serviceAggregation: { requiredServices: new Set(), usedFunctions: new Set(), usedMiddleware: new Set(), usedPermissions: new Set(), allSingletonServices: [], allWireServices: [] },
    middleware: { definitions: {}, tagMiddleware: new Map() },
    permissions: { definitions: {} },
    wireServicesMeta: new Map(),
    // The document the inspector builds, before any filter, when openAPI is set (inspector.ts).
    openAPISpec: { openapi: '3.0.0', paths: { '/todos': { get: { operationId: 'listTodos' }, post: { operationId: 'addTodo' } } } },
  }
  const { logger } = recordingLogger()
  const filtered = filterInspectorState(state, parseCLIFilters(args, config), logger)
  return {
    routes: Object.entries(filtered.http.meta as Record<string, Record<string, unknown>>).flatMap(([method, routes]) => Object.keys(routes).map((path) => `${method} ${path}`)),
    queueWorkers: Object.keys(filtered.queueWorkers.meta),
    functions: Object.keys(filtered.functions.meta),
    rpcFiles: [...(filtered.rpc.internalFiles as Map<string, unknown>).keys()],
    requiredServices: [...(filtered.serviceAggregation.requiredServices as Set<string>)],
    addons: [...(filtered.rpc.wireAddonDeclarations as Map<string, unknown>).keys()],
    openAPIOperations: Object.values((filtered.openAPISpec as { paths: Record<string, Record<string, { operationId: string }>> }).paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId)),
  }
}

test('manifest-unused-function: the app\'s emailReminder, wired nowhere, destructures notifier, yet the generated manifest marks notifier false', () => {
  const source = readFileSync(join(APP, 'src', 'functions', 'reminder-email.functions.ts'), 'utf8')
  assert.match(source, /func: async \(\{ todoStore, notifier \}/)
  const manifest = readFileSync(join(APP, '.pikku', 'pikku-services.gen.ts'), 'utf8')
  assert.match(manifest, /^ {2}'notifier': false,$/m)
  assert.match(manifest, /^ {2}'todoStore': true,$/m)
  const meta = JSON.parse(readFileSync(join(APP, '.pikku', 'function', 'pikku-functions-meta.gen.json'), 'utf8'))
  assert.ok(meta.emailReminder, 'the inspector found emailReminder')
})

test('filter-keeps-invoked-addon: an rpc.invoke(\'mail:send\') in the file of a kept function keeps the mail addon; when that function is dropped, the addon goes too', async () => {
  const addon = {
    wireAddonDeclarations: new Map([['mail', { package: '@acme/mail' }]]),
    usedAddons: new Set(['mail']),
    invokedFunctionsByFile: new Map([['/app/src/functions/listTodos.ts', new Set(['countTodos', 'mail:send'])]]),
  }
  const kept = await filterAppSlice({ tags: ['todos'] }, {}, addon)
  assert.deepEqual(kept.routes, ['get /todos'])
  assert.deepEqual(kept.addons, ['mail'])
  const dropped = await filterAppSlice({ names: ['addTodo'] }, {}, addon)
  assert.deepEqual(dropped.routes, ['post /todos'])
  assert.deepEqual(dropped.addons, [])
})

test('filter-keeps-openapi: a filter that drops a route leaves the OpenAPI document as it was, with every operation', async () => {
  const tagged = await filterAppSlice({ tags: ['todos'] })
  assert.deepEqual(tagged.routes, ['get /todos'])
  assert.deepEqual(tagged.openAPIOperations, ['listTodos', 'addTodo'])
  const named = await filterAppSlice({ names: ['sendReminder'] })
  assert.deepEqual(named.routes, [])
  assert.deepEqual(named.openAPIOperations, ['listTodos', 'addTodo'])
})

test('filter-names-wiring-name: --names sendReminder keeps the function but drops its queue worker; --names todo-reminders keeps the worker', async () => {
  const byFunction = await filterAppSlice({ names: ['sendReminder'] })
  assert.deepEqual(byFunction.queueWorkers, [])
  assert.deepEqual(byFunction.functions, ['sendReminder'])
  const byWorker = await filterAppSlice({ names: ['todo-reminders'] })
  assert.deepEqual(byWorker.queueWorkers, ['todo-reminders'])
  assert.deepEqual(byWorker.functions, ['sendReminder'])
  // A route also answers to its wiring id, http:<method>:<route>.
  assert.deepEqual((await filterAppSlice({ names: ['http:get:/todos'] })).routes, ['get /todos'])
  // A trailing * needs at least one more character: listTodos* does not match listTodos.
  assert.deepEqual((await filterAppSlice({ names: ['listTodos*'] })).routes, [])
  assert.deepEqual((await filterAppSlice({ names: ['list*'] })).routes, ['get /todos'])
})

test('filter-http-methods-case: --httpMethods get keeps no route, GET keeps the GET one; neither drops the queue worker', async () => {
  const lower = await filterAppSlice({ httpMethods: ['get'] })
  assert.deepEqual(lower.routes, [])
  assert.deepEqual(lower.queueWorkers, ['todo-reminders'])
  const upper = await filterAppSlice({ httpMethods: ['GET'] })
  assert.deepEqual(upper.routes, ['get /todos'])
  assert.deepEqual(upper.queueWorkers, ['todo-reminders'])
  // The exclude twin has the same blind spot: a lower-case method drops nothing.
  assert.deepEqual((await filterAppSlice({ excludeHttpMethods: ['get'] })).routes, ['get /todos', 'post /todos'])
  // A route pattern that matches no route keeps no route, and still keeps the queue worker.
  const noRoute = await filterAppSlice({ httpRoutes: ['/nothing'] })
  assert.deepEqual(noRoute.routes, [])
  assert.deepEqual(noRoute.queueWorkers, ['todo-reminders'])
})

test('filter-directories: --directories narrows HTTP routes by their function\'s file and keeps the queue worker; --excludeDirectories drops nothing', async () => {
  const kept = await filterAppSlice({ directories: ['functions/listTodos'] })
  assert.deepEqual(kept.routes, ['get /todos'])
  assert.deepEqual(kept.queueWorkers, ['todo-reminders'])
  // The worker's own file, src/wirings/, is not under the directory either.
  assert.deepEqual((await filterAppSlice({ directories: ['src/functions'] })).queueWorkers, ['todo-reminders'])
  const excluded = await filterAppSlice({ excludeDirectories: ['functions/listTodos', 'src/wirings'] })
  assert.deepEqual(excluded.routes, ['get /todos', 'post /todos'])
  assert.deepEqual(excluded.queueWorkers, ['todo-reminders'])
})

test('filter-named-joins: --filter joins a named filter\'s lists to the same flags, so a wiring needs one entry of either; lists of different kinds must all match', async () => {
  const config = { namedFilters: { public: { tags: ['todos'] } } }
  assert.deepEqual((await filterAppSlice({ filter: ['public'] }, config)).routes, ['get /todos'])
  // --tags admin alone keeps no route; with the named filter it does not narrow the set, it widens it.
  assert.deepEqual((await filterAppSlice({ tags: ['admin'] })).routes, [])
  assert.deepEqual((await filterAppSlice({ filter: ['public'], tags: ['admin'] }, config)).routes, ['get /todos'])
  // A tag list and a method list: the GET route has the tag, the POST route the method, and neither has both.
  assert.deepEqual((await filterAppSlice({ filter: ['public'], httpMethods: ['POST'] }, config)).routes, [])
})

test('filter-drops-invoked-function: --wires http drops a function that a kept route function reaches only by rpc.invoke', async () => {
  const unfiltered = await filterAppSlice({})
  assert.deepEqual(unfiltered.rpcFiles, ['countTodos'])
  const http = await filterAppSlice({ wires: ['http'] })
  assert.deepEqual(http.routes, ['get /todos', 'post /todos'])
  assert.deepEqual(http.functions, ['listTodos', 'addTodo'])
  assert.deepEqual(http.rpcFiles, [])
  // A --tags filter also keeps a function whose own tags match, so a callee tagged like the route stays.
  const tagged = await filterAppSlice({ tags: ['todos'] })
  assert.deepEqual(tagged.routes, ['get /todos'])
  assert.deepEqual(tagged.rpcFiles, ['countTodos'])
  // That direct match judges the function as an rpc wiring, so a --wires list without rpc still drops the tagged callee.
  assert.deepEqual((await filterAppSlice({ wires: ['http'], tags: ['todos'] })).rpcFiles, [])
  assert.deepEqual((await filterAppSlice({ wires: ['http', 'rpc'], tags: ['todos'] })).rpcFiles, ['countTodos'])
})

test('filter-matches-nothing-keeps-functions: a filter that matches no wiring leaves every function in the build, and marks none of their services as needed', async () => {
  const none = await filterAppSlice({ tags: ['no-such-tag'] })
  assert.deepEqual(none.routes, [])
  assert.deepEqual(none.queueWorkers, [])
  assert.deepEqual(none.functions, ['listTodos', 'addTodo', 'sendReminder', 'countTodos'])
  assert.deepEqual(none.rpcFiles, ['countTodos'])
  // ...while the service manifest is worked out from the functions that matched, none, so countTodos's todoStore is
  // not marked as needed; with the route kept by --tags todos it is.
  assert.deepEqual(none.requiredServices, [])
  assert.deepEqual((await filterAppSlice({ tags: ['todos'] })).requiredServices, ['todoStore'])
})

test('n8n-import-files: pikku import n8n needs a pikku.config.json, writes <slug>/<slug>.graph.ts, drops the trigger, maps Set to graph:editFields, ports a Code node, ignores -o, and refuses an unresolved sub-workflow', async () => {
  // A folder outside any project; removed in `finally`. The export: a manual trigger, a Set node, a Code node and a
  // sticky note; the second one calls a workflow by an id that the file does not hold.
  const dir = runTempDir('cli-n8n')
  const node = (name: string, type: string, parameters: object) => ({ id: name, name, type, typeVersion: 1, position: [0, 0], parameters })
  const edge = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] })
  const tidy = {
    name: 'Tidy Up',
    nodes: [
      node('Start', 'n8n-nodes-base.manualTrigger', {}),
      node('Set Fields', 'n8n-nodes-base.set', { assignments: { assignments: [{ id: 'a', name: 'greeting', value: 'hi', type: 'string' }] } }),
      node('Shout', 'n8n-nodes-base.code', { jsCode: 'return [{ json: { loud: $json.greeting.toUpperCase() } }]' }),
      node('Note', 'n8n-nodes-base.stickyNote', { content: 'Says hi' }),
    ],
    connections: { Start: edge('Set Fields'), 'Set Fields': edge('Shout') },
  }
  const callsOther = {
    name: 'Calls Other',
    nodes: [node('Start', 'n8n-nodes-base.manualTrigger', {}), node('Run Other', 'n8n-nodes-base.executeWorkflow', { workflowId: 'xyz123' })],
    connections: { Start: edge('Run Other') },
  }
  try {
    writeFileSync(join(dir, 'tidy.json'), JSON.stringify(tidy))
    writeFileSync(join(dir, 'other.json'), JSON.stringify(callsOther))
    const noConfig = await run([PIKKU, 'import', 'n8n', 'tidy.json'], dir)
    assert.notEqual(noConfig.code, 0)
    assert.match(noConfig.stderr, /Config file pikku\.config\.json not found/)
    assert.equal(existsSync(join(dir, 'tidyUp')), false)

    writeFileSync(join(dir, 'tsconfig.json'), '{}')
    writeFileSync(join(dir, 'pikku.config.json'), JSON.stringify({ tsconfig: './tsconfig.json', outDir: '.pikku', srcDirectories: ['src'] }))
    // -o is also the short form of the global --outDir, so the import's own --out is not set and the files go to the
    // default folder (no scaffold.functionDir here, so the working directory).
    const imported = await run([PIKKU, 'import', 'n8n', 'tidy.json', '-o', 'out'], dir)
    assert.equal(imported.code, 0)
    assert.match(imported.stdout, /Imported "Tidy Up" \(pure-graph\) → 2 file\(s\) in /)
    assert.equal(existsSync(join(dir, 'out')), false)
    const graph = readFileSync(join(dir, 'tidyUp', 'tidyUp.graph.ts'), 'utf8')
    assert.match(graph, /export const tidyUpWorkflow = pikkuWorkflowGraph\(\{\n {2}name: "Tidy Up",\n {2}notes: \["Says hi"\],/)
    assert.match(graph, /setFields: "graph:editFields",\n {4}shout: "codeStubShout",\n {2}\},/)
    assert.doesNotMatch(graph, /start:/)
    const shout = readFileSync(join(dir, 'tidyUp', 'functions', 'codeStubShout.function.ts'), 'utf8')
    assert.match(shout, /^\/\/ @ts-nocheck\n/)
    assert.match(shout, /greeting\.toUpperCase\(\)/)

    const withOut = await run([PIKKU, 'import', 'n8n', 'tidy.json', '--out', 'out'], dir)
    assert.equal(withOut.code, 0)
    assert.ok(existsSync(join(dir, 'out', 'tidyUp', 'tidyUp.graph.ts')))

    const refused = await run([PIKKU, 'import', 'n8n', 'other.json'], dir)
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /Cannot import "Calls Other":\n {2}\[missing-subworkflow\] Node "Run Other" references a subflow that doesn't exist \(n8n id "xyz123"\)/)
    assert.equal(existsSync(join(dir, 'callsOther')), false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

// `pikku tanstack-start` in a small project of its own, inside .behaviour/ (git-ignored): the shim is written once,
// for the two tests below, and the folder is removed in `after`. Only the shim is under test, so its one import, the
// PikkuRPC class of rpcWiringsFile, is a stub here rather than a whole `pikku all`.
const TANSTACK = join(APP, '.behaviour', `cli-tanstack-${process.pid}`)
const TSC = join(APP, 'node_modules', 'typescript', 'bin', 'tsc')
let tanstackShim: Promise<Run> | undefined
const generateTanStackShim = (): Promise<Run> => {
  tanstackShim ??= (async () => {
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'scratch-tanstack', private: true, type: 'module' }),
      'pikku.config.json': JSON.stringify({
        tsconfig: './tsconfig.json',
        srcDirectories: ['./src'],
        outDir: './.pikku',
        clientFiles: { rpcWiringsFile: '.pikku/pikku-rpc.gen.ts', tanstackStartFile: 'src/lib/pikku-start.gen.ts' },
      }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, skipLibCheck: true, types: [] },
        include: ['src'],
      }),
      '.pikku/pikku-rpc.gen.ts': 'export class PikkuRPC {\n  setServerUrl(_serverUrl: string): void {}\n}\n',
    }
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(TANSTACK, path, '..'), { recursive: true })
      writeFileSync(join(TANSTACK, path), text)
    }
    return run([PIKKU, 'tanstack-start'], TANSTACK)
  })()
  return tanstackShim
}
after(() => rmSync(TANSTACK, { recursive: true, force: true }))

test('client-skips: the TanStack Start step skips with a warning when rpcWiringsFile is unset; the realtime step with a debug message only when fetchFile is', async () => {
  const dir = runTempDir('cli-client-skips')
  try {
    const { pikkuTanStackStart } = await import(join(CLI_DIST, 'src', 'functions', 'runtimes', 'tanstack-start', 'pikku-command-tanstack-start.js'))
    const { pikkuRealtime } = await import(join(CLI_DIST, 'src', 'functions', 'wirings', 'realtime', 'pikku-command-realtime.js'))
    const tanstack = recordingLogger()
    const tanstackStartFile = join(dir, 'api.gen.ts')
    await pikkuTanStackStart.func({ logger: tanstack.logger, config: { clientFiles: { tanstackStartFile }, packageMappings: {} } }, undefined, {})
    assert.deepEqual(tanstack.lines.map(({ level }) => level), ['warn'])
    assert.match(tanstack.lines[0].text, /tanstackStartFile is set but rpcWiringsFile is not/)
    assert.equal(existsSync(tanstackStartFile), false)
    const realtime = recordingLogger()
    const realtimeFile = join(dir, 'realtime.gen.ts')
    await pikkuRealtime.func({ logger: realtime.logger, config: { clientFiles: { realtimeFile }, packageMappings: {} } }, undefined, {})
    assert.deepEqual(realtime.lines.map(({ level }) => level), ['debug'])
    assert.equal(existsSync(realtimeFile), false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('tanstack-start-import-meta-env: the makeApi() shim reads import.meta.env, so without a declaration of ImportMeta.env it fails to compile with TS2339; with one it compiles', async () => {
  const generated = await generateTanStackShim()
  assert.equal(generated.code, 0, generated.stdout + generated.stderr)
  const shim = readFileSync(join(TANSTACK, 'src', 'lib', 'pikku-start.gen.ts'), 'utf8')
  assert.match(shim, /const serverUrl = import\.meta\.env\.VITE_API_URL/)
  assert.match(shim, /import \{ PikkuRPC \} from '\.\.\/\.\.\/\.pikku\/pikku-rpc\.gen\.js'/)

  const bare = await run([TSC, '-p', 'tsconfig.json'], TANSTACK)
  assert.notEqual(bare.code, 0)
  assert.match(bare.stdout, /pikku-start\.gen\.ts\(\d+,\d+\): error TS2339: Property 'env' does not exist on type 'ImportMeta'\./)

  // What Vite's client types give a Vite project, written out by hand.
  const declaration = join(TANSTACK, 'src', 'import-meta-env.d.ts')
  writeFileSync(declaration, 'interface ImportMeta {\n  readonly env: { readonly VITE_API_URL?: string }\n}\n')
  try {
    const declared = await run([TSC, '-p', 'tsconfig.json'], TANSTACK)
    assert.equal(declared.code, 0, declared.stdout)
  } finally {
    rmSync(declaration, { force: true })
  }
})

test('tanstack-start-outside-vite: run by Node without Vite, makeApi() throws a TypeError reading VITE_API_URL, not its own "VITE_API_URL is not set" error', async () => {
  const generated = await generateTanStackShim()
  assert.equal(generated.code, 0, generated.stdout + generated.stderr)
  const called = await run(
    ['--import', 'tsx', '-e', "const { makeApi } = await import('./src/lib/pikku-start.gen.ts'); makeApi()", '--input-type=module'],
    TANSTACK,
  )
  assert.notEqual(called.code, 0)
  assert.match(called.stderr, /TypeError: Cannot read properties of undefined \(reading 'VITE_API_URL'\)/)
  assert.doesNotMatch(called.stderr, /VITE_API_URL is not set/)
})

// The severity each code of docs/pikku-cli/errors/index.mdx is reported with. Part one runs the real inspector on a
// small fixture (harness/inspector.ts) and records what it reports; part two reads the
// installed builds of @pikku/inspector and @pikku/cli, call site by call site, since most codes need a project of their
// own to raise; part three runs the CLI's own lint mapping (processDiagnostics in services.ts).
test('pku-severities: the severity the inspector and the CLI give each PKU code the index lists', { timeout: 600_000 }, async () => {
  const { ErrorCode } = await import('@pikku/inspector')
  const { reported } = await inspectFiles('pku-severities', {
    'probe.ts': [
      "import { pikkuSessionlessFunc, wireQueueWorker, wireHTTP } from '@pikku/core'",
      "export const work = pikkuSessionlessFunc<void, void>({ func: async ({ logger }) => { logger.info('x') } })",
      'wireQueueWorker({ func: work })',
      "wireHTTP({ method: 'get', route: '/tagged', func: work, tags: 'todos' as any })",
      "export const open = pikkuSessionlessFunc<void, void>({ expose: true, func: async ({ logger }) => { logger.info('x') } })",
      "export const reads = pikkuSessionlessFunc<void, void>({ func: async ({ secrets }) => { await secrets.getSecret('NOT_DECLARED') } })",
    ].join('\n'),
  })
  assert.deepEqual(reported.map(({ code, severity }) => `${code} ${severity}`).sort(), ['PKU247 critical', 'PKU384 critical', 'PKU574 warn', 'PKU951 warn'])

  const critical = [
    111, 118, 123, 124, 145, 146, 152, 153, 154, 155, 220, 236, 247, 338, 339, 340, 370, 384, 400, 489, 490, 559, 571,
    572, 573, 576, 581, 582, 600, 641, 642, 643, 672, 673, 675, 677, 678, 679, 680, 850, 851, 920, 921, 940, 950,
  ]
  const expected: Record<string, string> = Object.fromEntries(critical.map((n) => [`PKU${n}`, 'critical']))
  Object.assign(expected, {
    PKU480: 'warn', PKU481: 'warn', PKU482: 'warn', PKU483: 'warn', PKU484: 'warn', PKU485: 'warn',
    PKU574: 'warn', PKU575: 'warn', PKU951: 'warn', PKU952: 'warn',
    PKU463: 'error', PKU910: 'error', PKU953: 'error',
    // Reported by `pikku all` (versions-update.ts) as an error; also a manifest error that `pikku versions check` prints.
    PKU861: 'error manifest other',
    // Manifest errors only: `pikku versions check` prints them as guidance, `pikku all` does not report them.
    PKU862: 'manifest other', PKU863: 'manifest other', PKU864: 'manifest other', PKU865: 'manifest other',
    // Lint-mapped: collected as plain diagnostics, given a severity by processDiagnostics (part three).
    PKU410: 'lint other', PKU411: 'lint other', PKU498: 'lint other',
    // Printed outside the mechanism: a plain error or warning line with the code in the text, or a thrown Error.
    PKU456: 'error-line', PKU719: 'warn-line', PKU717: 'message', PKU718: 'message', PKU724: 'thrown', PKU860: 'thrown',
    // Passed to claimSingleDeclaration, which reports it with logger.critical (checked below).
    PKU585: 'other',
  })
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [])
  const builds = [join(APP, 'node_modules/@pikku/inspector/dist'), join(APP, 'node_modules/@pikku/cli/dist')]
  const kindOf = (before: string, after: string) => {
    if (/\.critical\(\s*$/.test(before)) return 'critical'
    const open = before.lastIndexOf('diagnostic({')
    if (open >= 0 && !before.slice(open).includes('})'))
      return /severity: '(\w+)'/.exec(before.slice(open) + after.slice(0, 80))?.[1] ?? 'unknown'
    const inline = /severity: '(\w+)',\s*code: $/.exec(before)
    if (inline) return inline[1]
    if (/logger\.error\(\s*`\[\$\{$/.test(before)) return 'error-line'
    if (/logger\.warn\(\s*`\[\$\{$/.test(before)) return 'warn-line'
    if (/throw new Error\(\s*`\[\$\{$/.test(before)) return 'thrown'
    if (/`\[\$\{$/.test(before)) return 'message'
    if (/diagnostics\.push\(\{\s*code: $/.test(before)) return 'lint'
    if (/errors\.push\(\{\s*code: $/.test(before)) return 'manifest'
    return 'other'
  }
  const found = new Map<string, Set<string>>()
  for (const path of builds.flatMap(walk)) {
    if (path.endsWith('error-codes.js')) continue
    const text = readFileSync(path, 'utf8')
    for (const m of text.matchAll(/ErrorCode\.([A-Z_0-9]+)/g)) {
      const code = (ErrorCode as Record<string, string>)[m[1]]
      if (!found.has(code)) found.set(code, new Set())
      found.get(code)!.add(kindOf(text.slice(Math.max(0, m.index - 300), m.index), text.slice(m.index, m.index + 200)))
    }
  }
  const actual = Object.fromEntries([...found].map(([code, kinds]) => [code, [...kinds].sort().join(' ')]))
  assert.deepEqual(actual, expected)
  assert.deepEqual(Object.values(ErrorCode).sort(), Object.keys(expected).sort())
  const single = readFileSync(join(APP, 'node_modules/@pikku/inspector/dist/utils/single-declaration.js'), 'utf8')
  assert.match(single, /logger\.critical\(code,/)

  const { processDiagnostics } = await import('../../node_modules/@pikku/cli/dist/src/services.js')
  const lines: string[] = []
  const log = {
    warn: (text: string) => void lines.push(`warn ${text}`),
    critical: (code: string) => void lines.push(`critical ${code}`),
  } as Parameters<typeof processDiagnostics>[2]
  const diagnostics = ['PKU410', 'PKU411', 'PKU498'].map((code) => ({ code, message: 'm' })) as Parameters<typeof processDiagnostics>[0]
  processDiagnostics(diagnostics, undefined, log)
  assert.deepEqual(lines.splice(0), ['critical PKU410', 'critical PKU411', 'warn [PKU498] m'])
  processDiagnostics(diagnostics, { servicesNotDestructured: 'warn', wiresNotDestructured: 'off', functionDynamicImport: 'error' }, log)
  assert.deepEqual(lines, ['warn [PKU410] m', 'critical PKU498'])
})

test('more-than-one-type-flags: two session types are told apart by userSessionType; two types extending CoreSingletonServices have no flag; two pikkuServices factories share the type CreateSingletonServices, so naming it picks the first', async () => {
  const { getFilesAndMethods } = await import('@pikku/inspector')
  const types = [
    "import type { CoreConfig, CoreServices, CoreSingletonServices, CoreUserSession } from '@pikku/core/types'",
    'export interface Config extends CoreConfig {}',
    'export interface UserSession extends CoreUserSession { userId: string }',
    'export interface AdminSession extends CoreUserSession { adminId: string }',
    'export interface SingletonServices extends CoreSingletonServices<Config> {}',
    'export interface OtherSingletons extends CoreSingletonServices<Config> {}',
    'export interface Services extends CoreServices<SingletonServices> {}',
  ].join('\n')
  const factory = (name: string) => `import { pikkuServices } from '@pikku/core'\nexport const ${name} = pikkuServices(async (config) => ({ config }) as any)\n`
  const { state } = await inspectFiles('more-than-one', { 'types.ts': types, 'a.ts': factory('createA'), 'b.ts': factory('createB') })
  const found = (options: Record<string, string>) => getFilesAndMethods(state as never, options)
  const plain = found({})
  const errors = [...plain.errors.keys()]
  for (const message of ['More than one CoreUserSession found', 'More than one CoreSingletonServices found', 'More than one CreateSingletonServices found'])
    assert.ok(errors.includes(message), message)
  // The session flag settles its type; no flag reaches the CoreSingletonServices types.
  const flagged = found({ userSessionType: 'UserSession', singletonServicesFactoryType: 'CreateSingletonServices' })
  const flaggedErrors = [...flagged.errors.keys()]
  assert.equal(flagged.result.userSessionType?.type, 'UserSession')
  assert.ok(!flaggedErrors.includes('More than one CoreUserSession found'))
  assert.ok(flaggedErrors.includes('More than one CoreSingletonServices found'))
  // Both factories are of the type CreateSingletonServices: naming it takes the first found, never createB.
  assert.deepEqual(
    [...state.singletonServicesFactories.values()].flat().map(({ variable, type }: { variable: string; type: string | null }) => `${variable} ${type}`).sort(),
    ['createA CreateSingletonServices', 'createB CreateSingletonServices'],
  )
  assert.equal(flagged.result.singletonServicesFactory?.variable, 'createA')
  assert.ok(!flaggedErrors.some((message) => message.includes('CreateSingletonServices')))
})

test('lint-custom-server-bootstrap-warn: the customServerBootstrap lint that pikku validate runs defaults to warn on a start script without pikku serve or dev; off turns it off, error raises it', async () => {
  // runBootstrapChecks is the check that shared-checks.ts adds to the findings of `pikku validate`.
  const { runBootstrapChecks } = await import('../../node_modules/@pikku/cli/dist/src/functions/validate/bootstrap-checks.js')
  const dir = runTempDir('cli-bootstrap-lint')
  try {
    const pkg = { name: 'probe', scripts: { start: 'node dist/server.js' } }
    const severities = async (config: { lint?: Record<string, string> } | null) =>
      ((await runBootstrapChecks(dir, pkg as never, config)) as Array<{ id: string; severity: string }>).map((f) => `${f.id} ${f.severity}`)
    assert.deepEqual(await severities(null), ['custom-server-bootstrap warn'])
    assert.deepEqual(await severities({ lint: {} }), ['custom-server-bootstrap warn'])
    assert.deepEqual(await severities({ lint: { customServerBootstrap: 'off' } }), [])
    assert.deepEqual(await severities({ lint: { customServerBootstrap: 'error' } }), ['custom-server-bootstrap error'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('imports-second-target: a #pikku/* import of a generated file that is not a folder (mcp/mcp.gen.json) fails with ERR_MODULE_NOT_FOUND under plain node and under tsx with the imports map alone; tsx finds it once tsconfig.json repeats the map under paths', async () => {
  const dir = runTempDir('imports')
  try {
    mkdirSync(join(dir, '.pikku', 'mcp'), { recursive: true })
    writeFileSync(join(dir, '.pikku', 'mcp', 'mcp.gen.json'), '{"found":true}')
    const map = { '#pikku/*.js': './.pikku/*.ts', '#pikku/*': ['./.pikku/*/index.ts', './.pikku/*'] }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', imports: map }))
    writeFileSync(join(dir, 'probe.mjs'), "const m = await import('#pikku/mcp/mcp.gen.json', { with: { type: 'json' } })\nconsole.log(JSON.stringify(m.default))\n")
    const tsx = join(APP_DIR, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')
    const plain = await runNode(['probe.mjs'], dir)
    assert.notEqual(plain.code, 0)
    assert.match(plain.output, /ERR_MODULE_NOT_FOUND/)
    const tsxAlone = await runNode(['--import', tsx, 'probe.mjs'], dir)
    assert.notEqual(tsxAlone.code, 0)
    assert.match(tsxAlone.output, /ERR_MODULE_NOT_FOUND/)
    const paths = { '#pikku/*.js': ['./.pikku/*.ts'], '#pikku/*': ['./.pikku/*/index.ts', './.pikku/*'] }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', paths } }))
    const tsxPaths = await runNode(['--import', tsx, 'probe.mjs'], dir)
    assert.equal(tsxPaths.code, 0, tsxPaths.output)
    assert.match(tsxPaths.output, /\{"found":true\}/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
