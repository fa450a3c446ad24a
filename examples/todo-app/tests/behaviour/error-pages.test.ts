// Sentences of three CLI error pages (docs/pikku-cli/errors/pku910.mdx, pku862.mdx, pku582.mdx) run against the
// framework's inspector and CLI: small source files through the inspector `pikku all` uses (harness/inspector.ts),
// the inspector's own type walk on types of a scratch program, and CLI commands over a stubbed inspector state.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { codes, inspectFiles } from './harness/inspector.js'
import { runTempDir } from './harness/temp.js'
import { APP_DIR } from './harness/node-process.js'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const CLI_DIST = '../../node_modules/@pikku/cli/dist'
const INSPECTOR_DIST = '../../node_modules/@pikku/inspector/dist'

// ── PKU910 ────────────────────────────────────────────────────────────────────

/**
 * A functions file with `declaration` after the classification imports, inspected after the files of `before`; the
 * codes reported with the security lint.
 */
const pku910 = async (name: string, declaration: string, before: Record<string, string> = {}) => {
  const file = [
    "import type { Pii, Private, Secret } from '@pikku/core/classification'",
    "import { pikkuFunc, pikkuSessionlessFunc, pikkuListFunc } from '#pikku/function'",
    "import { wireHTTP } from '#pikku/http'",
    'interface TeamMember { userId: string; email: Private<string>; phone: Pii<string>; apiKeyHash: Secret<string> }',
    'declare function loadMember(): Promise<TeamMember>',
    'declare function loadSecret(): Promise<{ apiKeyHash: Secret<string> }>',
    'declare function loadPii(): Promise<{ phone: Pii<string> }>',
    'declare function loadPrivate(): Promise<{ email: Private<string> }>',
    declaration,
  ].join('\n')
  return codes((await inspectFiles(`pku910-${name}`, { ...before, 'probe.functions.ts': file }, { classificationCheck: true })).reported)
}

test('pku910-which-functions: with the security lint, a Secret field is reported from pikkuFunc and pikkuSessionlessFunc alike; a Private or Pii field from pikkuSessionlessFunc and pikkuListFunc but not from pikkuFunc; an unnamed function written inline in a wiring, or one whose func is not an arrow function or function expression, is not checked', async () => {
  const found: Record<string, string[]> = {
    secretFunc: await pku910('secret-func', 'export const a = pikkuFunc<void, { apiKeyHash: string }>({ func: async () => loadSecret() })'),
    secretSessionless: await pku910('secret-sessionless', 'export const a = pikkuSessionlessFunc<void, { apiKeyHash: string }>({ func: async () => loadSecret() })'),
    piiSessionless: await pku910('pii-sessionless', 'export const a = pikkuSessionlessFunc<void, { phone: string }>({ func: async () => loadPii() })'),
    privateList: await pku910('private-list', 'export const a = pikkuListFunc<{ email: string }, { email: string }>({ func: async () => ({ rows: [await loadPrivate()], nextCursor: null }) })'),
    piiFunc: await pku910('pii-func', 'export const a = pikkuFunc<void, { phone: string }>({ func: async () => loadPii() })'),
    privateFunc: await pku910('private-func', 'export const a = pikkuFunc<void, { email: string }>({ func: async () => loadPrivate() })'),
    inlineUnnamed: await pku910('inline', "wireHTTP({ method: 'get', route: '/member', auth: false, func: pikkuSessionlessFunc<void, { apiKeyHash: string }>({ func: async () => loadSecret() }) })"),
    notAFunction: await pku910('not-arrow', 'declare function build(): () => Promise<{ apiKeyHash: Secret<string> }>\nexport const a = pikkuSessionlessFunc<void, { apiKeyHash: string }>({ func: build() })'),
  }
  assert.deepEqual(
    Object.fromEntries(Object.entries(found).map(([key, list]) => [key, list.filter((c) => c.startsWith('PKU910'))])),
    {
      secretFunc: ['PKU910 error'],
      secretSessionless: ['PKU910 error'],
      piiSessionless: ['PKU910 error'],
      privateList: ['PKU910 error'],
      piiFunc: [],
      privateFunc: [],
      inlineUnnamed: [],
      notAFunction: [],
    },
  )
})

/**
 * The inspector's type walk behind PKU910 (findPiiPaths in utils/check-pii-output.ts) on each exported type alias of
 * `source`, compiled in a scratch folder inside the app so that '@pikku/core/classification' resolves: alias name to
 * the '<path> <classification>' strings it finds, and TypeScript's messages on the file.
 */
const piiPaths = async (name: string, source: string) => {
  // The inspector's own TypeScript (6.x), whose type flags differ from those of the app's 5.x.
  const ts = createRequire(import.meta.resolve('@pikku/inspector'))('typescript') as typeof import('typescript')
  const { findPiiPaths } = await import(`${INSPECTOR_DIST}/utils/check-pii-output.js`)
  const dir = join(APP_DIR, '.behaviour', `${name}-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  try {
    const file = join(dir, 'probe.ts')
    writeFileSync(file, source)
    const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true, skipLibCheck: true, types: [] })
    const checker = program.getTypeChecker()
    const found: Record<string, string[]> = {}
    for (const statement of program.getSourceFile(file)!.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue
      const fields = findPiiPaths(checker, checker.getTypeAtLocation(statement.name)) as Array<{ path: string; classification: string }>
      found[statement.name.text] = fields.map(({ path, classification }) => `${path} ${classification}`)
    }
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))
    return { found, problems }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('pku910-type-walk-limits: a Secret field eight levels down is found and one nine levels down is not, an array or a generic argument counting as a level; an intersection of object types hides its fields while Readonly<T> does not; of two fields both Secret<string>, only the first is named', async () => {
  const nest = (levels: number) => '{ a: '.repeat(levels - 1) + '{ key: Secret<string> }' + ' }'.repeat(levels - 1)
  const { found, problems } = await piiPaths('pku910-walk', [
    "import type { Secret } from '@pikku/core/classification'",
    'interface TeamMember { userId: string; apiKeyHash: Secret<string> }',
    'interface Box<T> { value: T }',
    `export type Eight = ${nest(8)}`,
    `export type Nine = ${nest(9)}`,
    `export type ArrayAtEight = ${'{ a: '.repeat(6)}Array<{ key: Secret<string> }>${' }'.repeat(6)}`,
    `export type ArrayAtNine = ${'{ a: '.repeat(7)}Array<{ key: Secret<string> }>${' }'.repeat(7)}`,
    `export type GenericAtEight = ${'{ a: '.repeat(6)}Box<{ key: Secret<string> }>${' }'.repeat(6)}`,
    `export type GenericAtNine = ${'{ a: '.repeat(7)}Box<{ key: Secret<string> }>${' }'.repeat(7)}`,
    'export type Joined = TeamMember & { role: string }',
    'export type Frozen = Readonly<TeamMember>',
    'export type TwoSecrets = { apiKeyHash: Secret<string>; recoveryCode: Secret<string> }',
  ].join('\n'))
  assert.deepEqual(found, {
    Eight: ['a.a.a.a.a.a.a.key secret'],
    Nine: [],
    ArrayAtEight: ['a.a.a.a.a.a.key secret'],
    ArrayAtNine: [],
    GenericAtEight: ['a.a.a.a.a.a.key secret'],
    GenericAtNine: [],
    Joined: [],
    Frozen: ['apiKeyHash secret'],
    TwoSecrets: ['apiKeyHash secret'],
  })
  assert.deepEqual(problems, [])
})

test('pku910-brands-type-only: Secret, Private and Pii are types only: a plain string is assignable to each, and @pikku/core/classification exports no value by those names', async () => {
  const { found, problems } = await piiPaths('pku910-brands', [
    "import type { Pii, Private, Secret } from '@pikku/core/classification'",
    "export const key: Secret<string> = 'plain'",
    "export const email: Private<string> = 'plain'",
    "export const phone: Pii<string> = 'plain'",
    'export type Branded = { key: Secret<string>; email: Private<string>; phone: Pii<string> }',
  ].join('\n'))
  assert.deepEqual(problems, [])
  assert.deepEqual(found, { Branded: ['key secret', 'email private', 'phone pii'] })
  const runtime = await import('@pikku/core/classification')
  assert.deepEqual(['Secret', 'Private', 'Pii'].filter((name) => name in runtime), [])
})

test('pku910-override-and-refused: an unnamed function written inline in a wiring is checked once its config sets override; a function refused first with PKU576 (permissionsInBody not allowed) or PKU851 (a name already declared in another file) gets that code and no PKU910', async () => {
  const found = {
    override: await pku910('override', "wireHTTP({ method: 'get', route: '/member', auth: false, func: pikkuSessionlessFunc<void, { apiKeyHash: string }>({ override: 'memberSecret', func: async () => loadSecret() }) })"),
    permissionsInBody: await pku910('pku576', 'export const a = pikkuSessionlessFunc<void, { apiKeyHash: string }>({ permissionsInBody: true, func: async () => loadSecret() })'),
    duplicate: await pku910('pku851', 'export const a = pikkuSessionlessFunc<void, { apiKeyHash: string }>({ func: async () => loadSecret() })', {
      'first.functions.ts': "import { pikkuSessionlessFunc } from '#pikku/function'\nexport const a = pikkuSessionlessFunc<void, void>({ func: async () => {} })\n",
    }),
  }
  assert.deepEqual(found, { override: ['PKU910 error'], permissionsInBody: ['PKU576 critical'], duplicate: ['PKU851 critical'] })
})

// ── PKU862 ────────────────────────────────────────────────────────────────────

test('pku862-code-name: PKU862 is the inspector\'s CONTRACT_CHANGED_REQUIRES_BUMP, PKU861 its FUNCTION_VERSION_MODIFIED', async () => {
  const { ErrorCode } = await import('@pikku/inspector')
  assert.deepEqual([ErrorCode.CONTRACT_CHANGED_REQUIRES_BUMP, ErrorCode.FUNCTION_VERSION_MODIFIED], ['PKU862', 'PKU861'])
})

test('versions-update-pku861-only: the update `pikku all` runs reports a changed recorded version as an error PKU861 and writes no manifest; over PKU863 and PKU862 alone it reports nothing and writes the current manifest, entry included', async () => {
  const { pikkuVersionsUpdate } = await import(`${CLI_DIST}/src/functions/commands/versions-update.js`)
  const dir = runTempDir('versions-update')
  try {
    const current = { manifestVersion: 1, contracts: { getTodo: { latest: 1, versions: { 1: { inputHash: '882f7010', outputHash: 'def84200' } } } } }
    const update = async (errors: Array<{ code: string; message: string }>) => {
      const diagnostics: string[] = []
      const logger = { debug() {}, info() {}, warn() {}, error() {}, diagnostic: ({ code, severity }: { code: string; severity: string }) => void diagnostics.push(`${code} ${severity}`) }
      const state = { manifest: { initial: { manifestVersion: 1, contracts: { getTodo: { latest: 1, versions: {} } } }, current, errors } }
      await pikkuVersionsUpdate.func({ logger, config: { rootDir: dir }, getInspectorState: async () => state }, undefined, {})
      const path = join(dir, 'versions.pikku.json')
      const written = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null
      rmSync(path, { force: true })
      return { diagnostics, written }
    }
    assert.deepEqual(await update([{ code: 'PKU861', message: 'changed' }, { code: 'PKU863', message: 'missing' }]), { diagnostics: ['PKU861 error'], written: null })
    assert.deepEqual(await update([{ code: 'PKU863', message: 'missing' }, { code: 'PKU862', message: 'bump' }]), { diagnostics: [], written: current })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

// ── PKU582 ────────────────────────────────────────────────────────────────────

/** A file declaring betterAuth and pikkuBetterAuth, then `body`; the codes the inspector reports, and its auth state. */
const authProbe = async (name: string, body: string) => {
  const head = 'declare const betterAuth: (options: object) => unknown\ndeclare const pikkuBetterAuth: (factory: unknown) => unknown\n'
  const { reported, state } = await inspectFiles(`pku582-${name}`, { 'auth.ts': head + body })
  return { codes: codes(reported), auth: (state as { auth: { definition?: { cookieCache: boolean }; hasUserSessionMiddleware: boolean; userStatelessSession: boolean } }).auth }
}

test('pku582-forms: a pikkuBetterAuth call held by a const that is not exported, by export let, by a const exported later with export { }, destructured, or passed straight to another function is one critical PKU582; export const is accepted, and then a ready-made instance or a factory passed by name is a critical PKU111', async () => {
  const factory = '() => betterAuth({ emailAndPassword: { enabled: true } })'
  const forms: Record<string, string> = {
    plainConst: `const auth = pikkuBetterAuth(${factory})`,
    exportLet: `export let auth = pikkuBetterAuth(${factory})`,
    exportedLater: `const auth = pikkuBetterAuth(${factory})\nexport { auth }`,
    destructured: `export const { handler } = pikkuBetterAuth(${factory}) as { handler: unknown }`,
    passedOn: `declare const keep: (value: unknown) => unknown\nexport const auth = keep(pikkuBetterAuth(${factory}))`,
    exportConst: `export const auth = pikkuBetterAuth(${factory})`,
    instance: 'export const auth = pikkuBetterAuth(betterAuth({}))',
    factoryByName: `const make = ${factory}\nexport const auth = pikkuBetterAuth(make)`,
  }
  const found: Record<string, string[]> = {}
  for (const [name, body] of Object.entries(forms)) found[name] = (await authProbe(name, body)).codes
  assert.deepEqual(found, {
    plainConst: ['PKU582 critical'],
    exportLet: ['PKU582 critical'],
    exportedLater: ['PKU582 critical'],
    destructured: ['PKU582 critical'],
    passedOn: ['PKU582 critical'],
    exportConst: [],
    instance: ['PKU111 critical'],
    factoryByName: ['PKU111 critical'],
  })
})

test('pku582-cookie-cache-read: the inspector counts session.cookieCache as on when written in place with enabled anything but the literal false, a missing enabled included, and as off for enabled: false or a session or cookieCache held in a variable', async () => {
  const declare = (options: string, before = '') => `${before}\nexport const auth = pikkuBetterAuth(() => betterAuth(${options}))`
  const cases: Record<string, string> = {
    enabledTrue: declare('{ session: { cookieCache: { enabled: true } } }'),
    maxAgeOnly: declare('{ session: { cookieCache: { maxAge: 300 } } }'),
    enabledVariable: declare('{ session: { cookieCache: { enabled: flag } } }', 'declare const flag: boolean'),
    enabledFalse: declare('{ session: { cookieCache: { enabled: false } } }'),
    sessionVariable: declare('{ session }', 'const session = { cookieCache: { enabled: true } }'),
    cacheVariable: declare('{ session: { cookieCache } }', 'const cookieCache = { enabled: true }'),
  }
  const found: Record<string, unknown> = {}
  for (const [name, body] of Object.entries(cases)) {
    const probe = await authProbe(`cache-${name}`, body)
    found[name] = probe.codes.length ? probe.codes : probe.auth.definition?.cookieCache
  }
  assert.deepEqual(found, { enabledTrue: true, maxAgeOnly: true, enabledVariable: true, enabledFalse: false, sessionVariable: false, cacheVariable: false })
})

test('pku582-own-session-middleware-seen: a betterAuthSession(...) or betterAuthStatelessSession(...) call written inside a global middleware registration is recorded as the app\'s own, each only for its own kind; one kept in a const and passed by name is not', async () => {
  const head = "import { addHTTPMiddleware } from '@pikku/core/http'\ndeclare const betterAuthSession: (options?: object) => any\ndeclare const betterAuthStatelessSession: (options?: object) => any\n"
  const seen = async (name: string, body: string) => {
    const { auth } = await authProbe(`mw-${name}`, head + body)
    return { stateful: Boolean(auth.hasUserSessionMiddleware), stateless: Boolean(auth.userStatelessSession) }
  }
  assert.deepEqual(await seen('stateful', "addHTTPMiddleware('*', [betterAuthSession({})])"), { stateful: true, stateless: false })
  assert.deepEqual(await seen('stateless', "addHTTPMiddleware('*', [betterAuthStatelessSession({})])"), { stateful: false, stateless: true })
  assert.deepEqual(await seen('by-name', "const mine = betterAuthSession({})\naddHTTPMiddleware('*', [mine])"), { stateful: false, stateless: false })
})

/**
 * The CLI's auth step (pikkuAuth in wirings/auth/pikku-command-auth.ts) over a stubbed inspector state with one
 * pikkuBetterAuth declaration: the generated files, by name, each with its text.
 */
const generatedAuth = async (auth: { cookieCache: boolean; ownStateful?: boolean; ownStateless?: boolean; console?: boolean }) => {
  const { pikkuAuth } = await import(`${CLI_DIST}/src/functions/wirings/auth/pikku-command-auth.js`)
  const dir = runTempDir('auth-gen')
  try {
    const authFile = join(dir, '.pikku', 'auth', 'auth.gen.ts')
    const definition = { exportName: 'auth', sourceFile: join(dir, 'src', 'better-auth.ts'), basePath: '/auth', hasCredentials: true, cookieCache: auth.cookieCache, plugins: [], services: { optimized: true, services: [] } }
    const state = { auth: { definition, providers: [], plugins: [], files: new Set(), hasUserSessionMiddleware: auth.ownStateful ?? false, userStatelessSession: auth.ownStateless ?? false } }
    const config = { rootDir: dir, outDir: join(dir, '.pikku'), authFile, packageMappings: {}, scaffold: { console: auth.console ?? false } }
    const logger = { debug() {}, info() {}, warn() {}, error() {} }
    await pikkuAuth.func({ logger, config, getInspectorState: async () => state }, {}, {})
    const folder = join(dir, '.pikku', 'auth')
    return Object.fromEntries(['auth.gen.ts', 'auth-middleware.gen.ts'].map((name) => [name, existsSync(join(folder, name)) ? readFileSync(join(folder, name), 'utf8') : null]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('pku582-generated-session-middleware: with cookieCache off the CLI registers betterAuthSession() and, with scaffold.console, an authBearer for PIKKU_CONSOLE_TOKEN beside it, both left out when the app registers its own betterAuthSession; with cookieCache on it writes betterAuthStatelessSession() whatever betterAuthSession the app registers, and leaves it out only for the app\'s own betterAuthStatelessSession; the wiring imports the auth file for its side effect and never its export', async () => {
  const has = (text: string | null, part: string) => Boolean(text?.includes(part))
  const summary = (files: Record<string, string | null>) => ({
    stateful: has(files['auth.gen.ts'], 'betterAuthSession()'),
    stateless: has(files['auth-middleware.gen.ts'], 'betterAuthStatelessSession()'),
    consoleToken: has(files['auth.gen.ts'], "secretId: 'PIKKU_CONSOLE_TOKEN'") || has(files['auth-middleware.gen.ts'], "secretId: 'PIKKU_CONSOLE_TOKEN'"),
  })
  const off = await generatedAuth({ cookieCache: false, console: true })
  assert.deepEqual(summary(off), { stateful: true, stateless: false, consoleToken: true })
  assert.match(off['auth.gen.ts']!, /^import '\.\.\/\.\.\/src\/better-auth\.js'$/m)
  assert.doesNotMatch(off['auth.gen.ts']!, /import \{[^}]*\bauth\b[^}]*\} from '\.\.\/\.\.\/src\/better-auth/)
  assert.deepEqual(summary(await generatedAuth({ cookieCache: false, console: true, ownStateful: true })), { stateful: false, stateless: false, consoleToken: false })
  assert.deepEqual(summary(await generatedAuth({ cookieCache: true, console: true })), { stateful: false, stateless: true, consoleToken: true })
  assert.deepEqual(summary(await generatedAuth({ cookieCache: true, console: true, ownStateful: true })), { stateful: false, stateless: true, consoleToken: true })
  assert.deepEqual(summary(await generatedAuth({ cookieCache: true, console: true, ownStateless: true })), { stateful: false, stateless: false, consoleToken: false })
})

test('pku582-stateless-without-secrets: with no secrets service betterAuthStatelessSession lets the call go on with no session and logs nothing; betterAuthSession logs a failed session read and rethrows it; any secrets error other than "Requested secret not found" is rethrown by the stateless middleware', async () => {
  const { betterAuthSession, betterAuthStatelessSession } = await import('@pikku/better-auth')
  const logged: string[] = []
  const logger = { error: (m: string) => void logged.push(m), warn: (m: string) => void logged.push(m), info() {}, debug() {} }
  const sessions: unknown[] = []
  const wire = () => ({
    http: { request: { headers: () => ({ cookie: 'better-auth.session_data=anything' }), header: () => undefined } },
    setSession: (s: unknown) => void sessions.push(s),
    session: undefined,
  })
  let went = false
  await betterAuthStatelessSession()({ logger } as never, wire() as never, async () => void (went = true))
  assert.deepEqual({ went, sessions, logged }, { went: true, sessions: [], logged: [] })
  const failing = { logger, auth: async () => ({ api: { getSession: async () => { throw new Error('read failed') } } }) }
  await assert.rejects(betterAuthSession()(failing as never, wire() as never, async () => {}), { message: 'read failed' })
  assert.deepEqual(logged, ['better-auth getSession failed: read failed'])
  const fatal = { logger, secrets: { getSecret: async () => { throw new Error('FATAL: Error finding secret: BETTER_AUTH_SECRET') } } }
  await assert.rejects(betterAuthStatelessSession()(fatal as never, wire() as never, async () => {}), { message: 'FATAL: Error finding secret: BETTER_AUTH_SECRET' })
  assert.deepEqual(sessions, [])
})
