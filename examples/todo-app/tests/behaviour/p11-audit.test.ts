// Checks behind the service API pages (docs/api/*.mdx) that no other file covers: core's LocalContent request
// handler and the Node HTTP server in front of it, run in-process with no app.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import type { LocalContentConfig } from '@pikku/core/services/local-content'
import { createLocalContentRequestHandler } from '@pikku/core/services/local-content-request-handler'
import { PikkuNodeHTTPServer } from '@pikku/node-http-server'
import { recordingLogger } from './harness/core-probes.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { runTempDir } from './harness/temp.js'

/** Prefixes only: neither check below reaches the disk. */
const config: LocalContentConfig = { localFileUploadPath: '/nonexistent-content-root', uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets' }

test('content-handler-malformed-escape-rejects: createLocalContentRequestHandler rejects with URIError "URI malformed" for any path with a malformed percent escape, a non-content one included, where a well-formed one gets null; with a content config the Node HTTP server answers such a path 500 after logging that error', async () => {
  const { logger, lines } = recordingLogger()
  const handle = createLocalContentRequestHandler({ content: config, logger: logger as never, getJWT: () => undefined })
  assert.equal(await handle(new Request('http://localhost/todos/100%25')), null)
  await assert.rejects(handle(new Request('http://localhost/todos/100%')), { name: 'URIError', message: 'URI malformed' })
  await assert.rejects(handle(new Request('http://localhost/assets/a%E0%A4%A')), { name: 'URIError', message: 'URI malformed' })

  const server = new PikkuNodeHTTPServer({ port: 0, hostname: '127.0.0.1', content: config, shutdownGracePeriodMs: 100 } as never, logger as never, {})
  let started = false
  try {
    await server.start()
    started = true
    const origin = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`
    const response = await fetch(`${origin}/todos/100%`)
    assert.equal(response.status, 500)
    assert.equal(await response.text(), '{"error":"internal_error"}')
    assert.ok(lines.some((line) => line.level === 'error' && line.text === 'node-http-server: handler error: URIError: URI malformed'), JSON.stringify(lines))
  } finally {
    if (started) await server.stop()
  }
})

test('kysely-session-store-set-rejects: KyselySessionStore.set does not catch the database\'s refusal of its insert … on conflict, so PikkuSessionService.set, behind a function\'s setSession, rejects with that error', async () => {
  const { Kysely, MysqlDialect, CamelCasePlugin } = await import('kysely')
  const { KyselySessionStore } = await import('@pikku/kysely')
  const { PikkuSessionService } = await import('@pikku/core/services')
  // No MySQL server here: a pool that refuses the upsert as MySQL does, and answers anything else with no rows.
  const refusal = "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'on conflict'"
  const connection = {
    query: (text: string, _parameters: unknown, done: (error: Error | null, rows?: unknown[]) => void) =>
      text.includes(' on conflict ') ? done(Object.assign(new Error(refusal), { code: 'ER_PARSE_ERROR' })) : done(null, []),
    release: () => {},
  }
  const pool = { getConnection: (done: (error: null, c: typeof connection) => void) => done(null, connection), end: (done: () => void) => done() }
  const db = new Kysely<never>({ dialect: new MysqlDialect({ pool: pool as never }), plugins: [new CamelCasePlugin()] })
  try {
    const store = new KyselySessionStore(db as never)
    await assert.rejects(store.set('u_alice', { userId: 'u_alice' }), { code: 'ER_PARSE_ERROR', message: refusal })
    const sessions = new PikkuSessionService(store)
    sessions.setPikkuUserId('u_alice')
    await assert.rejects(Promise.resolve(sessions.set({ userId: 'u_alice' })), { code: 'ER_PARSE_ERROR' })
    // The delete has no upsert, and goes through.
    await sessions.clear()
  } finally {
    await db.destroy()
  }
})

test('pku921-inline-function: in an addon, a function defined inline in a defineHTTPRoutes call with its own permissions: is reported as PKU921, while the same function defined outside the contract and referenced by name is not', async () => {
  const head = "import { pikkuSessionlessFunc } from '#pikku/function'\nimport { defineHTTPRoutes } from '#pikku/http'\n"
  const inline = `${head}export const c = defineHTTPRoutes({ routes: { p: { method: 'post', route: '/p', func: pikkuSessionlessFunc<void, void>({ func: async () => {}, permissions: {} }) } } })\n`
  const outside = `${head}export const probe = pikkuSessionlessFunc<void, void>({ func: async () => {}, permissions: {} })\nexport const c = defineHTTPRoutes({ routes: { p: { method: 'post', route: '/p', func: probe } } })\n`
  const pku921 = async (name: string, text: string) =>
    codes((await inspectFiles(name, { 'probe.ts': text }, { isAddon: true })).reported).filter((c) => c.startsWith('PKU921'))
  assert.deepEqual(await pku921('p28-inline-func', inline), ['PKU921 critical'])
  assert.deepEqual(await pku921('p28-outside-func', outside), [])
})

test('content-link-dotdot-prefix: an assetKey such as attachments/t1/../t2/<uuid> passes a startsWith(\'attachments/t1/\') check, and the link LocalContent.signContentKey makes from it is served by the request handler with t2\'s file', async () => {
  const { rm } = await import('node:fs/promises')
  const { Readable } = await import('node:stream')
  const { LocalContent } = await import('@pikku/core/services/local-content')
  const { JoseJWTService } = await import('@pikku/jose')
  const { logger } = recordingLogger()
  const root = runTempDir('p28-content')
  try {
    const jwt = new JoseJWTService(async () => [{ id: 'k1', value: 'a-content-signing-key-of-32-characters' }]) as never
    const local = { localFileUploadPath: root, uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets' }
    const content = new LocalContent(local, logger as never, jwt)
    const handle = createLocalContentRequestHandler({ content: local, logger: logger as never, getJWT: () => jwt })
    const id = crypto.randomUUID()
    assert.equal(await content.writeFile({ bucket: 'attachments', key: `t2/${id}`, stream: Readable.from(['t2 only']) }), true)
    const assetKey = `attachments/t1/../t2/${id}`
    assert.ok(assetKey.startsWith('attachments/t1/'))
    const link = await content.signContentKey({ bucket: 'attachments', contentKey: assetKey.slice('attachments/'.length), dateLessThan: new Date(Date.now() + 60 * 1000) })
    const read = await handle(new Request(new URL(link, 'http://localhost')))
    assert.equal(read?.status, 200)
    assert.equal(await read!.text(), 't2 only')
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})
