// The app's three auth middlewares (src/auth.ts) on the real @pikku/express, with the `jwt` service of
// src/jwt-service.ts added to the singleton services, as src/services.auth.skill.ts does.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { JWTService } from '@pikku/core/services'
import { ConsoleLogger, LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { InvalidSessionError } from '@pikku/core/errors'
import { PikkuFetch } from '#pikku/pikku-fetch.gen.js'
import { addGlobalMiddleware } from '#pikku/middleware'
import { authAPIKey, authBearer, authCookie } from '@pikku/core/middleware'
import type { UserSession } from '../../src/application-types.js'
import { startExpressApp, type RunningApp } from './harness/app.js'
import { createTestJWT, forgedToken } from './harness/http.js'
import { withEnv } from './harness/env.js'
import { createJWTService } from '../../src/jwt-service.js'
import { JoseJWTService } from '@pikku/jose'
import { LocalContent } from '@pikku/core/services/local-content'

let app: RunningApp
let jwt: JWTService

const alice = { userId: 'u_alice', role: 'member' as const }
const bob = { userId: 'u_bob', role: 'member' as const }
const token = (session: object) => jwt.encode({ value: 1, unit: 'hour' }, session)

/** The caller the app saw: the owner of a to-do created with these headers. */
const createdBy = async (headers: Record<string, string>, query = '') => {
  const response = await fetch(`${app.url}/todos${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ title: 'Who am I?' }),
  })
  return { status: response.status, body: await response.json() }
}

// Static-token middleware, registered after the app's own JWT-mode authBearer, as a second module would.
const reportingBot: UserSession = { userId: 'reporting-bot', role: 'member' }
const unsetBot: UserSession = { userId: 'unset-bot', role: 'member' }
const STATIC_TOKEN = 'static-reporting-token-0123456789'

before(async () => {
  delete process.env.UNSET_REPORTING_TOKEN
  addGlobalMiddleware([
    authBearer({ token: { value: STATIC_TOKEN, userSession: reportingBot } }),
    authBearer({ token: { secretId: 'UNSET_REPORTING_TOKEN', userSession: unsetBot } }),
  ])
  process.env.JWT_SECRET = 'behaviour-suite-secret-of-at-least-32-chars'
  jwt = await createTestJWT()
  app = await startExpressApp({ jwt })
})
after(() => app.stop())

test('bearer-session: a Bearer JWT signed by the jwt service becomes the session', async () => {
  const { status, body } = await createdBy({ authorization: `Bearer ${await token(alice)}` })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_alice')
})

test('no-credential-403: a session function called with no credential answers 403 "Authentication required"', async () => {
  const response = await fetch(`${app.url}/todos`)
  assert.equal(response.status, 403)
  const body = await response.json()
  assert.equal(body.message, 'Authentication required')
  assert.equal(body.name, 'ForbiddenError')
})

test('bearer-wrong-scheme-401: an Authorization header with another scheme, or Bearer with no token, answers 401', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } })
  assert.equal(response.status, 401)
  assert.equal((await response.json()).name, 'InvalidSessionError')
  // The Bearer scheme with no token after it is refused the same way.
  const noToken = await fetch(`${app.url}/todos`, { headers: { authorization: 'Bearer' } })
  assert.equal(noToken.status, 401)
  assert.equal((await noToken.json()).name, 'InvalidSessionError')
})

test('bearer-lowercase-401: a lowercase "bearer" scheme with a valid token answers 401', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: `bearer ${await token(alice)}` } })
  assert.equal(response.status, 401)
})

test('bearer-scheme-public-route-401: the scheme check also runs on a public route (auth: false)', async () => {
  const response = await fetch(`${app.url}/health`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } })
  assert.equal(response.status, 401)
})

/** Runs `body` with the app's jwt service wrapped so that a decode that fails throws InvalidSessionError; put back after. */
const withRejectingDecode = async (body: () => Promise<void>) => {
  const services = app.services as { jwt?: JWTService }
  const saved = services.jwt!
  services.jwt = {
    encode: (expiresIn, payload) => saved.encode(expiresIn, payload),
    decode: async <T>(hash: string) => {
      try {
        return await saved.decode<T>(hash)
      } catch {
        throw new InvalidSessionError()
      }
    },
  }
  try {
    await body()
  } finally {
    services.jwt = saved
  }
}

/** The events of an SSE answer that ends by itself, read to its end: the status and each data: frame, parsed. */
const finishedStream = async (path: string, headers: Record<string, string>) => {
  const response = await fetch(`${app.url}${path}`, { headers: { accept: 'text/event-stream', ...headers } })
  const text = await response.text()
  const events = text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)))
  return { status: response.status, events }
}

test('sse-unverified-token-events: on the sse route GET /todos/changes an expired or forged token answers 200 with an "Internal server error" event, then done; behind a decode that throws InvalidSessionError the event holds that class\'s registered message instead of a 401', async () => {
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, alice)
  const forged = await forgedToken(alice)
  for (const bad of [expired, forged]) {
    assert.deepEqual(await finishedStream('/todos/changes', { authorization: `Bearer ${bad}` }), {
      status: 200,
      events: [{ type: 'error', errorText: 'Internal server error' }, { type: 'done' }],
    })
  }
  await withRejectingDecode(async () => {
    assert.deepEqual(await finishedStream('/todos/changes', { authorization: `Bearer ${expired}` }), {
      status: 200,
      events: [{ type: 'error', errorText: 'The session provided is not valid.' }, { type: 'done' }],
    })
  })
})

test('bearer-forged-500: a token signed with another key answers 500 with an errorId', async () => {
  const forged = await forgedToken(alice)
  await assert.rejects(jwt.decode(forged))
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: `Bearer ${forged}` } })
  assert.equal(response.status, 500)
  assert.equal(typeof (await response.json()).errorId, 'string')
})

test('bearer-garbage-500: a malformed bearer token answers 500 with an errorId, not 401', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: 'Bearer not-a-jwt' } })
  assert.equal(response.status, 500)
  assert.equal(typeof (await response.json()).errorId, 'string')
})

test('bearer-expired-500: an expired token answers 500 with an errorId, not 401', async () => {
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, alice)
  await assert.rejects(jwt.decode(expired), { code: 'ERR_JWT_EXPIRED' })
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: `Bearer ${expired}` } })
  assert.equal(response.status, 500)
  assert.equal(typeof (await response.json()).errorId, 'string')
})

test('stale-cookie-public-500: a cookie that does not verify breaks the public GET /health with a 500', async () => {
  const forged = await forgedToken(alice)
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, alice)
  // Garbled, signed with another key, expired: jwt.decode throws on each, and authCookie does not catch it.
  for (const value of ['not-a-jwt', forged, expired]) {
    const response = await fetch(`${app.url}/health`, { headers: { cookie: `todo_session=${value}` } })
    assert.equal(response.status, 500)
  }
})

test('preflight-auth-skipped: on an OPTIONS request that matches no route, the \'*\' group runs with no setSession on the wire, so authCookie and authAPIKey do not decode an undecodable credential and authBearer does not refuse a Basic header; the same headers on GET /health answer 500, 401 and 500', async () => {
  const { fetch: coreFetch } = await import('@pikku/core/http')
  const { pikkuState } = await import('@pikku/core/state')
  const httpGroups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown[]>
  const saved = httpGroups['*']!
  assert.ok(Array.isArray(saved))
  const cookie = 'todo_session=not-a-jwt'
  const authorization = 'Basic dXNlcjpwYXNz'
  try {
    // Ahead of the app's cors(), which answers an OPTIONS request without calling next().
    const reached: string[] = []
    const probe = async (_services: unknown, _wire: unknown, next: () => Promise<unknown>) => {
      reached.push('past the auth middleware')
      await next()
    }
    httpGroups['*'] = [
      authCookie({ name: 'todo_session', options: {}, expiresIn: { value: 7, unit: 'day' } }),
      authBearer({}),
      authAPIKey({ source: 'header' }),
      probe,
      ...saved,
    ]
    const preflight = await coreFetch(
      new Request('http://localhost/no-such-route', { method: 'OPTIONS', headers: { cookie, authorization, 'x-api-key': 'not-a-jwt' } }),
    )
    assert.equal(preflight.status, 204)
    assert.deepEqual(reached, ['past the auth middleware'])
    assert.equal((await coreFetch(new Request('http://localhost/health', { headers: { cookie } }))).status, 500)
    assert.equal((await coreFetch(new Request('http://localhost/health', { headers: { authorization } }))).status, 401)
    assert.equal((await coreFetch(new Request('http://localhost/health', { headers: { 'x-api-key': 'not-a-jwt' } }))).status, 500)
  } finally {
    httpGroups['*'] = saved
  }
})

test('cookie-session: a todo_session cookie holding a signed session becomes the session', async () => {
  const { status, body } = await createdBy({ cookie: `todo_session=${await token(alice)}` })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_alice')
})

test('cookie-not-rewritten: an ordinary request with a cookie gets no Set-Cookie back', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { cookie: `todo_session=${await token(alice)}` } })
  assert.equal(response.status, 200)
  assert.equal(response.headers.get('set-cookie'), null)
})

test('cookie-timestamps-only-403: a cookie whose token holds only JWT timestamps is no session', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { cookie: `todo_session=${await token({})}` } })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Authentication required')
})

test('apikey-header: an x-api-key header holding a signed session becomes the session', async () => {
  const { status, body } = await createdBy({ 'x-api-key': await token(bob) })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_bob')
  // GET /todos for a caller with no to-dos yet, as the auth-middleware skill checks it.
  const list = await fetch(`${app.url}/todos`, { headers: { 'x-api-key': await token({ userId: 'u_keyholder', role: 'member' }) } })
  assert.equal(list.status, 200)
  assert.deepEqual(await list.json(), { todos: [] })
})

test('apikey-query-ignored-403: with source "header", an apiKey query parameter is not read', async () => {
  const { status, body } = await createdBy({}, `?apiKey=${await token(bob)}`)
  assert.equal(status, 403)
  assert.equal(body.message, 'Authentication required')
})

test('apikey-opaque-500: an opaque (non-JWT) API key answers 500', async () => {
  const { status } = await createdBy({ 'x-api-key': 'sk_live_0123456789abcdef' })
  assert.equal(status, 500)
})

test('bearer-then-apikey-last-wins: with a bearer token and an API key, the API key\'s session is used', async () => {
  const { status, body } = await createdBy({
    authorization: `Bearer ${await token(alice)}`,
    'x-api-key': await token(bob),
  })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_bob')
})

test('bearer-then-cookie-last-wins: with a bearer token and a cookie, the cookie\'s session is used', async () => {
  const { status, body } = await createdBy({
    authorization: `Bearer ${await token(alice)}`,
    cookie: `todo_session=${await token(bob)}`,
  })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_bob')
})

test('no-jwt-service-403: with no jwt service, a valid bearer token, cookie or API key is ignored and the call answers 403; an Authorization header with another scheme still answers 401', async () => {
  const services = app.services as { jwt?: JWTService }
  const saved = services.jwt
  delete services.jwt
  try {
    const signed = await token(alice)
    const credentials: Record<string, string>[] = [
      { authorization: `Bearer ${signed}` },
      { cookie: `todo_session=${signed}` },
      { 'x-api-key': signed },
    ]
    for (const headers of credentials) {
      const { status, body } = await createdBy(headers)
      assert.equal(status, 403)
      assert.equal(body.message, 'Authentication required')
    }
    // authBearer checks the scheme before it looks for the jwt service.
    const malformed = await createdBy({ authorization: 'Basic dXNlcjpwYXNz' })
    assert.equal(malformed.status, 401)
    assert.equal(malformed.body.name, 'InvalidSessionError')
  } finally {
    services.jwt = saved
  }
})

test('no-jwt-service-session-routes-403: with no jwt service, DELETE /session and POST /session/act-as-member answer 403 to a signed cookie', async () => {
  const services = app.services as { jwt?: JWTService }
  const saved = services.jwt
  delete services.jwt
  try {
    const cookie = `todo_session=${await token({ userId: 'u_admin', role: 'admin' })}`
    for (const [method, path] of [['DELETE', '/session'], ['POST', '/session/act-as-member']]) {
      const response = await fetch(`${app.url}${path}`, { method, headers: { cookie } })
      assert.equal(response.status, 403)
      assert.equal((await response.json()).message, 'Authentication required')
      assert.equal(response.headers.get('set-cookie'), null)
    }
  } finally {
    services.jwt = saved
  }
})

test('cookie-then-apikey-last-wins: with a cookie and an API key, the API key (later in the "*" group) wins', async () => {
  const { status, body } = await createdBy({
    cookie: `todo_session=${await token(alice)}`,
    'x-api-key': await token(bob),
  })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_bob')
})

test('apikey-expired-500: an expired API key answers 500, not 401', async () => {
  const { status } = await createdBy({ 'x-api-key': await jwt.encode({ value: -1, unit: 'hour' }, bob) })
  assert.equal(status, 500)
})

test('apikey-forged-500: an API key signed with another key answers 500, not 401', async () => {
  const forged = await forgedToken(bob)
  await assert.rejects(jwt.decode(forged))
  const { status } = await createdBy({ 'x-api-key': forged })
  assert.equal(status, 500)
})

test('fetch-client-apikey: the generated fetch client sends setAPIKey as X-API-KEY, and only the JWT once one is set too', async () => {
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAPIKey(await token(bob))
  assert.equal((await client.post('/todos', { title: 'From a script' })).ownerId, 'u_bob')
  client.setAuthorizationJWT(await token(alice))
  // Were both headers sent, the API key would win (bearer-then-apikey-last-wins); the owner is the JWT's user.
  assert.equal((await client.post('/todos', { title: 'From a script' })).ownerId, 'u_alice')
})

test('rejecting-decode-401: a jwt service whose decode throws InvalidSessionError turns a bad token into 401, on public routes too', async () => {
  await withRejectingDecode(async () => {
    const expired = await jwt.encode({ value: -1, unit: 'hour' }, alice)
    const privateRoute = await fetch(`${app.url}/todos`, { headers: { authorization: `Bearer ${expired}` } })
    assert.equal(privateRoute.status, 401)
    const publicRoute = await fetch(`${app.url}/health`, { headers: { cookie: `todo_session=${expired}` } })
    assert.equal(publicRoute.status, 401)
  })
})

test('all-three-last-wins: with a bearer token, a cookie and an API key, the API key\'s session is used', async () => {
  const { status, body } = await createdBy({
    authorization: `Bearer ${await token(alice)}`,
    cookie: `todo_session=${await token({ userId: 'u_carol', role: 'member' })}`,
    'x-api-key': await token(bob),
  })
  assert.equal(status, 200)
  assert.equal(body.ownerId, 'u_bob')
})

test('static-token-behind-jwt-mode-500: a static token on a route that also runs JWT-mode authBearer answers 500', async () => {
  const { status } = await createdBy({ authorization: `Bearer ${STATIC_TOKEN}` })
  assert.equal(status, 500)
})

test('static-token-session: where no JWT-mode decode runs, a bearer token equal to token.value becomes token.userSession', async () => {
  const services = app.services as { jwt?: JWTService }
  const saved = services.jwt
  delete services.jwt
  try {
    const { status, body } = await createdBy({ authorization: `Bearer ${STATIC_TOKEN}` })
    assert.equal(status, 200)
    assert.equal(body.ownerId, 'reporting-bot')
    // Any other token matches neither static token: no session.
    const other = await createdBy({ authorization: 'Bearer some-other-token' })
    assert.equal(other.status, 403)
  } finally {
    services.jwt = saved
  }
})

test('static-secret-token-session: a bearer token equal to the secret that token.secretId names becomes token.userSession, read when the request comes in', async () => {
  const services = app.services as { jwt?: JWTService }
  const saved = services.jwt
  delete services.jwt
  const secretToken = 'secret-reporting-token-0123456789'
  try {
    // The secret is set only after the middleware was registered: it is looked up per request.
    process.env.UNSET_REPORTING_TOKEN = secretToken
    const { status, body } = await createdBy({ authorization: `Bearer ${secretToken}` })
    assert.equal(status, 200)
    assert.equal(body.ownerId, 'unset-bot')
  } finally {
    delete process.env.UNSET_REPORTING_TOKEN
    services.jwt = saved
  }
})

test('logged-token-400: a token captured with a ConsoleLogger line is sent by curl as two header lines, which the Node.js server refuses with 400 before Pikku runs; fetch refuses to send it', async () => {
  // What `$(npx tsx <script>)` holds when the script builds the JWT service with a logger: the logger's line, then
  // the token. ConsoleLogger writes through console.info, which Node.js sends to standard output.
  const printed: string[] = []
  const info = console.info
  console.info = (...args: unknown[]) => void printed.push(args.join(' '))
  try {
    const variables = new LocalVariablesService({ JWT_SECRET: 'behaviour-suite-key-0123456789abcdef' })
    await createJWTService(new LocalSecretService(variables), new ConsoleLogger())
  } finally {
    console.info = info
  }
  assert.equal(printed.length, 1)
  assert.match(printed[0]!, /^INFO: /)
  const captured = `${printed[0]}\n${await token(alice)}`
  const { stdout } = await promisify(execFile)('curl', [
    '-s', '-o', '/dev/null', '-w', '%{http_code} [%{content_type}]',
    '-H', `Authorization: Bearer ${captured}`,
    `${app.url}/todos`,
  ])
  // No content type: the bare 400 of Node.js's HTTP parser, not a Pikku error body.
  assert.equal(stdout, '400 []')
  await assert.rejects(fetch(`${app.url}/todos`, { headers: { authorization: `Bearer ${captured}` } }), TypeError)
})

test('jose-key-list-read-once: a running JoseJWTService keeps signing with the key it loaded; only a decode that meets an unknown kid reads the list again', async () => {
  let keys = [{ id: 'key-1', value: 'first-key-of-at-least-32-characters' }]
  const service = new JoseJWTService(async () => keys)
  const other = new JoseJWTService(async () => keys)
  const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid
  const sign = (by: JoseJWTService) => by.encode({ value: 1, unit: 'hour' }, { userId: 'u_alice' })
  assert.equal(kidOf(await sign(service)), 'key-1')
  // Rotate: the new key goes first, the old one stays for verifying.
  keys = [{ id: 'key-2', value: 'second-key-of-at-least-32-characters' }, keys[0]!]
  assert.equal(kidOf(await sign(service)), 'key-1')
  // A token signed with key-2 elsewhere makes decode reload the list, and from then on this service signs with key-2.
  const fromOther = await sign(other)
  assert.equal(kidOf(fromOther), 'key-2')
  await service.decode(fromOther)
  assert.equal(kidOf(await sign(service)), 'key-2')
})

test('jose-rotated-secret-still-verifies: a running JoseJWTService still accepts a token signed with a key the store no longer holds', async () => {
  let keys = [{ id: 'todo-key-1', value: 'revoked-key-of-at-least-32-characters' }]
  const service = new JoseJWTService(async () => keys)
  const issued = await service.encode({ value: 1, unit: 'hour' }, { userId: 'u_alice' })
  // Rotate to revoke: the same id with a new value, as the app's module would read it.
  keys = [{ id: 'todo-key-1', value: 'replacement-key-of-at-least-32-chars' }]
  const payload = await service.decode<{ userId: string }>(issued)
  assert.equal(payload.userId, 'u_alice')
  // Only a fresh service reads the new key and refuses the old token.
  const restarted = new JoseJWTService(async () => keys)
  await assert.rejects(() => restarted.decode(issued))
})

test('stateless-no-secret-anonymous: betterAuthStatelessSession with no BETTER_AUTH_SECRET logs an error and lets the call through with no session instead of failing it', async () => {
  const { betterAuthStatelessSession } = await import('@pikku/better-auth')
  const errors: string[] = []
  const logger = { error: (message: string) => errors.push(message), warn() {}, info() {}, debug() {} }
  const secrets = new LocalSecretService(new LocalVariablesService({}))
  const sessions: unknown[] = []
  let nextCalled = false
  const request = {
    headers: () => ({ cookie: 'better-auth.session_data=anything' }),
    header: () => undefined,
  }
  const middleware = betterAuthStatelessSession()
  await middleware(
    { logger, secrets } as never,
    { http: { request }, setSession: (s: unknown) => sessions.push(s), session: undefined } as never,
    async () => {
      nextCalled = true
    }
  )
  assert.equal(nextCalled, true)
  assert.deepEqual(sessions, [])
  assert.match(errors.join('\n'), /secret 'BETTER_AUTH_SECRET' not found — session middleware skipped/)
})

test('better-auth-session-live-vs-snapshot: betterAuthSession steps aside for a session an earlier middleware set; betterAuthStatelessSession looks only at the session the call arrived with and goes on to read its secret', async () => {
  const { betterAuthSession, betterAuthStatelessSession } = await import('@pikku/better-auth')
  const earlier = { userId: 'set-by-earlier-middleware' }
  const reads: string[] = []
  const services = {
    logger: { error() {}, warn() {}, info() {}, debug() {} },
    auth: async () => {
      reads.push('auth')
      throw new Error('auth() should not be reached')
    },
    secrets: {
      getSecret: async (id: string) => {
        reads.push(`secret:${id}`)
        throw new Error('Requested secret not found')
      },
    },
  }
  const wire = {
    http: { request: { headers: () => ({}), header: () => undefined } },
    setSession: () => {},
    getSession: () => earlier,
    session: undefined,
  }
  await betterAuthSession()(services as never, wire as never, async () => {})
  assert.deepEqual(reads, [])
  await betterAuthStatelessSession()(services as never, wire as never, async () => {})
  assert.deepEqual(reads, ['secret:BETTER_AUTH_SECRET'])
})

/** A real better-auth instance on its in-memory adapter, one signed-up user, and the cookies the sign-up wrote. */
const signedUpBetterAuth = async (options: Record<string, unknown>) => {
  const { betterAuth } = await import('better-auth')
  const { memoryAdapter } = await import('better-auth/adapters/memory')
  const secret = 'better-auth-secret-of-at-least-32-chars'
  const db: Record<string, Record<string, unknown>[]> = { user: [], session: [], account: [], verification: [] }
  const auth = betterAuth({
    secret,
    baseURL: 'http://localhost:3000',
    database: memoryAdapter(db),
    emailAndPassword: { enabled: true },
    ...options,
  })
  const response = await auth.api.signUpEmail({
    body: { name: 'Alice', email: 'alice@example.com', password: 'alice-password-1' },
    asResponse: true,
  })
  const setCookies = response.headers.getSetCookie()
  const jar = new Map(setCookies.map((c) => c.split(';')[0]!.split('=') as [string, string]))
  const errors: string[] = []
  const services = {
    logger: { error: (message: string) => errors.push(message), warn() {}, info() {}, debug() {} },
    secrets: { getSecret: async () => ({ reveal: () => secret }) },
    auth: async () => auth,
  }
  /** Runs betterAuthStatelessSession on a request carrying the jar; the sessions it set, or the error it threw. */
  const stateless = async () => {
    const { betterAuthStatelessSession } = await import('@pikku/better-auth')
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    const sessions: unknown[] = []
    const wire = {
      http: { request: { headers: () => ({ cookie }), header: () => undefined } },
      setSession: (s: unknown) => sessions.push(s),
      session: undefined,
    }
    try {
      await betterAuthStatelessSession()(services as never, wire as never, async () => {})
      return { sessions }
    } catch (e) {
      return { sessions, thrown: (e as Error).message }
    }
  }
  /** Runs betterAuthSession on a request carrying the jar; the sessions it set and whether it called next(). */
  const live = async (options: Parameters<typeof import('@pikku/better-auth').betterAuthSession>[0] = {}, extra = {}) => {
    const { betterAuthSession } = await import('@pikku/better-auth')
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    const sessions: { scopes?: string[] }[] = []
    let nextCalled = false
    const wire = {
      http: { request: { headers: () => ({ cookie }), header: () => undefined } },
      setSession: (s: { scopes?: string[] }) => sessions.push(s),
      getSession: () => undefined,
      session: undefined,
    }
    await betterAuthSession(options)({ ...services, ...extra } as never, wire as never, async () => {
      nextCalled = true
    })
    return { sessions, nextCalled }
  }
  return { auth, db, jar, setCookies, services, errors, stateless, live }
}

test('stateless-reads-default-cookie-only: betterAuthStatelessSession finds the session with the default cookie cache, throws on a jwe or jwt cache and sees nothing under another cookie prefix', async () => {
  const compact = await signedUpBetterAuth({ session: { cookieCache: { enabled: true } } })
  assert.equal((await compact.stateless()).sessions.length, 1)
  for (const strategy of ['jwe', 'jwt']) {
    const encoded = await signedUpBetterAuth({ session: { cookieCache: { enabled: true, strategy } } })
    assert.ok(encoded.jar.has('better-auth.session_data'))
    const result = await encoded.stateless()
    assert.deepEqual(result.sessions, [])
    assert.equal(result.thrown, 'Invalid Base64 character: .')
    assert.match(encoded.errors.join('\n'), /better-auth stateless session read failed: Invalid Base64 character/)
  }
  const prefixed = await signedUpBetterAuth({
    session: { cookieCache: { enabled: true } },
    advanced: { cookiePrefix: 'todo' },
  })
  assert.ok(prefixed.jar.has('todo.session_data'))
  assert.deepEqual(await prefixed.stateless(), { sessions: [] })
})

test('stateless-session-ends-with-cache: betterAuthStatelessSession stops finding a live session once the cookie cache has aged out, until a request to get-session writes a new one', async (t) => {
  // better-auth reads the clock with Date: the test moves a mocked Date on rather than waiting (t.mock is undone at the end).
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() })
  const { auth, jar, stateless } = await signedUpBetterAuth({ session: { cookieCache: { enabled: true, maxAge: 1 } } })
  assert.equal((await stateless()).sessions.length, 1)
  t.mock.timers.tick(1500)
  assert.deepEqual(await stateless(), { sessions: [] })
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  const refreshed = await auth.handler(new Request('http://localhost:3000/api/auth/get-session', { headers: { cookie } }))
  assert.equal(refreshed.status, 200)
  // The session itself is still live: better-auth answers for it from the session token.
  assert.equal(((await refreshed.clone().json()) as { user?: { email: string } }).user?.email, 'alice@example.com')
  for (const setCookie of refreshed.headers.getSetCookie()) {
    const [name, value] = setCookie.split(';')[0]!.split('=') as [string, string]
    if (value) jar.set(name, value)
  }
  assert.equal((await stateless()).sessions.length, 1)
})

test('better-auth-session-refresh-kept-back: betterAuthSession lets better-auth extend the session in its store, but the cookie the browser holds keeps the lifetime sign-in gave it', async (t) => {
  // better-auth reads the clock with Date: the test moves a mocked Date on rather than waiting (t.mock is undone at the end).
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() })
  const { db, setCookies, live } = await signedUpBetterAuth({ session: { expiresIn: 3, updateAge: 1 } })
  assert.match(setCookies.find((c) => c.startsWith('better-auth.session_token='))!, /Max-Age=3;/)
  const signedInUntil = new Date(db.session![0]!.expiresAt as Date).getTime()
  t.mock.timers.tick(2200)
  const { sessions, nextCalled } = await live()
  assert.equal(sessions.length, 1)
  assert.equal(nextCalled, true)
  // The read moved the session's expiry on; the middleware has no response to put the renewed cookie on.
  assert.ok(new Date(db.session![0]!.expiresAt as Date).getTime() > signedInUntil)
})

test('better-auth-get-session-after-middleware-refresh: once betterAuthSession has extended the session, a get-session request writes no session cookie until updateAge has passed again', async (t) => {
  // better-auth reads the clock with Date: the test moves a mocked Date on rather than waiting (t.mock is undone at the end).
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() })
  const { auth, jar, live } = await signedUpBetterAuth({ session: { expiresIn: 3, updateAge: 1 } })
  t.mock.timers.tick(2200)
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  assert.equal((await live()).sessions.length, 1)
  const getSession = () => auth.handler(new Request('http://localhost:3000/api/auth/get-session', { headers: { cookie } }))
  // Right after the middleware's read extended the session, get-session answers for it but renews nothing.
  const right = await getSession()
  assert.equal(right.status, 200)
  assert.deepEqual(right.headers.getSetCookie(), [])
  // Once updateAge has passed since that extension, get-session is the read that extends it, and it writes the cookie.
  t.mock.timers.tick(1200)
  const later = await getSession()
  assert.ok(later.headers.getSetCookie().some((c) => c.startsWith('better-auth.session_token=')))
})

test('better-auth-scopes-fill-absent-only: betterAuthSession fills session.scopes from the scope service only when the mapped session has none, an empty list included', async () => {
  const { betterAuthSession } = await import('@pikku/better-auth')
  const { live } = await signedUpBetterAuth({})
  const resolved: string[] = []
  const scopeService = {
    resolveScopes: async (userId: string) => {
      resolved.push(userId)
      return ['todos']
    },
  }
  const run = async (options: Parameters<typeof betterAuthSession>[0]) =>
    (await live(options, { scopeService })).sessions.map((s) => s.scopes)
  assert.deepEqual(await run({}), [['todos']])
  assert.equal(resolved.length, 1)
  assert.deepEqual(await run({ mapSession: (r) => ({ userId: r.user.id, scopes: [] }) }), [[]])
  assert.equal(resolved.length, 1)
})

test('console-token-bearer-other-scheme-401: the authBearer that scaffold.console registers, in token mode, still throws InvalidSessionError for an Authorization header that is not Bearer', async () => {
  const consoleToken = authBearer({
    token: { secretId: 'PIKKU_CONSOLE_TOKEN', userSession: { userId: 'pikku-console-token', scopes: ['admin', 'pikku'] } },
  })
  const secrets = new LocalSecretService(new LocalVariablesService({}))
  for (const authorization of ['Basic dXNlcjpwYXNz', 'bearer some-token']) {
    const wire = {
      http: { request: { header: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : undefined) } },
      setSession: () => {},
      session: undefined,
    }
    await assert.rejects(
      () => consoleToken({ secrets } as never, wire as never, async () => {}),
      (e) => e instanceof InvalidSessionError
    )
  }
})

test('console-token-from-variable: with LocalSecretService over LocalVariablesService, a value written with variables.set, as pikkuConsoleSetVariable does, becomes the PIKKU_CONSOLE_TOKEN that the console-token authBearer accepts', async () => {
  const consoleSession = { userId: 'pikku-console-token', scopes: ['admin', 'pikku'] }
  const consoleToken = authBearer({ token: { secretId: 'PIKKU_CONSOLE_TOKEN', userSession: consoleSession } })
  // A plain object stands in for process.env, which LocalVariablesService uses by default.
  const variables = new LocalVariablesService({ JWT_SECRET: 'kept-in-the-environment' })
  const secrets = new LocalSecretService(variables)
  const sessionFor = async (authorization: string) => {
    const sessions: unknown[] = []
    const wire = {
      http: { request: { header: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : undefined) } },
      setSession: (s: unknown) => sessions.push(s),
      session: undefined,
    }
    await consoleToken({ secrets } as never, wire as never, async () => {})
    return sessions
  }
  assert.deepEqual(await sessionFor('Bearer chosen-by-the-caller'), [])
  // The body of the generated pikkuConsoleSetVariable and pikkuConsoleGetVariable.
  variables.set('PIKKU_CONSOLE_TOKEN', 'chosen-by-the-caller')
  assert.deepEqual(await sessionFor('Bearer chosen-by-the-caller'), [consoleSession])
  assert.equal(variables.get('JWT_SECRET'), 'kept-in-the-environment')
})

test('quick-login-fixed-password: the user dev quick login signs up is an ordinary account, admin@pikku.dev with the password pikku-dev-password, which better-auth signs in by that password without quick login', async () => {
  // @pikku/better-auth exports only its index; the quick-login handler is reached through its own file.
  const { handleDevQuickLogin } = await import('../../node_modules/@pikku/better-auth/dist/dev-quick-login.js')
  const { auth } = await signedUpBetterAuth({})
  const quickLogin = new Request('http://localhost:3000/api/auth/dev/quick-login', { method: 'POST' })
  assert.equal((await handleDevQuickLogin(auth as never, quickLogin)).status, 200)
  // A later sign-in by e-mail and password, the way any client signs in, with quick login turned off.
  await withEnv({ PIKKU_DEV_QUICK_LOGIN: 'false' }, async () => {
    const signIn = await auth.api.signInEmail({
      body: { email: 'admin@pikku.dev', password: 'pikku-dev-password' },
      asResponse: true,
    })
    assert.equal(signIn.status, 200)
  })
})

test('better-auth-session-no-auth-service: betterAuthSession on singleton services that have no auth service fails every HTTP call, with or without a cookie', async () => {
  const { betterAuthSession } = await import('@pikku/better-auth')
  const errors: string[] = []
  const services = { logger: { error: (message: string) => errors.push(message), warn() {}, info() {}, debug() {} } }
  for (const headers of [{}, { cookie: 'better-auth.session_token=anything' }]) {
    const wire = {
      http: { request: { headers: () => headers, header: () => undefined } },
      setSession: () => {},
      getSession: () => undefined,
      session: undefined,
    }
    await assert.rejects(() => betterAuthSession()(services as never, wire as never, async () => {}), TypeError)
  }
  assert.match(errors[0]!, /^better-auth getSession failed: .*auth is not a function/)
})

test('content-signature-is-session: the signature of a LocalContent link, sent as a bearer token, is decoded by the same jwt service into a session with no userId', async () => {
  const config = { localFileUploadPath: '/tmp/unused-content-root', uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets' }
  const content = new LocalContent(config, new ConsoleLogger(), jwt)
  const link = await content.signContentKey({ bucket: 'attachments', contentKey: 't1/u1', dateLessThan: new Date(Date.now() + 60 * 60 * 1000) })
  const signature = new URL(link, 'http://localhost').searchParams.get('signature')!
  const { status, body } = await createdBy({ authorization: `Bearer ${signature}` })
  // Not a 403: the link's claims (signedAt, expiresAt, path) became the session, so a session function ran.
  assert.equal(status, 200)
  assert.equal(body.ownerId, undefined)
  assert.equal(body.title, 'Who am I?')
})
