// The inspector's checks behind a few PKU codes of the CLI error reference, run on small source files with the
// inspector that `pikku all` uses (harness/inspector.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'
import { captureConsole } from './harness/core-probes.js'
import { withEnv } from './harness/env.js'
import { runTempDir } from './harness/temp.js'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { APP_DIR } from './harness/node-process.js'

const CLI_DIST = '../../node_modules/@pikku/cli/dist'

/**
 * The CLI's singleton logger (services.ts) set up by createConfig with `flags`, as `pikku all` sets it up; `reset`
 * clears the diagnostics it recorded and puts the flags back to the defaults, for a test's `finally`.
 */
const cliLogger = async (flags: Record<string, unknown> = {}) => {
  const services = await import(`${CLI_DIST}/src/services.js`)
  const configFile = join(APP_DIR, 'pikku.config.json')
  const configure = (more: Record<string, unknown>) => services.createConfig({}, { configFile, output: 'text', ...more }, ['all'])
  const { logger } = await services.createSingletonServices(await configure(flags))
  const reset = async () => {
    ;(logger as { diagnostics: unknown[] }).diagnostics.length = 0
    await configure({})
  }
  return { logger, configure, reset, processDiagnostics: services.processDiagnostics }
}

/**
 * Two checks that stop a run with a plain error and no PKU code: two types extending CoreUserSession with none named
 * (the inspector's getFilesAndMethods, then the CLI's checkRequiredTypes), and a wireCLI program with two default
 * commands (the inspector's add-cli.ts, which throws while inspecting).
 */
test('plain-error-checks: two CoreUserSession types fail as "Found errors:" then "- More than one CoreUserSession found" unless types.userSessionType names one; two default commands throw "Multiple default commands found in CLI program"; neither message has a PKU code', async () => {
  const { checkRequiredTypes } = await import(`${CLI_DIST}/src/utils/check-required-types.js`)
  const sessions = {
    'a.ts': "import type { CoreUserSession } from '@pikku/core'\nexport interface TeamSession extends CoreUserSession { teamId: string }\n",
    'b.ts': "import type { CoreUserSession } from '@pikku/core'\nexport interface AdminSession extends CoreUserSession { admin: true }\n",
  }
  const refusal = (errors: unknown) => {
    try {
      checkRequiredTypes(errors, { userSessionType: true })
      return 'passes'
    } catch (error) {
      return (error as Error).message
    }
  }
  const two = await inspectFiles('plain-two-sessions', sessions)
  const message = refusal(two.state.filesAndMethodsErrors)
  assert.match(message, /^Found errors:\n- More than one CoreUserSession found\n/)
  assert.doesNotMatch(message, /PKU\d{3}/)
  const named = await inspectFiles('plain-named-session', sessions, { types: { userSessionType: 'TeamSession' } })
  assert.equal(refusal(named.state.filesAndMethodsErrors), 'passes')
  const program = [
    "import { wireCLI, pikkuCLICommand } from '#pikku/cli'",
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    'export const probe = pikkuSessionlessFunc<void, void>({ func: async () => {} })',
    "wireCLI({ program: 'probe', commands: { one: pikkuCLICommand({ func: probe, isDefault: true }), two: pikkuCLICommand({ func: probe, isDefault: true }) } })",
  ].join('\n')
  await assert.rejects(inspectFiles('plain-two-defaults', { 'probe.ts': program }), (error: Error) =>
    /^Multiple default commands found in CLI program "probe"/.test(error.message) && !/PKU\d{3}/.test(error.message))
})

/**
 * The CLI's own build gate, in process: createConfig turns the flags into the logger's fail-on set, the logger records
 * diagnostics, and pikkuSummary, the last step of `pikku all`, throws when one blocks. Diagnostics are added one
 * severity at a time, with the flags set again before each check.
 */
test('fail-on-gate: critical blocks whatever the flags (--fail-on-critical=false too); error only with --fail-on-error or --fail-on-warn; warn only with --fail-on-warn; the error names each blocking severity found, comma-separated', async () => {
  const { pikkuSummary } = await import(`${CLI_DIST}/src/functions/commands/pikku-command-summary.js`)
  const { logger, configure, reset } = await cliLogger()
  const gate = async (flags: Record<string, unknown>) => {
    await configure({ silent: true, ...flags })
    try {
      await pikkuSummary.func({ logger, getInspectorState: async () => ({}) }, undefined, {})
      return 'passes'
    } catch (error) {
      return (error as Error).message
    }
  }
  const add = (severity: string, code: string) => captureConsole(() => logger.diagnostic({ severity, code, message: 'probe' }))
  const failed = (gap: string) => `Pikku inspection failed due to ${gap} diagnostics`
  try {
    assert.equal(await gate({}), 'passes')
    await add('warn', 'PKU574')
    assert.deepEqual([await gate({}), await gate({ failOnError: true }), await gate({ failOnWarn: true })], ['passes', 'passes', failed('warn')])
    await add('error', 'PKU953')
    assert.deepEqual(
      [await gate({}), await gate({ failOnError: true }), await gate({ failOnWarn: true })],
      ['passes', failed('error'), failed('warn, error')],
    )
    await add('critical', 'PKU384')
    assert.deepEqual(
      [await gate({}), await gate({ failOnCritical: false }), await gate({ failOnError: true }), await gate({ failOnWarn: true })],
      [failed('critical'), failed('critical'), failed('critical, error'), failed('critical, warn, error')],
    )
  } finally {
    await reset()
  }
})

/**
 * The two other commands that look at diagnostics, in process with the CLI logger: bootstrap.ts (its own critical
 * check, with process.exit stubbed to record the code) and versions-check.ts (over a stubbed inspector state).
 */
test('bootstrap-and-versions-check: pikku bootstrap exits 1 on a recorded critical and not on an error even under --fail-on-warn; versions check passes over a recorded critical, throws [PKU860] with no manifest, and on manifest errors prints guidance lines without the code and throws "Version check failed."', async () => {
  const { bootstrap } = await import(`${CLI_DIST}/src/functions/commands/bootstrap.js`)
  const { pikkuVersionsCheck } = await import(`${CLI_DIST}/src/functions/commands/versions-check.js`)
  const { logger, configure, reset } = await cliLogger()
  const exit = process.exit
  const exits: unknown[] = []
  const runBootstrap = async () => {
    await bootstrap.func({ logger, getInspectorState: async () => ({}) }, undefined, { rpc: { invoke: async () => undefined } })
    return exits.splice(0)
  }
  const lines: string[] = []
  const recorder = { info: (line: string) => void lines.push(line) }
  const check = async (errors: unknown[], initial: unknown = { manifestVersion: 1, contracts: {} }, log: object = recorder) => {
    const state = { manifest: { initial, errors } }
    try {
      await pikkuVersionsCheck.func({ logger: log, config: { rootDir: APP_DIR }, getInspectorState: async () => state }, undefined, {})
      return 'passes'
    } catch (error) {
      return (error as Error).message
    }
  }
  try {
    process.exit = ((code?: number) => void exits.push(code)) as typeof process.exit
    await configure({ silent: true, failOnWarn: true })
    await captureConsole(() => logger.diagnostic({ severity: 'error', code: 'PKU953', message: 'probe' }))
    assert.deepEqual(await runBootstrap(), [])
    await captureConsole(() => logger.diagnostic({ severity: 'critical', code: 'PKU384', message: 'probe' }))
    assert.deepEqual(await runBootstrap(), [1])
    let clean = ''
    await captureConsole(async () => void (clean = await check([], undefined, logger)))
    assert.deepEqual([logger.hasCriticalErrors(), clean], [true, 'passes'])
    assert.match(await check([], null), /^\[PKU860\] Version manifest not found/)
    const modified = { code: 'PKU861', message: 'probe', functionKey: 'getTodo', version: 1, previousInputHash: 'aaaaaaaa1', currentInputHash: 'bbbbbbbb2' }
    const gap = { code: 'PKU864', message: 'probe', functionKey: 'getTodo', version: 3, latestVersion: 1, expectedNextVersion: 2 }
    assert.equal(await check([modified, gap]), 'Version check failed.')
    assert.ok(lines.some((line) => line.startsWith('✗ getTodo@v1')))
    assert.ok(lines.some((line) => line.startsWith('✗ getTodo@v3')))
    assert.deepEqual(lines.filter((line) => /PKU\d{3}/.test(line)), [])
  } finally {
    process.exit = exit
    await reset()
  }
})

/**
 * The manifest check behind PKU861 to PKU865 (validateContracts in the inspector's contract-hashes.ts), run on a
 * versions.pikku.json manifest for getTodo and the contracts the code declares, each as input and output hashes.
 */
test('manifest-codes: a changed recorded version is PKU861; an unrecorded version at or below latest PKU863; one past the next PKU864; latest above the highest recorded version PKU865; code at a latest with no recorded entry PKU862, never alone but with PKU863', async () => {
  const { validateContracts } = await import('../../node_modules/@pikku/inspector/dist/utils/contract-hashes.js' as string)
  const recorded = (input: string, output: string) => ({ inputHash: input, outputHash: output })
  const manifest = (latest: number, versions: Record<string, unknown>) => ({ manifestVersion: 1, contracts: { getTodo: { latest, versions } } })
  const inCode = (...versions: Array<[number, string, string]>) =>
    new Map(versions.map(([version, input, output]) => [`getTodo@v${version}`, { functionKey: 'getTodo', version, contractHash: input + output, inputHash: input, outputHash: output }]))
  const check = (man: unknown, contracts: unknown) => (validateContracts(man, contracts).errors as Array<{ code: string }>).map((e) => e.code)
  const two = { 1: recorded('a', 'b'), 2: recorded('c', 'd') }
  assert.deepEqual(check(manifest(2, two), inCode([1, 'a', 'b'], [2, 'c', 'd'])), [])
  assert.deepEqual(check(manifest(2, two), inCode([1, 'a', 'b'], [2, 'x', 'd'])), ['PKU861'])
  assert.deepEqual(check(manifest(2, two), inCode([1, 'x', 'b'], [2, 'c', 'd'])), ['PKU861'])
  assert.deepEqual(check(manifest(2, { 2: recorded('c', 'd') }), inCode([1, 'a', 'b'], [2, 'c', 'd'])), ['PKU863'])
  assert.deepEqual(check(manifest(2, two), inCode([2, 'c', 'd'], [4, 'e', 'f'])), ['PKU864'])
  assert.deepEqual(check(manifest(3, two), inCode([2, 'c', 'd'])), ['PKU865'])
  assert.deepEqual(check(manifest(2, {}), inCode([2, 'c', 'd'])), ['PKU863', 'PKU862'])
  assert.deepEqual(check(manifest(2, { 1: recorded('a', 'b') }), inCode([1, 'a', 'b'], [2, 'c', 'd'])), ['PKU863', 'PKU862', 'PKU865'])
})

/**
 * The database codegen warnings (generateSchemaTypes in the CLI's db/db-codegen.ts), on a fake Postgres introspector and
 * a db/annotations.gen.json in a scratch folder.
 */
test('db-codegen-codes: two tables one name without the default schema (PKU485), a boolean created_at (PKU480), an untyped jsonb (PKU481), format or form on an integer (PKU482, PKU484) and a secret column with no form (PKU483) are each a warn', async () => {
  const { generateSchemaTypes } = await import(`${CLI_DIST}/src/functions/db/db-codegen.js`)
  const root = runTempDir('db-codes')
  try {
    mkdirSync(join(root, 'db'))
    const annotations = { users: { age: { format: 'email' }, pin: { form: 'hashed' }, token: { security: 'secret' } } }
    writeFileSync(join(root, 'db', 'annotations.gen.json'), JSON.stringify(annotations))
    const column = (name: string, type: string) => ({ name, type, nullable: false, hasDefault: false })
    const users = [column('created_at', 'boolean'), column('meta', 'jsonb'), column('age', 'integer'), column('pin', 'integer'), column('token', 'text')]
    const introspector = {
      listTables: async () => ['users', 'app.users'],
      getAllColumns: async () => new Map([['users', users], ['app.users', [column('id', 'text')]]]),
      listEnums: async () => [],
      getAllForeignKeys: async () => new Map(),
    }
    const out = join(root, 'out')
    const result = await generateSchemaTypes(introspector, { outFile: join(out, 'schema.gen.ts'), coercionFile: join(out, 'coerce.gen.ts'), rootDir: root, dialect: 'postgres', defaultSchema: 'app' })
    assert.deepEqual(
      (result.warnings as Array<{ code: string; severity: string }>).map(({ code, severity }) => `${code} ${severity}`).sort(),
      ['PKU480 warn', 'PKU481 warn', 'PKU482 warn', 'PKU483 warn', 'PKU484 warn', 'PKU485 warn'],
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

/**
 * The CLI logger in JSON mode: which flags switch it on (createConfig, and the `-j` short name in the CLI's own
 * generated wiring metadata), and what each kind of line becomes on stdout and stderr.
 */
test('json-mode-records: --json, -j or --output json switch the logger to JSON; then a diagnostic is one record on stderr with level, message, timestamp, code and url, other lines are records without code or url, a lint warning carries its code only in message, and stdout gets nothing', async () => {
  const meta = JSON.parse(readFileSync(join(APP_DIR, 'node_modules/@pikku/cli/dist/.pikku/cli/pikku-cli-wirings-meta.gen.json'), 'utf8'))
  assert.equal(meta.programs.pikku.options.json.short, 'j')
  const { logger, configure, reset, processDiagnostics } = await cliLogger()
  const mode = async (flags: Record<string, unknown>) => (await configure(flags), logger.getOutputMode())
  const stderr: string[] = []
  const stdout: string[] = []
  const [writeErr, writeOut, log] = [process.stderr.write, process.stdout.write, console.log]
  try {
    assert.deepEqual([await mode({}), await mode({ output: 'json' }), await mode({ json: true })], ['text', 'json', 'json'])
    process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write
    process.stdout.write = ((chunk: string) => (stdout.push(String(chunk)), true)) as typeof process.stdout.write
    console.log = (...args: unknown[]) => void stdout.push(args.map(String).join(' '))
    logger.diagnostic({ severity: 'critical', code: 'PKU384', message: 'probe' })
    logger.info('plain info')
    logger.error('plain error')
    processDiagnostics([{ code: 'PKU498', message: 'dynamic' }], { functionDynamicImport: 'warn' }, logger)
  } finally {
    process.stderr.write = writeErr
    process.stdout.write = writeOut
    console.log = log
    await reset()
  }
  assert.deepEqual(stdout, [])
  const records = stderr.map((line) => JSON.parse(line) as Record<string, unknown>)
  assert.deepEqual(
    records.map((r) => [r.level, r.code, r.url, typeof r.message, typeof r.timestamp]),
    [
      ['critical', 'PKU384', 'https://pikku.dev/docs/pikku-cli/errors/pku384', 'string', 'string'],
      ['info', undefined, undefined, 'string', 'string'],
      ['error', undefined, undefined, 'string', 'string'],
      ['warn', undefined, undefined, 'string', 'string'],
    ],
  )
  assert.equal(records[3]!.message, '[PKU498] dynamic')
})

/**
 * Lines printed outside the counted diagnostics, through processDiagnostics and the CLI logger in text mode under
 * --fail-on-warn, with chalk's colours on: a lint left at 'warn' or 'off', and a plain error or warning line carrying
 * a code, the way the CLI writes PKU456 and PKU719.
 */
test('uncounted-lines: a lint set to warn prints one yellow line starting with its code and no link; off prints nothing; neither it nor a plain error or warning line with a code is counted, so --fail-on-warn passes', async () => {
  const { default: chalk } = await import('chalk')
  const level = chalk.level
  const { logger, reset, processDiagnostics } = await cliLogger({ failOnWarn: true })
  try {
    chalk.level = 1
    const diagnostics = [{ code: 'PKU410', message: 'services' }, { code: 'PKU498', message: 'dynamic' }]
    const off = await captureConsole(() => processDiagnostics(diagnostics, { servicesNotDestructured: 'off', functionDynamicImport: 'off' }, logger))
    assert.deepEqual(off, [])
    const warned = await captureConsole(() => processDiagnostics(diagnostics, { servicesNotDestructured: 'warn' }, logger))
    assert.deepEqual(warned, ['\x1B[33m[PKU410] services\x1B[39m', '\x1B[33m[PKU498] dynamic\x1B[39m'])
    await captureConsole(() => {
      logger.error('[PKU456] schema generation failed')
      logger.warn('[PKU719] linked dependency skew')
    })
    assert.deepEqual([logger.hasBlockingDiagnostics(), logger.blockingSeverities()], [false, []])
  } finally {
    chalk.level = level
    await reset()
  }
})

/**
 * The CLI's @pikku/core check (assert-single-core-version.ts, the first step of `pikku all`), on a scratch project
 * holding fake @pikku/core package.json files: two versions, or one outside the CLI's peer range.
 */
test('core-version-guard: two @pikku/core versions throw [PKU717], one outside the peer range throws [PKU718]; with PIKKU_ALLOW_DUPLICATE_CORE or PIKKU_ALLOW_CORE_SKEW set the same message is a plain logger.warn that is not counted', async () => {
  const { assertSingleCoreVersion } = await import(`${CLI_DIST}/src/utils/assert-single-core-version.js`)
  const root = runTempDir('core-guard')
  const core = (dir: string, version: string) => {
    mkdirSync(join(root, dir), { recursive: true })
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify({ name: '@pikku/core', version }))
  }
  const { logger, reset } = await cliLogger({ failOnWarn: true })
  const unset = { PIKKU_ALLOW_DUPLICATE_CORE: undefined, PIKKU_ALLOW_CORE_SKEW: undefined }
  const outcome = async (vars: Record<string, string | undefined>) =>
    withEnv({ ...unset, ...vars }, async () => {
      const warned: string[] = []
      const warnTo = { warn: (message: string) => void warned.push(message) }
      try {
        await assertSingleCoreVersion(root, warnTo)
        return `warned ${warned.map((m) => m.slice(0, 8)).join(',')}`
      } catch (error) {
        return `threw ${(error as Error).message.slice(0, 8)}`
      }
    })
  try {
    core('node_modules/@pikku/core', '999.0.0')
    assert.equal(await outcome({}), 'threw [PKU718]')
    assert.equal(await outcome({ PIKKU_ALLOW_CORE_SKEW: '1' }), 'warned [PKU718]')
    core('node_modules/some-lib/node_modules/@pikku/core', '0.12.90')
    assert.equal(await outcome({}), 'threw [PKU717]')
    assert.equal(await outcome({ PIKKU_ALLOW_CORE_SKEW: '1' }), 'threw [PKU717]')
    assert.equal(await outcome({ PIKKU_ALLOW_DUPLICATE_CORE: '1' }), 'warned [PKU717]')
    await withEnv({ PIKKU_ALLOW_DUPLICATE_CORE: '1' }, () => captureConsole(() => assertSingleCoreVersion(root, logger)))
    assert.deepEqual([logger.hasBlockingDiagnostics(), logger.blockingSeverities()], [false, []])
  } finally {
    rmSync(root, { recursive: true, force: true })
    await reset()
  }
})

/**
 * A handful of rows of the index's tables by area, in one inspection: each file breaks one rule, and a second
 * inspection with the `allow` options of pikku.config.json shows the two opt-in codes go away.
 */
test('area-table-codes: a channel without name (PKU400), a route without func (PKU236), permissionsInBody without allow (PKU576), pikkuWorkflowComplexFunc without allow (PKU643), a secret read with a non-literal key (PKU952, warn) and one function name in two files (PKU851)', async () => {
  const fn = "import { pikkuSessionlessFunc } from '@pikku/core'\n"
  const optIn = {
    'body.ts': `${fn}export const inBody = pikkuSessionlessFunc<void, void>({ permissionsInBody: true, func: async ({ logger }) => { logger.info('x') } })\n`,
    'complex.ts': "import { pikkuWorkflowComplexFunc } from '@pikku/core/workflow'\nexport const complexFlow = pikkuWorkflowComplexFunc<void, void>({ func: async () => {} })\n",
  }
  const files = {
    ...optIn,
    'channel.ts': "import { wireChannel } from '@pikku/core'\nwireChannel({ route: '/ws' })\n",
    'route.ts': "import { wireHTTP } from '@pikku/core'\nwireHTTP({ method: 'get', route: '/nofunc' })\n",
    'secret.ts': `${fn}export const readsKey = pikkuSessionlessFunc<{ key: string }, void>({ func: async ({ secrets }, { key }) => { await secrets.getSecret(key) } })\n`,
    'dup-a.ts': `${fn}export const twice = pikkuSessionlessFunc<void, void>({ func: async ({ logger }) => { logger.info('a') } })\n`,
    'dup-b.ts': `${fn}export const twice = pikkuSessionlessFunc<void, void>({ func: async ({ logger }) => { logger.info('b') } })\n`,
  }
  const { reported } = await inspectFiles('area-table', files)
  assert.deepEqual(codes(reported).sort(), ['PKU236 critical', 'PKU400 critical', 'PKU576 critical', 'PKU643 critical', 'PKU851 critical', 'PKU952 warn'])
  const allowed = await inspectFiles('area-table-allow', optIn, { allow: { permissionsInBody: true, complexWorkflows: true } })
  assert.deepEqual(codes(allowed.reported), [])
})

/** Two more rows of the index's tables, in one inspection: an MCP resource without `uri` and one without `title`. */
test('area-table-mcp-resource: wireMCPResource without uri is a critical PKU220, and one with a uri but no title a critical PKU370', async () => {
  const head = "import { pikkuSessionlessFunc, wireMCPResource } from '@pikku/core'\nexport const read = pikkuSessionlessFunc<void, { text: string }>({ func: async () => ({ text: 'x' }) })\n"
  const { reported } = await inspectFiles('area-table-mcp', {
    'no-uri.ts': `${head}wireMCPResource({ title: 'Todos', description: 'All todos', func: read })\n`,
    'no-title.ts': head.replace('read =', 'readTwo =') + "wireMCPResource({ uri: 'todos://all', description: 'All todos', func: readTwo })\n",
  })
  assert.deepEqual(codes(reported).sort(), ['PKU220 critical', 'PKU370 critical'])
})

/** More rows of the index's tables by area, each file inspected on its own so that one code cannot hide another. */
test('area-table-more-codes: a non-literal queue name (PKU118), a route or query parameter missing from the input (PKU571, PKU572), pikkuBetterAuth twice or unexported (PKU581, PKU582), definePersonas in two files (PKU585), expectEventually in a workflow (PKU675), an inline Zod input (PKU489) and a Zod schema beside a wiring (PKU490) are each one critical diagnostic', async () => {
  const core = "import { pikkuSessionlessFunc, wireQueueWorker, wireHTTP } from '@pikku/core'\n"
  const fn = (input: string) => `${core}export const one = pikkuSessionlessFunc<${input}, void>({ func: async ({ logger }) => { logger.info('x') } })\n`
  const auth = (line: string) => `declare const pikkuBetterAuth: (factory: () => unknown) => unknown\n${line}\n`
  const personas = (id: string) => `import { definePersonas } from '#pikku/scopes/pikku-personas.gen.js'\ndefinePersonas({ ${id}: { name: '${id}' } } as never)\n`
  const zod = "import { z } from 'zod'\n" + core
  const cases: Record<string, Record<string, string>> = {
    PKU118: { 'a.ts': `${fn('void')}const QUEUE = 'reminders'\nwireQueueWorker({ name: QUEUE, func: one })\n` },
    PKU571: { 'a.ts': `${fn('{ other: string }')}wireHTTP({ method: 'get', route: '/todos/:todoId', func: one })\n` },
    PKU572: { 'a.ts': `${fn('{ other: string }')}wireHTTP({ method: 'get', route: '/search', query: ['q'], func: one })\n` },
    PKU581: { 'a.ts': auth('export const auth = pikkuBetterAuth(() => ({}))'), 'b.ts': auth('export const authTwo = pikkuBetterAuth(() => ({}))') },
    PKU582: { 'a.ts': auth('const auth = pikkuBetterAuth(() => ({}))') },
    PKU585: { 'a.ts': personas('alice'), 'b.ts': personas('bob') },
    PKU675: { 'a.workflow.ts': "import { pikkuWorkflowFunc } from '#pikku/workflow'\nexport const probeFlow = pikkuWorkflowFunc<void, void>({ func: async (_services, _data, { workflow }) => { await workflow.expectEventually('x', async () => true) } })\n" },
    PKU489: { 'a.ts': `${zod}export const one = pikkuSessionlessFunc({ input: z.object({ a: z.string() }), func: async ({ logger }) => { logger.info('x') } })\n` },
    PKU490: { 'a.ts': `${zod}export const In = z.object({ a: z.string() })\nexport const one = pikkuSessionlessFunc({ input: In, func: async ({ logger }) => { logger.info('x') } })\nwireHTTP({ method: 'post', route: '/x', func: one })\n` },
  }
  const found: Record<string, string[]> = {}
  for (const [code, files] of Object.entries(cases)) found[code] = codes((await inspectFiles(`area-${code}`, files)).reported)
  assert.deepEqual(found, Object.fromEntries(Object.keys(cases).map((code) => [code, [`${code} critical`]])))
})

/** The agent rows of the index's tables, one agent file each. */
test('area-table-agents: an agent without name (PKU111), description (PKU123) or model (PKU145), or naming an undeclared scorer (PKU155), is one critical diagnostic; a tool without description is a critical PKU154 only with strictMeta', async () => {
  const agent = (fields: string, before = '') =>
    ["import { pikkuAgent } from '#pikku/agent'", "import { pikkuSessionlessFunc } from '#pikku/function'", before, `export const probeAgent = pikkuAgent({ ${fields} })`].join('\n')
  const all = "name: 'probe', description: 'probe', goal: 'probe', model: 'openai/gpt-4o-mini'"
  const tool = 'export const plainTool = pikkuSessionlessFunc<void, void>({ func: async () => {} })'
  const check = async (name: string, text: string, options: Record<string, unknown> = {}) =>
    codes((await inspectFiles(`area-agent-${name}`, { 'probe.agent.ts': text }, options)).reported)
  assert.deepEqual(await check('ok', agent(`${all}, tools: []`)), [])
  assert.deepEqual(await check('no-name', agent(`${all.replace("name: 'probe', ", '')}, tools: []`)), ['PKU111 critical'])
  assert.deepEqual(await check('no-description', agent(`${all.replace("description: 'probe', ", '')}, tools: []`)), ['PKU123 critical'])
  assert.deepEqual(await check('no-model', agent(`${all.replace(", model: 'openai/gpt-4o-mini'", '')}, tools: []`)), ['PKU145 critical'])
  assert.deepEqual(await check('scorer', agent(`${all}, tools: [], scorers: ['nope']`)), ['PKU155 critical'])
  assert.deepEqual(await check('tool', agent(`${all}, tools: [plainTool]`, tool)), [])
  assert.deepEqual(await check('tool-strict', agent(`${all}, tools: [plainTool]`, tool), { strictMeta: true }), ['PKU154 critical'])
})

/** Inspects each case's files on its own; the codes reported per case. */
const codesPerCase = async (prefix: string, cases: Record<string, Record<string, string>>) => {
  const found: Record<string, string[]> = {}
  for (const [name, files] of Object.entries(cases)) found[name] = codes((await inspectFiles(`${prefix}-${name}`, files)).reported)
  return found
}

/** The scenario rows of the index's tables. */
test('area-table-scenarios: a scenario that uses todoStore (PKU673), calls an actor step without an actor (PKU677), computes a step target (PKU678) or never asserts (PKU680) is one critical diagnostic', async () => {
  const steps = [
    "import { pikkuScenarioStep } from '#pikku/scenarios'",
    "export const opens = pikkuScenarioStep<void, { todoId: string }>({ name: 'opens', actor: true, description: 'opens', default: async (_services, _data, { actor }) => ({ todoId: String(actor.name) }) })",
    "export const looks = pikkuScenarioStep<void, void>({ name: 'looks', description: 'looks', default: async () => {} })",
  ].join('\n')
  const personas = "import { definePersonas } from '#pikku/scopes/pikku-personas.gen.js'\ndefinePersonas({ alice: { name: 'Alice', jobTitle: 'x', goals: ['y'], account: {} } })\n"
  const scenario = (body: string, services = '_services') =>
    [
      "import { pikkuScenario } from '#pikku/scenarios'",
      `export const probeScenario = pikkuScenario<void, void>({ description: 'probe', func: async (${services}, _data, { scenario, actors }) => {`,
      body,
      '} })',
    ].join('\n')
  const given = "await scenario.given('a', 'opens', undefined, { actor: actors.alice })"
  const then = "await scenario.then('b', 'looks', undefined)"
  const withScenario = (body: string, services?: string) => ({ 'steps.ts': steps, 'personas.ts': personas, 'a.scenario.ts': scenario(body, services) })
  assert.deepEqual(
    await codesPerCase('area-scenario', {
      ok: withScenario(`${given}\n${then}`),
      services: withScenario(`${given}\n${then}`, '{ todoStore }'),
      noActor: withScenario(`${given.replace(', { actor: actors.alice }', '')}\n${then}`),
      computed: withScenario(`const target = ['lo', 'oks'].join('')\n${given}\n${then.replace("'looks'", "target as 'looks'")}`),
      noThen: withScenario(given),
    }),
    { ok: [], services: ['PKU673 critical'], noActor: ['PKU677 critical'], computed: ['PKU678 critical'], noThen: ['PKU680 critical'] },
  )
})

/** Three more rows: a persona or system role the inspector cannot use, and a graph: step. */
test('area-table-values: a persona name held in a constant and a system role with no scopes are each a critical PKU124, and a graph: step with no graph addon wired a critical PKU642', async () => {
  const personaName = "import { definePersonas } from '#pikku/scopes/pikku-personas.gen.js'\nconst NAME = 'Alice'\ndefinePersonas({ alice: { name: NAME, jobTitle: 'x', goals: ['y'], account: {} } })\n"
  const graphStep = "import { pikkuWorkflowFunc } from '#pikku/workflow'\nexport const probeFlow = pikkuWorkflowFunc<void, void>({ func: async (_services, _data, { workflow }) => { await workflow.do('Edit', 'graph:editFields', {}) } })\n"
  assert.deepEqual(
    await codesPerCase('area-value', {
      personaName: { 'personas.ts': personaName },
      roleScopes: { 'roles.ts': "import { defineSystemRole } from '@pikku/core'\ndefineSystemRole({ admin: { description: 'x' } } as never)\n" },
      graphStep: { 'w.workflow.ts': graphStep },
    }),
    { personaName: ['PKU124 critical'], roleScopes: ['PKU124 critical'], graphStep: ['PKU642 critical'] },
  )
})

/** The three optimization lints: the inspector records them as plain diagnostics, not through the logger. */
test('lint-diagnostics-recorded: a function that uses services and wire without destructuring and imports dynamically gives PKU410, PKU411 and PKU498 as recorded diagnostics, none through the logger', async () => {
  const { reported, state } = await inspectFiles('lints', {
    'a.ts': "import { pikkuSessionlessFunc } from '@pikku/core'\nexport const one = pikkuSessionlessFunc<void, void>({ func: async (services, _data, wire) => { services.logger.info(String(wire)); await import('node:fs') } })\n",
  })
  assert.deepEqual(codes(reported), [])
  assert.deepEqual((state.diagnostics as Array<{ code: string }>).map((d) => d.code), ['PKU410', 'PKU411', 'PKU498'])
})

/** A pikkuWorkflowFunc whose body is `body`, with its input named `input` unless `param` says otherwise. */
const workflowFile = (body: string, param = 'input') =>
  [
    "import { pikkuWorkflowFunc } from '#pikku/workflow'",
    'export const probeFlow = pikkuWorkflowFunc<{ todoId: string; todoIds: string[] }, void>({',
    `  func: async (_services, ${param}, { workflow }) => {`,
    body,
    '  },',
    '})',
  ].join('\n')

const inspectWorkflow = async (name: string, body: string, param?: string) => {
  const { reported, state } = await inspectFiles(name, { 'probe.workflow.ts': workflowFile(body, param) })
  return { reported: codes(reported), registered: 'probeFlow' in state.workflows.meta, steps: state.workflows.meta.probeFlow?.steps }
}

test('pku641-refused-not-registered: an inline step, a destructured input, a while loop or a try in a pikkuWorkflowFunc is a critical PKU641 and the workflow is not registered', async () => {
  const named = "    await workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId })"
  const ok = await inspectWorkflow('pku641-ok', named)
  assert.deepEqual([ok.reported, ok.registered], [[], true])
  for (const [name, body, param] of [
    ['pku641-inline', "    await workflow.do('Check', async () => true)\n" + named],
    ['pku641-destructured', "    await workflow.do('Escalate', 'escalateTodo', { todoId })", '{ todoId }'],
    ['pku641-while', `    while (input.todoId) {\n${named}\n    }`],
    ['pku641-try', `    try {\n${named}\n    } catch {}`],
  ] as const) {
    const result = await inspectWorkflow(name, body, param)
    assert.deepEqual([name, result.reported, result.registered], [name, ['PKU641 critical'], false])
  }
})

test('pku641-sleep-bound-dropped: a workflow.sleep bound with const is left out of the plan with no diagnostic; as a statement it is a step', async () => {
  const statement = await inspectWorkflow('pku641-sleep-statement', "    await workflow.sleep('Wait', '1h')")
  assert.deepEqual([statement.reported, statement.steps?.length], [[], 1])
  const bound = await inspectWorkflow('pku641-sleep-bound', "    const waited = await workflow.sleep('Wait', '1h')")
  assert.deepEqual([bound.reported, bound.registered, bound.steps?.length], [[], true, 0])
})

const invokeFile = (line: string) =>
  [
    "import { pikkuFunc } from '#pikku/function'",
    'export const probeInvoke = pikkuFunc<{ todoId: string }, unknown>({',
    '  func: async (_services, { todoId }, wire) => {',
    '    const { rpc } = wire',
    `    ${line}`,
    '  },',
    '})',
  ].join('\n')

test('pku940-cast-critical: a cast on an rpc.invoke result or on an argument is a critical PKU940; a cast on a property of the result, inside an argument, or on wire.rpc.invoke is not reported', async () => {
  const check = async (name: string, line: string) => codes((await inspectFiles(name, { 'probe.ts': invokeFile(line) })).reported)
  assert.deepEqual(await check('pku940-plain', "return await rpc.invoke('getTodo', { todoId })"), [])
  assert.deepEqual(await check('pku940-result', "return (await rpc.invoke('getTodo', { todoId })) as unknown"), ['PKU940 critical'])
  assert.deepEqual(await check('pku940-argument', "return await rpc.invoke('getTodo', { todoId } as { todoId: string })"), ['PKU940 critical'])
  assert.deepEqual(await check('pku940-property', "return (await rpc.invoke('getTodo', { todoId })).title as string"), [])
  assert.deepEqual(await check('pku940-nested', "return await rpc.invoke('getTodo', { todoId: todoId as string })"), [])
  assert.deepEqual(await check('pku940-wire', "return (await wire.rpc.invoke('getTodo', { todoId })) as unknown"), [])
})

/**
 * The page's share-link function, with `logged` as the fields of its log line. The reference to Node's types stands in
 * for the rest of the app, which brings them into a real run: without them randomUUID() is `any`, and so is the secret.
 */
const shareLinkFile = (logged: string, before = '') =>
  [
    '/// <reference types="node" />',
    "import { randomUUID } from 'node:crypto'",
    "import { createSecretValue } from '@pikku/core/classification'",
    "import { pikkuFunc } from '#pikku/function'",
    'export const createShareLink = pikkuFunc<{ todoId: string }, { url: string }>({',
    '  func: async ({ logger }, { todoId }) => {',
    '    const token = createSecretValue(randomUUID())',
    before,
    `    logger.info({ message: 'share link created', todoId${logged} })`,
    '    return { url: `https://todo.example.com/shared/${todoId}?token=${token.reveal()}` }',
    '  },',
    '})',
  ].join('\n')

test('pku953-security-only: a revealed secret passed to logger.info is an error PKU953 only with the security lint; the fixed log line, a copy typed as plain string, or a secret of type any is not reported', async () => {
  const check = async (name: string, file: string, security: boolean) =>
    codes((await inspectFiles(name, { 'probe.ts': file }, security ? { classificationCheck: true } : {})).reported)
  assert.deepEqual(await check('pku953-leak', shareLinkFile(', token: token.reveal()'), true), ['PKU953 error'])
  assert.deepEqual(await check('pku953-no-lint', shareLinkFile(', token: token.reveal()'), false), [])
  assert.deepEqual(await check('pku953-fixed', shareLinkFile(''), true), [])
  assert.deepEqual(await check('pku953-plain-string', shareLinkFile(', token: plain', '    const plain: string = token.reveal()'), true), [])
  const anyFile = shareLinkFile(', token: loose.reveal()', "    const loose = createSecretValue(JSON.parse('\"x\"'))")
  assert.deepEqual(await check('pku953-any', anyFile, true), [])
})

test('pku910-private-sessionless: with the security lint, a Private field in the return type of a pikkuSessionlessFunc is an error PKU910', async () => {
  const file = [
    "import type { Private } from '@pikku/core/classification'",
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    'interface TeamMember { userId: string; email: Private<string> }',
    'declare function loadMember(userId: string): Promise<TeamMember>',
    'export const getMember = pikkuSessionlessFunc<{ userId: string }, Readonly<TeamMember>>({',
    "  description: 'Fetch a team member',",
    '  func: async (_services, { userId }) => loadMember(userId),',
    '})',
  ].join('\n')
  const { reported } = await inspectFiles('pku910-private-sessionless', { 'probe.functions.ts': file }, { classificationCheck: true })
  assert.deepEqual(codes(reported), ['PKU910 error'])
})

test('pku342-not-raised: in a process with no CLI metadata registered, executeCLI throws a CLIError "CLI program \\"todos\\" not found" with exit code 1, not PKU342, and prints nothing first', async () => {
  const { executeCLI, CLIError } = await import('@pikku/core/cli')
  const { pikkuState } = await import('@pikku/core/state')
  assert.deepEqual(pikkuState(null, 'cli', 'meta'), { programs: {}, renderers: {} })
  let created = false
  const printed = await captureConsole(() =>
    assert.rejects(
      executeCLI({ programName: 'todos', args: ['list'], createSingletonServices: async () => ((created = true), {}) as never }),
      (error: unknown) => error instanceof CLIError && error.message === 'CLI program "todos" not found' && error.exitCode === 1,
    ),
  )
  assert.equal(created, false)
  assert.deepEqual(printed, [])
})

/** The PKU9xx codes the addon checks reported for one source file, inspected as an addon package or as an app. */
const addonBanCodes = async (name: string, text: string, isAddon = true) =>
  codes((await inspectFiles(name, { 'probe.ts': text }, { isAddon })).reported).filter((c) => /^PKU92[01] /.test(c))

test('pku920-addon-wiring: in an addon, a call written as wireHTTP(...) or wireAddon(...) is a critical PKU920; a renamed import, core.wireHTTP(...), a wire* name outside the list, or the same call in an app is not reported', async () => {
  const route = "{ method: 'get', route: '/probe', func: probe, auth: false }"
  const probe = "import { pikkuSessionlessFunc } from '#pikku/function'\nconst probe = pikkuSessionlessFunc<void, void>({ func: async () => {} })\n"
  const wireHTTP = `${probe}import { wireHTTP } from '#pikku/http'\nwireHTTP(${route})\n`
  const wireAddon = "import { wireAddon } from '@pikku/core/addon'\nwireAddon({ name: 'mail', package: '@todo-app/mail-addon' })\n"
  assert.deepEqual(await addonBanCodes('pku920-http', wireHTTP), ['PKU920 critical'])
  assert.deepEqual(await addonBanCodes('pku920-addon', wireAddon), ['PKU920 critical'])
  assert.deepEqual(await addonBanCodes('pku920-renamed', `${probe}import { wireHTTP as wire } from '#pikku/http'\nwire(${route})\n`), [])
  assert.deepEqual(await addonBanCodes('pku920-object', `${probe}import * as core from '#pikku/http'\ncore.wireHTTP(${route})\n`), [])
  assert.deepEqual(await addonBanCodes('pku920-unlisted', "declare const wireAgentScorerQueueWorkers: (x: unknown) => void\nwireAgentScorerQueueWorkers({})\n"), [])
  assert.deepEqual(await addonBanCodes('pku920-app', wireAddon, false), [])
})

test('pku921-addon-contract: in an addon, middleware: or permissions: written inside a defineHTTPRoutes call, on a route or on the group, is a critical PKU921; a contract passed as a variable, a shorthand { middleware }, or the same contract in an app is not reported', async () => {
  const head = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "import { pikkuMiddleware } from '@pikku/core/middleware'",
    "import { defineHTTPRoutes } from '#pikku/http'",
    'const probe = pikkuSessionlessFunc<void, void>({ func: async () => {} })',
    'const middleware = [pikkuMiddleware(async (_services, _wire, next) => next())]',
    '',
  ].join('\n')
  const onRoute = `${head}export const c = defineHTTPRoutes({ routes: { p: { method: 'post', route: '/p', func: probe, middleware: [] } } })\n`
  const onGroup = `${head}export const c = defineHTTPRoutes({ basePath: '/x', permissions: {}, routes: { p: { method: 'post', route: '/p', func: probe } } })\n`
  assert.deepEqual(await addonBanCodes('pku921-route', onRoute), ['PKU921 critical'])
  assert.deepEqual(await addonBanCodes('pku921-group', onGroup), ['PKU921 critical'])
  const variable = `${head}const contract = { routes: { p: { method: 'post', route: '/p', func: probe, middleware: [] } } } as const\nexport const c = defineHTTPRoutes(contract as never)\n`
  assert.deepEqual(await addonBanCodes('pku921-variable', variable), [])
  const shorthand = `${head}export const c = defineHTTPRoutes({ routes: { p: { method: 'post', route: '/p', func: probe, middleware } } })\n`
  assert.deepEqual(await addonBanCodes('pku921-shorthand', shorthand), [])
  assert.deepEqual(await addonBanCodes('pku921-app', onRoute, false), [])
})

/**
 * Which of the "No … found" and "More than one … found" lines stop a run: the CLI's checkRequiredTypes, called with
 * the flags the function-types step of `pikku all` passes (session, wire services and singleton services types) and
 * with those of the Next.js step (config and singleton services factory), on a project with one of each of the other
 * types and no CoreConfig type, or two.
 */
test('core-config-not-required: with no type extending CoreConfig, or two, the "No CoreConfig found" or "More than one CoreConfig found" line is recorded but the checks of pikku all pass; two stop only the Next.js step', async () => {
  const { checkRequiredTypes } = await import(`${CLI_DIST}/src/utils/check-required-types.js`)
  const base = {
    'types.ts': [
      "import type { CoreUserSession, CoreSingletonServices, CoreServices } from '@pikku/core'",
      'export interface Session extends CoreUserSession { userId: string }',
      'export interface SingletonServices extends CoreSingletonServices {}',
      'export interface Services extends CoreServices<SingletonServices> {}',
      '',
    ].join('\n'),
  }
  const config = (name: string) => `import type { CoreConfig } from '@pikku/core'\nexport interface ${name} extends CoreConfig { region: string }\n`
  const verdict = (errors: unknown, requires: Record<string, boolean>) => {
    try {
      checkRequiredTypes(errors, requires)
      return 'passes'
    } catch (error) {
      return (error as Error).message
    }
  }
  const functionTypes = { userSessionType: true, wireServiceType: true, singletonServicesType: true }
  const nextjs = { config: true, singletonServicesFactory: true }
  const none = await inspectFiles('core-config-none', base)
  const noneErrors = [...none.state.filesAndMethodsErrors.keys()]
  assert.ok(noneErrors.some((message: string) => message.startsWith('No CoreConfig found')), noneErrors.join('\n'))
  assert.equal(verdict(none.state.filesAndMethodsErrors, functionTypes), 'passes')
  const two = await inspectFiles('core-config-two', { ...base, 'a.ts': config('AppConfig'), 'b.ts': config('OtherConfig') })
  assert.ok([...two.state.filesAndMethodsErrors.keys()].includes('More than one CoreConfig found'))
  assert.equal(verdict(two.state.filesAndMethodsErrors, functionTypes), 'passes')
  assert.match(verdict(two.state.filesAndMethodsErrors, nextjs), /^Found errors:\n[^]*- More than one CoreConfig found/)
  // A missing session type, by contrast, stops the same step.
  const noSession = await inspectFiles('core-config-no-session', { 'types.ts': base['types.ts'].replace(/.*CoreUserSession \{.*\n/, '') })
  assert.match(verdict(noSession.state.filesAndMethodsErrors, functionTypes), /- No CoreUserSession found/)
})
