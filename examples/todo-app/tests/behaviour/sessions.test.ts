// Sessions on the real @pikku/express: functions that change the session (src/functions/session.functions.ts),
// the cookie authCookie writes and clears for them, readonly sessions, and a session store over HTTP.
// The `jwt` service of src/jwt-service.ts is added to the singleton services, as src/services.auth.skill.ts does.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  InMemorySessionStore,
  PikkuSessionService,
  type JWTService,
} from '@pikku/core/services'
import { runPikkuFunc } from '@pikku/core/function'
import { pikkuState } from '@pikku/core/state'
import type { UserSession } from '../../src/application-types.js'
import { startExpressApp, type RunningApp } from './harness/app.js'
import { createTestJWT } from './harness/http.js'
import { registerProbe } from './harness/core-probes.js'
import { codes, inspectFiles } from './harness/inspector.js'

/** An in-memory session store that records every call the runner makes to it. */
class RecordingSessionStore extends InMemorySessionStore<UserSession> {
  calls: string[] = []
  override async get(id: string) {
    this.calls.push(`get ${id}`)
    return super.get(id)
  }
  override async set(id: string, session: UserSession) {
    this.calls.push(`set ${id}`)
    return super.set(id, session)
  }
  override async clear(id: string) {
    this.calls.push(`clear ${id}`)
    return super.clear(id)
  }
}

let app: RunningApp
let jwt: JWTService
const sessionStore = new RecordingSessionStore()

const admin: UserSession = { userId: 'u_admin', role: 'admin' }
const member: UserSession = { userId: 'u_member', role: 'member' }
const token = (session: object) => jwt.encode({ value: 1, unit: 'hour' }, session)
const cookieOf = async (session: object) => `todo_session=${await token(session)}`

before(async () => {
  process.env.JWT_SECRET = 'behaviour-suite-secret-of-at-least-32-chars'
  jwt = await createTestJWT()
  app = await startExpressApp({ jwt, sessionStore })
})
after(() => app.stop())

test('set-session-rewrites-cookie: setSession in a function makes authCookie send a new signed cookie', async () => {
  const response = await fetch(`${app.url}/session/act-as-member`, {
    method: 'POST',
    headers: { cookie: await cookieOf(admin) },
  })
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { role: 'member' })
  const setCookie = response.headers.get('set-cookie') ?? ''
  const value = /^todo_session=([^;]+)/.exec(setCookie)?.[1]
  assert.ok(value, setCookie)
  const decoded = await jwt.decode<UserSession>(value)
  assert.equal(decoded.userId, 'u_admin')
  assert.equal(decoded.role, 'member')
})

test('cookie-default-attributes: the cookie is HttpOnly, Secure, SameSite=Lax, Path=/ and expires with expiresIn', async () => {
  const response = await fetch(`${app.url}/session/act-as-member`, {
    method: 'POST',
    headers: { cookie: await cookieOf(admin) },
  })
  const setCookie = response.headers.get('set-cookie') ?? ''
  assert.match(setCookie, /; HttpOnly/)
  assert.match(setCookie, /; Secure/)
  assert.match(setCookie, /; SameSite=Lax/)
  assert.match(setCookie, /; Path=\//)
  const expires = Date.parse(/; Expires=([^;]+)/.exec(setCookie)?.[1] ?? '')
  const sevenDays = 7 * 24 * 60 * 60 * 1000
  assert.ok(Math.abs(expires - (Date.now() + sevenDays)) < 60_000, setCookie)
})

test('new-cookie-is-the-session: the rewritten cookie carries the new session on the next request', async () => {
  const first = await fetch(`${app.url}/session/act-as-member`, {
    method: 'POST',
    headers: { cookie: await cookieOf(admin) },
  })
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]
  // The new session has the member role, so isAdmin now refuses the same call.
  const second = await fetch(`${app.url}/session/act-as-member`, { method: 'POST', headers: { cookie } })
  assert.equal(second.status, 403)
  assert.equal((await second.json()).message, 'Permission denied')
})

test('set-session-bearer-gets-cookie: a session changed on a bearer-token call is still written as a cookie', async () => {
  const response = await fetch(`${app.url}/session/act-as-member`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token(admin)}` },
  })
  assert.equal(response.status, 200)
  assert.match(response.headers.get('set-cookie') ?? '', /^todo_session=[^;]+;/)
})

test('clear-session-clears-cookie: clearSession makes authCookie clear the cookie (empty, Max-Age=0, epoch expiry)', async () => {
  const response = await fetch(`${app.url}/session`, { method: 'DELETE', headers: { cookie: await cookieOf(member) } })
  assert.equal(response.status, 204)
  const setCookie = response.headers.get('set-cookie') ?? ''
  assert.match(setCookie, /^todo_session=;/)
  assert.match(setCookie, /; Max-Age=0/)
  assert.match(setCookie, /; Expires=Thu, 01 Jan 1970 00:00:00 GMT/)
})

test('sign-out-needs-session-403: signing out with no session answers 403', async () => {
  const response = await fetch(`${app.url}/session`, { method: 'DELETE' })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Authentication required')
})

test('readonly-session-403: a readonly session calling a function not marked readonly answers 403 ReadonlySessionError', async () => {
  const response = await fetch(`${app.url}/todos`, {
    headers: { authorization: `Bearer ${await token({ ...member, readonly: true })}` },
  })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).name, 'ReadonlySessionError')
})

test('readonly-session-readonly-function: a readonly session passes the readonly check of a function marked readonly', async () => {
  // getReminderRun is marked readonly: the call gets past the session checks and the function answers 404 itself.
  const response = await fetch(`${app.url}/reminder-runs/no-such-run`, {
    headers: { authorization: `Bearer ${await token({ ...member, readonly: true })}` },
  })
  assert.equal(response.status, 404)
})

test('readonly-session-rpc-endpoint-403: a readonly session is refused by the public RPC endpoint, even for a readonly function', async () => {
  // The endpoint's own function (rpcCaller) is not marked readonly, and the check runs on it first.
  const response = await fetch(`${app.url}/rpc/countOpenTodos`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await token({ ...member, readonly: true })}`,
    },
    body: JSON.stringify({ rpcName: 'countOpenTodos', data: {} }),
  })
  assert.equal(response.status, 403)
  assert.equal((await response.json()).name, 'ReadonlySessionError')
})

test('store-untouched-over-http: with a sessionStore, HTTP calls whose session came from middleware (cookie or bearer) never read or write it', async () => {
  sessionStore.calls.length = 0
  await sessionStore.set('u_member', { ...member, role: 'admin' })
  sessionStore.calls.length = 0
  const changed = await fetch(`${app.url}/session/act-as-member`, {
    method: 'POST',
    headers: { cookie: await cookieOf(admin) },
  })
  assert.equal(changed.status, 200)
  const changedByBearer = await fetch(`${app.url}/session/act-as-member`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token(admin)}` },
  })
  assert.equal(changedByBearer.status, 200)
  const cleared = await fetch(`${app.url}/session`, { method: 'DELETE', headers: { cookie: await cookieOf(member) } })
  assert.equal(cleared.status, 204)
  assert.deepEqual(sessionStore.calls, [])
  // The stored session is still there: clearSession did not reach the store.
  assert.equal((await sessionStore.get('u_member'))?.role, 'admin')
})

test('invoke-after-set-session: rpc.invoke after the caller\'s setSession runs the target with the caller\'s starting session as wire.session, while its getSession() returns the caller\'s latest', async () => {
  const functions = pikkuState(null, 'function', 'functions')
  const meta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  const seenByCaller: (string | undefined)[] = []
  // The admin's setSession writes through to the store (the runner knows the id here), so the entry is put back after.
  const storedBefore = await sessionStore.get('u_admin')
  // Run as the HTTP runner runs a function: with a session service, and the session the call arrived with.
  const run = (arrived?: UserSession) =>
    runPikkuFunc('rpc', 'switchThenInvokeProbe', 'switchThenInvokeProbe', {
      singletonServices: app.services as never,
      data: () => ({}),
      wire: (arrived ? { session: arrived } : {}) as never,
      sessionService: new PikkuSessionService<UserSession>() as never,
    })
  try {
    registerProbe('whoIsCallingProbe', {
      func: async (_services: unknown, _data: unknown, wire: any) => ({ userId: wire.session?.userId, latest: wire.getSession?.()?.userId }),
    })
    registerProbe('switchThenInvokeProbe', {
      func: async (_services: unknown, _data: unknown, wire: any) => {
        await wire.setSession(member)
        seenByCaller.push(wire.getSession()?.userId)
        return wire.rpc.invoke('whoIsCallingProbe', {})
      },
    }, { sessionless: true })
    // The caller switched to the member, but the target still runs as the admin the call arrived as; the copied wire
    // keeps the caller's getSession, which answers the member.
    assert.deepEqual(await run(admin), { userId: 'u_admin', latest: 'u_member' })
    // A sign-in that arrived with no session: the session function it invokes sees none.
    await assert.rejects(run(), { name: 'ForbiddenError', message: 'Authentication required' })
    assert.deepEqual(seenByCaller, ['u_member', 'u_member'])
  } finally {
    for (const name of ['whoIsCallingProbe', 'switchThenInvokeProbe']) {
      functions.delete(name)
      delete meta[name]
    }
    if (storedBefore) await sessionStore.set('u_admin', storedBefore)
    else await sessionStore.clear('u_admin')
  }
})

test('socket-session-per-connection: calls that share one session service, as messages on an in-process socket do, keep the first session one of them saw and hasSessionChanged() stays true', async () => {
  const functions = pikkuState(null, 'function', 'functions')
  const meta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  // One service for all the calls, as runLocalChannel builds one per connection and channel-handler.ts passes it to
  // every message's runPikkuFunc. No store, so nothing is written.
  const connection = new PikkuSessionService<UserSession>()
  const message = (name: string, data: unknown = {}) =>
    runPikkuFunc('channel', name, name, {
      singletonServices: app.services as never,
      data: () => data,
      wire: {} as never,
      sessionService: connection as never,
    })
  const seen = (wire: any) => ({ session: wire.session?.userId, latest: wire.getSession()?.userId, changed: wire.hasSessionChanged() })
  try {
    registerProbe('socketSignInProbe', {
      func: async (_services: unknown, data: any, wire: any) => {
        await wire.setSession(data.as === 'admin' ? admin : member)
        return seen(wire)
      },
    }, { sessionless: true })
    registerProbe('socketSignOutProbe', {
      func: async (_services: unknown, _data: unknown, wire: any) => {
        await wire.clearSession()
        return seen(wire)
      },
    }, { sessionless: true })
    registerProbe('socketWhoProbe', { func: async (_services: unknown, _data: unknown, wire: any) => seen(wire) }, { sessionless: true })
    // A socket that opened without a session: the first sign-in's session becomes the one later calls get.
    assert.deepEqual(await message('socketWhoProbe'), { session: undefined, latest: undefined, changed: false })
    assert.deepEqual(await message('socketSignInProbe', { as: 'member' }), { session: undefined, latest: 'u_member', changed: true })
    assert.deepEqual(await message('socketWhoProbe'), { session: 'u_member', latest: 'u_member', changed: true })
    // A second sign-in, or a sign-out, leaves wire.session at the member for every later call.
    assert.deepEqual(await message('socketSignInProbe', { as: 'admin' }), { session: 'u_member', latest: 'u_admin', changed: true })
    assert.deepEqual(await message('socketWhoProbe'), { session: 'u_member', latest: 'u_admin', changed: true })
    assert.deepEqual(await message('socketSignOutProbe'), { session: 'u_member', latest: undefined, changed: true })
    assert.deepEqual(await message('socketWhoProbe'), { session: 'u_member', latest: undefined, changed: true })
  } finally {
    for (const name of ['socketSignInProbe', 'socketSignOutProbe', 'socketWhoProbe']) {
      functions.delete(name)
      delete meta[name]
    }
  }
})

test('pku573-channel-cli-handlers: auth: false in front of an exported pikkuFunc is a critical PKU573 on a channel\'s onConnect, onDisconnect and onMessage and on a CLI command, but not on a handler of onMessageWiring', async () => {
  const head = [
    "import { pikkuCLICommand, pikkuFunc, pikkuSessionlessFunc, wireChannel, wireCLI } from '@pikku/core'",
    'export const mine = pikkuFunc<void, string>({ func: async (_services, _data, { session }) => (session as any).userId })',
    'export const open = pikkuSessionlessFunc<void, string>({ func: async () => "open" })',
  ].join('\n')
  const cases: Record<string, string> = {
    onConnect: "wireChannel({ name: 'c', route: '/c', auth: false, onConnect: mine })",
    onDisconnect: "wireChannel({ name: 'c', route: '/c', auth: false, onConnect: open, onDisconnect: mine })",
    onMessage: "wireChannel({ name: 'c', route: '/c', auth: false, onConnect: open, onMessage: mine })",
    onMessageWiring: "wireChannel({ name: 'c', route: '/c', auth: false, onConnect: open, onMessageWiring: { action: { mine } } })",
    cli: "wireCLI({ program: 'p', commands: { go: pikkuCLICommand({ func: mine, auth: false }) } })",
  }
  const found: Record<string, string[]> = {}
  for (const [name, wiring] of Object.entries(cases)) {
    const { reported, state } = await inspectFiles(`sessions-pku573-${name}`, { 'probe.ts': `${head}\n${wiring}\n` })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU573'))
    if (name === 'onMessageWiring') {
      // No PKU573 here because the check skipped the route, not because the channel went unread: it is recorded.
      assert.deepEqual(codes(reported), [])
      assert.equal((state as any).channels.meta.c.messageWirings.action.mine.pikkuFuncId, 'mine')
    }
  }
  assert.deepEqual(found, {
    onConnect: ['PKU573 critical'],
    onDisconnect: ['PKU573 critical'],
    onMessage: ['PKU573 critical'],
    onMessageWiring: [],
    cli: ['PKU573 critical'],
  })
})
