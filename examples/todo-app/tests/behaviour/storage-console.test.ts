// Storage and the console (docs/storage/index.mdx, docs/api/content-service.mdx, docs/console/index.mdx): what
// LocalContent, its request handler and the servers that answer its URLs do, run in-process, and the checks of dev
// quick login. Nothing here starts the app: each test builds the few services it needs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { LocalContent, type LocalContentConfig } from '@pikku/core/services/local-content'
import { createLocalContentRequestHandler } from '@pikku/core/services/local-content-request-handler'
import { pikkuState } from '@pikku/core/state'
import { PikkuNodeHTTPServer } from '@pikku/node-http-server'
import { PikkuExpressServer } from '@pikku/express'
import { createTestJWT } from './harness/http.js'
import { recordingLogger } from './harness/core-probes.js'
import { withEnv } from './harness/env.js'
import { runTempDir } from './harness/temp.js'
import { sqliteDatabase } from './harness/services.js'

const jwtReady = createTestJWT()

/** A LocalContent over a fresh folder, with a logger that records, and the request handler in front of it. */
const contentSetup = async (extra: Partial<LocalContentConfig> = {}) => {
  const jwt = await jwtReady
  const root = runTempDir('content')
  const config: LocalContentConfig = { localFileUploadPath: root, uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets', ...extra }
  const { lines, logger } = recordingLogger()
  const content = new LocalContent(config, logger, jwt)
  return { jwt, root, config, content, lines, logger, cleanup: () => rm(root, { recursive: true, force: true }) }
}

const inAMinute = () => new Date(Date.now() + 60 * 1000)

// --- the Kysely services' tables (docs/storage/index.mdx, "Tables are created by migrations") ---

test('kysely-init-requires-tables: on an empty database a Kysely store\'s init() throws "The \'…\' schema is not in this database: … missing" naming pikku db generate and migrate, the event hub store\'s init() checks nothing, only table names are compared, and the workflow and agent run services have no init()', async () => {
  const { CamelCasePlugin, Kysely, SqliteDialect, sql } = await import('kysely')
  const { KyselyChannelStore, KyselyEventHubStore, KyselyWorkflowRunService, KyselyAgentRunService } = await import('@pikku/kysely')
  const database = await sqliteDatabase()
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: database as never }), plugins: [new CamelCasePlugin()] })
  try {
    await assert.rejects(new KyselyChannelStore(db).init(), {
      message:
        "The 'channel' schema is not in this database: channels, channel_subscriptions missing. " +
        'The runtime does not create these — run `pikku db generate` to write the migration, then `pikku db migrate` to apply it.',
    })
    await new KyselyEventHubStore(db).init()
    // Tables with the right names but not the columns the store writes: init() passes, the first write fails.
    await sql`create table "channels" ("channel_id" text primary key)`.execute(db)
    await sql`create table "channel_subscriptions" ("channel_id" text, "topic" text)`.execute(db)
    const store = new KyselyChannelStore(db)
    await store.init()
    await assert.rejects(store.addChannel({ channelId: 'c1', channelName: 'todos', openingData: {} } as never), /channel_name/)
    assert.equal(typeof (new KyselyWorkflowRunService(db) as any).init, 'undefined')
    assert.equal(typeof (new KyselyAgentRunService(db) as any).init, 'undefined')
  } finally {
    await db.destroy()
  }
})

// --- LocalContent itself (docs/api/content-service.mdx) ---

test('content-read-stream-and-buffer: readFile resolves with a stream of the file and readFileAsBuffer with the whole file; a missing file\'s stream error is logged as "Error getting content <bucket>/<key>"', async () => {
  const { content, lines, cleanup } = await contentSetup()
  try {
    assert.equal(await content.writeFile({ bucket: 'attachments', key: 't1/a.txt', stream: Readable.from(['hello ', 'world']) }), true)
    const stream = (await content.readFile({ bucket: 'attachments', key: 't1/a.txt' })) as Readable
    assert.ok(stream instanceof Readable)
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    assert.equal(Buffer.concat(chunks).toString(), 'hello world')
    const whole = await content.readFileAsBuffer({ bucket: 'attachments', key: 't1/a.txt' })
    assert.ok(Buffer.isBuffer(whole))
    assert.equal(whole.toString(), 'hello world')
    const missing = (await content.readFile({ bucket: 'attachments', key: 't1/missing' })) as Readable
    await assert.rejects(async () => {
      for await (const _chunk of missing) void _chunk
    }, { code: 'ENOENT' })
    assert.ok(
      lines.some((line) => line.level === 'error' && line.text.startsWith('Error getting content attachments/t1/missing')),
      JSON.stringify(lines),
    )
  } finally {
    await cleanup()
  }
})

test('content-upload-url-ignores-size-visibility: LocalContent.getUploadURL answers the same with or without size and visibility', async () => {
  const { content, cleanup } = await contentSetup()
  try {
    const shape = async (extra: object) => {
      const result = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain', ...extra })
      const url = new URL(result.uploadUrl, 'http://localhost')
      return { keys: Object.keys(result).sort(), assetKey: result.assetKey, uploadMethod: result.uploadMethod, path: url.pathname, params: [...url.searchParams.keys()].sort() }
    }
    const plain = await shape({})
    assert.deepEqual(plain.params, ['expiresAt', 'signature', 'signedAt'])
    assert.deepEqual(await shape({ size: 10 * 1024 * 1024 * 1024, visibility: 'public' }), plain)
    assert.deepEqual(await shape({ size: 1, visibility: 'private' }), plain)
  } finally {
    await cleanup()
  }
})

test('s3-upload-url-presigned-put: S3Content.getUploadURL answers with a presigned PUT URL valid for an hour, an assetKey that starts with the bucket, no uploadMethod and no uploadHeaders, the same with or without size and visibility', async () => {
  const { S3Content } = await import('@pikku/aws-services')
  // Presigning happens in the process; any credentials the SDK can find will do, and nothing is sent.
  await withEnv({ AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'behaviour-secret', AWS_SESSION_TOKEN: undefined, AWS_PROFILE: undefined }, async () => {
    const s3 = new S3Content({ bucketName: 'todo-files', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' }, recordingLogger().logger as never, { keyPairId: 'K1', privateKey: '' })
    const shape = async (extra: object) => {
      const result = await s3.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain', ...extra })
      const url = new URL(result.uploadUrl)
      // The query's names and the signed headers too: an ACL or a content length taken from visibility or size would add one.
      return {
        keys: Object.keys(result).sort(),
        assetKey: result.assetKey,
        path: url.pathname,
        expires: url.searchParams.get('X-Amz-Expires'),
        signed: url.searchParams.has('X-Amz-Signature'),
        params: [...url.searchParams.keys()].sort(),
        signedHeaders: url.searchParams.get('X-Amz-SignedHeaders'),
      }
    }
    const plain = await shape({})
    const { params, signedHeaders, ...rest } = plain
    assert.deepEqual(rest, { keys: ['assetKey', 'uploadUrl'], assetKey: 'attachments/t1/u1', path: '/todo-files/attachments/t1/u1', expires: '3600', signed: true })
    assert.ok(params.includes('X-Amz-Signature') && signedHeaders, params.join())
    assert.deepEqual(await shape({ size: 10 * 1024 * 1024 * 1024, visibility: 'public' }), plain)
  })
})

// --- the request handler (docs/api/content-service.mdx, "Serving LocalContent") ---

test('content-handler-needs-config-and-signing-jwt: createLocalContentRequestHandler serves a signed upload only when given the LocalContentConfig and a getJWT returning the service that signed it', async () => {
  const { jwt, config, content, logger, cleanup } = await contentSetup()
  try {
    const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/u1', contentType: 'text/plain' })
    const put = () => new Request(new URL(uploadUrl, 'http://localhost'), { method: 'PUT', body: 'hello' })
    const right = createLocalContentRequestHandler({ content: config, logger, getJWT: () => jwt })
    assert.equal((await right(put()))?.status, 200)
    // The service in place of its config: the handler finds no prefixes, and takes the upload for some other request.
    const service = createLocalContentRequestHandler({ content: content as never, logger, getJWT: () => jwt })
    assert.equal(await service(put()), null)
    // Another jwt service (another key), or none, cannot verify the signature: the upload is refused.
    const { createJWTService } = await import('../../src/jwt-service.js')
    const { LocalSecretService, LocalVariablesService } = await import('@pikku/core/services')
    const other = await createJWTService(new LocalSecretService(new LocalVariablesService({ JWT_SECRET: 'another-behaviour-key-0123456789abcdef' })))
    assert.equal((await createLocalContentRequestHandler({ content: config, logger, getJWT: () => other })(put()))?.status, 403)
    assert.equal((await createLocalContentRequestHandler({ content: config, logger, getJWT: () => undefined })(put()))?.status, 403)
  } finally {
    await cleanup()
  }
})

// --- the servers that answer LocalContent's URLs ---

test('node-http-server-content: @pikku/node-http-server refuses an upload over 1mb with 413 when sizeLimit is unset, and serves a file uploaded as image/png as application/octet-stream', async () => {
  const { jwt, config, content, logger, cleanup } = await contentSetup()
  const server = new PikkuNodeHTTPServer({ port: 0, hostname: '127.0.0.1', content: config, shutdownGracePeriodMs: 100 } as never, logger, { contentSigningJWT: jwt })
  let started = false
  try {
    await server.start()
    started = true
    const origin = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`
    const upload = async (bytes: number, type = 'application/octet-stream') => {
      const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/photo', contentType: type })
      const response = await fetch(origin + uploadUrl, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': type } })
      return { status: response.status, text: await response.text() }
    }
    assert.deepEqual(await upload(1024 * 1024 + 1), { status: 413, text: 'Content too large' })
    assert.equal((await upload(1024 * 1024, 'image/png')).status, 200)
    const link = await content.signContentKey({ bucket: 'attachments', contentKey: 't1/photo', dateLessThan: inAMinute() })
    const read = await fetch(origin + link)
    assert.equal(read.status, 200)
    assert.equal(read.headers.get('content-type'), 'application/octet-stream')
    assert.equal((await read.arrayBuffer()).byteLength, 1024 * 1024)
  } finally {
    if (started) await server.stop()
    await cleanup()
  }
})

test('express-reaper-size-limit: the Express server\'s enableReaper() upload route refuses an upload over 1mb with 413 when sizeLimit is unset', async () => {
  // The route is PUT /reaper/*, whatever uploadUrlPrefix says; the signature is checked with the singletons' jwt.
  const { jwt, config, content, logger, cleanup } = await contentSetup({ uploadUrlPrefix: '/reaper' })
  const previous = pikkuState(null, 'package', 'singletonServices')
  let listening: ReturnType<PikkuExpressServer['app']['listen']> | undefined
  try {
    pikkuState(null, 'package', 'singletonServices', { ...(previous ?? {}), jwt } as never)
    const server = new PikkuExpressServer({ port: 0, hostname: '127.0.0.1', content: config } as never, logger)
    server.enableReaper()
    listening = server.app.listen(0, '127.0.0.1')
    await new Promise<void>((resolve, reject) => listening!.once('listening', () => resolve()).once('error', reject))
    const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
    const upload = async (bytes: number) => {
      const { uploadUrl } = await content.getUploadURL({ bucket: 'attachments', fileKey: 't1/big', contentType: 'text/plain' })
      const response = await fetch(origin + uploadUrl, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'text/plain' } })
      await response.arrayBuffer()
      return response.status
    }
    assert.equal(await upload(1024 * 1024 + 1), 413)
    assert.equal(await upload(1024 * 1024), 200)
  } finally {
    if (listening?.listening) await new Promise<void>((resolve) => listening!.close(() => resolve()))
    pikkuState(null, 'package', 'singletonServices', previous as never)
    await cleanup()
  }
})

// --- turning on the console's back end (docs/console/index.mdx, "Turn on its back end") ---

test('enable-console-sets-pikku-dir: pikku enable console sets scaffold.console and, when unset, scaffold.pikkuDir to "pikku", which moves the console scaffold from scaffold in the first source directory to pikku at the root; setting the flag by hand leaves it in scaffold', async () => {
  const { enableConsole } = await import('../../node_modules/@pikku/cli/dist/src/functions/commands/enable.js')
  // The command's function called in this process, as pikku enable console runs it, with only the services it reads.
  const enable = enableConsole.func as unknown as (services: object) => Promise<void>
  const { getPikkuCLIConfig } = await import('../../node_modules/@pikku/cli/dist/src/utils/pikku-cli-config.js')
  const root = runTempDir('enable-console')
  const configFile = join(root, 'pikku.config.json')
  const base = { tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku' }
  const consoleFile = async () => (await getPikkuCLIConfig(recordingLogger().logger as never, configFile, [])).consoleFunctionsFile as string
  try {
    writeFileSync(configFile, JSON.stringify({ ...base, scaffold: { console: true } }))
    const byHand = await consoleFile()
    assert.ok(byHand.startsWith(join(root, 'src', 'scaffold') + '/'), byHand)
    writeFileSync(configFile, JSON.stringify(base))
    await enable({ logger: recordingLogger().logger, config: { configDir: root } })
    assert.deepEqual(JSON.parse(readFileSync(configFile, 'utf8')).scaffold, { pikkuDir: 'pikku', console: true })
    const enabled = await consoleFile()
    assert.ok(enabled.startsWith(join(root, 'pikku') + '/'), enabled)
    // A pikkuDir already set is kept.
    writeFileSync(configFile, JSON.stringify({ ...base, scaffold: { pikkuDir: 'gen/scaffold' } }))
    await enable({ logger: recordingLogger().logger, config: { configDir: root } })
    assert.deepEqual(JSON.parse(readFileSync(configFile, 'utf8')).scaffold, { pikkuDir: 'gen/scaffold', console: true })
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})

test('console-scaffold-needs-better-auth: with scaffold.console on, the console step of code generation throws "\"scaffold.console\" is enabled but no pikkuBetterAuth(...) was found in the project." when no source file calls pikkuBetterAuth, and writes the console functions file once one does', async () => {
  const { pikkuConsoleFunctions } = await import('../../node_modules/@pikku/cli/dist/src/functions/wirings/console/pikku-command-console-functions.js')
  const { getPikkuCLIConfig } = await import('../../node_modules/@pikku/cli/dist/src/utils/pikku-cli-config.js')
  const { LocalVariablesService } = await import('@pikku/core/services')
  const root = runTempDir('console-scaffold')
  try {
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src', 'functions.ts'), 'export const nothing = 1\n')
    const configFile = join(root, 'pikku.config.json')
    writeFileSync(configFile, JSON.stringify({ tsconfig: './tsconfig.json', srcDirectories: ['./src'], outDir: './.pikku', scaffold: { console: true } }))
    const logger = recordingLogger().logger as never
    const func = pikkuConsoleFunctions.func as unknown as (services: object) => Promise<boolean>
    const generate = async () => func({ logger, config: await getPikkuCLIConfig(logger, configFile, []), variables: new LocalVariablesService({}) })
    await assert.rejects(generate(), (error: Error) => error.message.startsWith('"scaffold.console" is enabled but no pikkuBetterAuth(...) was found in the project.\n'))
    writeFileSync(join(root, 'src', 'auth.ts'), 'export const auth = pikkuBetterAuth({})\n')
    assert.equal(await generate(), true)
    const { consoleFunctionsFile } = await getPikkuCLIConfig(logger, configFile, [])
    assert.ok(consoleFunctionsFile.startsWith(join(root, 'src', 'scaffold') + '/'), consoleFunctionsFile)
    assert.ok(existsSync(consoleFunctionsFile), consoleFunctionsFile)
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})

// --- dev quick login (docs/console/index.mdx) ---

test('quick-login-local-requests-only: quick login answers only a Host of localhost, 127.0.0.1 or [::1], with or without a port, with no proxy header, and never with NODE_ENV=production', async () => {
  const { isDevQuickLoginRequest } = await import('../../node_modules/@pikku/better-auth/dist/dev-quick-login.js')
  const asks = (host: string, headers: Record<string, string> = {}) =>
    isDevQuickLoginRequest(new Request('http://localhost/api/auth/dev/quick-login', { method: 'POST', headers: { host, ...headers } }), '/api/auth')
  await withEnv({ PIKKU_DEV_QUICK_LOGIN: 'true', NODE_ENV: 'test' }, async () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:3000', '[::1]', '[::1]:3000']) {
      assert.equal(asks(host), true, host)
    }
    for (const host of ['127.0.0.2', '127.0.0.2:3000', 'example.com', '0.0.0.0']) {
      assert.equal(asks(host), false, host)
    }
    for (const header of ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']) {
      assert.equal(asks('localhost:3000', { [header]: '127.0.0.1' }), false, header)
    }
  })
  await withEnv({ PIKKU_DEV_QUICK_LOGIN: 'true', NODE_ENV: 'production' }, async () => {
    assert.equal(asks('localhost:3000'), false)
  })
})

// --- the agent runner pikku dev builds (docs/console/index.mdx, "What goes wrong") ---

test('dev-agent-runner-needs-a-pair: the runner pikku dev builds is left out unless OPENAI_BASE_URL and OPENAI_API_KEY, or LITELLM_PROXY_URL and LITELLM_API_KEY, are both set; a URL of one pair with the key of the other gives none', async () => {
  const { createDevAgentRunner } = await import('../../node_modules/@pikku/cli/dist/src/functions/commands/dev-agent-runner.js')
  const { LocalVariablesService } = await import('@pikku/core/services')
  const build = (vars: Record<string, string>) =>
    createDevAgentRunner({ logger: recordingLogger().logger, projectRoot: join(import.meta.dirname, '..', '..'), variables: new LocalVariablesService(vars) })
  assert.equal(await build({}), undefined)
  assert.equal(await build({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }), undefined)
  assert.equal(await build({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', LITELLM_API_KEY: 'k' }), undefined)
  assert.equal(await build({ LITELLM_PROXY_URL: 'http://127.0.0.1:9', OPENAI_API_KEY: 'k' }), undefined)
  assert.notEqual(await build({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k' }), undefined)
  assert.notEqual(await build({ LITELLM_PROXY_URL: 'http://127.0.0.1:9', LITELLM_API_KEY: 'k' }), undefined)
})

// --- the database pikku dev opens (docs/console/index.mdx, "What goes wrong") ---

test('dev-db-resolution: resolveDb refuses a config with both postgresUrl and sqliteDb with "Both postgresUrl and sqliteDb are set.", a libsql:// or http(s):// DATABASE_URL parses to no database, and with none only a db/sqlite or db/postgres folder gives a local one', async () => {
  const { parseDatabaseUrl, resolveDb } = await import('../../node_modules/@pikku/cli/dist/src/functions/db/local-db.js')
  const root = runTempDir('dev-db')
  try {
    const outDir = join(root, '.pikku')
    assert.throws(() => resolveDb({ postgresUrl: 'postgres://localhost/todo', sqliteDb: 'todo.db' }, root, outDir), {
      message: 'Both postgresUrl and sqliteDb are set. Configure exactly one database dialect.',
    })
    for (const url of ['libsql://todo.turso.io', 'http://127.0.0.1:8080', 'https://todo.example.com']) {
      assert.deepEqual(parseDatabaseUrl(url), {}, url)
    }
    assert.deepEqual(parseDatabaseUrl('postgres://localhost/todo'), { postgresUrl: 'postgres://localhost/todo' })
    assert.equal(resolveDb({}, root, outDir), null)
    mkdirSync(join(root, 'db', 'postgres'), { recursive: true })
    assert.deepEqual([resolveDb({}, root, outDir)?.dialect, (resolveDb({}, root, outDir) as { mode?: string } | null)?.mode], ['postgres', 'pglite'])
    mkdirSync(join(root, 'db', 'sqlite'), { recursive: true })
    const sqlite = resolveDb({}, root, outDir)
    assert.equal(sqlite?.dialect, 'sqlite')
    assert.equal(sqlite?.dbFile, join(root, '.pikku-runtime', 'dev.db'))
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})

// --- pikku validate's bootstrap check (docs/console/index.mdx, "What goes wrong") ---

test('validate-custom-server-bootstrap: the check pikku validate runs reports a root start or dev script that runs neither pikku dev nor pikku serve, whatever it runs, as a warning by default; a runtime adapter dependency, a script that hands off to npm run or turbo, and lint.customServerBootstrap "off" are not reported', async () => {
  const { runBootstrapChecks } = await import('../../node_modules/@pikku/cli/dist/src/functions/validate/bootstrap-checks.js')
  const root = runTempDir('bootstrap')
  try {
    const check = (pkg: object, config: object | null = null) => runBootstrapChecks(root, pkg, config)
    for (const start of ['node dist/start.js', 'echo hello', 'tsx src/start.ts']) {
      const findings = await check({ scripts: { start } })
      assert.equal(findings.length, 1, start)
      assert.equal(findings[0].id, 'custom-server-bootstrap')
      assert.equal(findings[0].severity, 'warn')
    }
    assert.match((await check({ scripts: { dev: 'tsx watch src/start.ts' } }))[0]?.message ?? '', /^package\.json "dev" script starts a server without `pikku dev` or `pikku serve`/)
    assert.deepEqual(await check({ scripts: { start: 'pikku serve', dev: 'npx pikku dev --port 4000' } }), [])
    for (const adapter of ['@pikku/express-middleware', '@pikku/lambda']) {
      assert.deepEqual(await check({ scripts: { start: 'node dist/start.js' }, dependencies: { [adapter]: '*' } }), [], adapter)
    }
    assert.deepEqual(await check({ scripts: { start: 'npm run serve', dev: 'turbo run dev' } }), [])
    assert.deepEqual(await check({ scripts: { start: 'node dist/start.js' } }, { lint: { customServerBootstrap: 'off' } }), [])
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})
