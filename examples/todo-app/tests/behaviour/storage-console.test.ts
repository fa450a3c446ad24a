// Storage and the console (docs/storage/index.mdx, docs/api/content-service.mdx, docs/console/index.mdx): what
// LocalContent, its request handler and the servers that answer its URLs do, run in-process, and the checks of dev
// quick login. Nothing here starts the app: each test builds the few services it needs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rm } from 'node:fs/promises'
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
  await server.start()
  try {
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
    await server.stop()
    await cleanup()
  }
})

test('express-reaper-size-limit: the Express server\'s enableReaper() upload route refuses an upload over 1mb with 413 when sizeLimit is unset', async () => {
  // The route is PUT /reaper/*, whatever uploadUrlPrefix says; the signature is checked with the singletons' jwt.
  const { jwt, config, content, logger, cleanup } = await contentSetup({ uploadUrlPrefix: '/reaper' })
  const previous = pikkuState(null, 'package', 'singletonServices')
  pikkuState(null, 'package', 'singletonServices', { ...(previous ?? {}), jwt } as never)
  const server = new PikkuExpressServer({ port: 0, hostname: '127.0.0.1', content: config } as never, logger)
  server.enableReaper()
  const listening = server.app.listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => listening.once('listening', () => resolve()))
  try {
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
    await new Promise<void>((resolve) => listening.close(() => resolve()))
    pikkuState(null, 'package', 'singletonServices', previous as never)
    await cleanup()
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
