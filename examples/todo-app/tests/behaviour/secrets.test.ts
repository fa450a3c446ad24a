// Secrets, variables and credentials (docs/core-features/secrets.mdx, variables.mdx, credentials.mdx and the
// secret and variables service pages): core's local services, the generated typed wrappers of the app, and the
// wire's getCredential as the real function runner provides it.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  LocalSecretService,
  LocalVariablesService,
  assertSecretAllowedForHost,
  SecretHostNotAllowedError,
  ScopedSecretService,
  type CredentialService,
} from '@pikku/core/services'
import { runPikkuFunc } from '@pikku/core/function'
import { pikkuState } from '@pikku/core/state'
import { MissingCredentialError, PikkuError } from '@pikku/core/errors'
import { format, inspect } from 'node:util'
import { fileURLToPath } from 'node:url'
import { TypedSecretService } from '#pikku/secrets'
import { TypedVariablesService } from '#pikku/variables'
import secretDefinitions from '#pikku/secrets/pikku-secrets-meta.gen.json' with { type: 'json' }
import { addTodoToCalendar, listMyConnections } from '../../src/functions/calendar.functions.js'
import { startSignedInApp, type SignedInApp } from './harness/core-app.js'
import { registerProbe } from './harness/core-probes.js'
import { addFunction } from '@pikku/core/function'
import { RedisSecretService, RedisSessionStore } from '@pikku/redis'
import { Redis } from 'ioredis'
import { sqliteDatabase, startRedis, type RunningService } from './harness/services.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { compileScratch } from './harness/node-process.js'
import type { Notifier } from '../../src/notifier.js'

let app: SignedInApp
let redis: RunningService
before(async () => {
  app = await startSignedInApp()
  redis = await startRedis()
})
after(async () => {
  await app.stop()
  await redis.stop()
})

/** The app's credential service (src/services.ts always builds one; its generated type marks it optional). */
const credentialsOf = () => app.services.credentialService as CredentialService

/** A secret service reading the given environment, as the app's is built over process.env. */
const secretsFrom = (env: Record<string, string>) => new LocalSecretService(new LocalVariablesService(env))

const run = (funcName: string, data: unknown, wire: Record<string, unknown> = {}) =>
  runPikkuFunc('rpc', funcName, funcName, {
    singletonServices: app.services as never,
    data: () => data,
    wire: wire as never,
  })

// --- secrets ---

test('local-secret-reads-env: LocalSecretService returns an environment value wrapped, parsed as JSON when it can be, from process.env by default', async () => {
  const secrets = secretsFrom({ REMINDER_EMAIL_API_KEY: 'key-123', GOOGLE_CALENDAR_APP: '{"clientId":"c","clientSecret":"s"}' })
  assert.equal((await secrets.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'key-123')
  assert.deepEqual((await secrets.getSecret('GOOGLE_CALENDAR_APP')).reveal(), { clientId: 'c', clientSecret: 's' })
  // Built with no argument, it reads process.env through a default LocalVariablesService.
  process.env.SECRETS_PROBE_FROM_ENV = 'from-process-env'
  try {
    assert.equal((await new LocalSecretService().getSecret('SECRETS_PROBE_FROM_ENV')).reveal(), 'from-process-env')
  } finally {
    delete process.env.SECRETS_PROBE_FROM_ENV
  }
})

test('local-secret-parses-twice: over a LocalVariablesService, which has parsed the value once, LocalSecretService parses it again, so a JSON string such as "123456" in quotes comes back as the number', async () => {
  const secrets = secretsFrom({ QUOTED_NUMBER: '"123456"', QUOTED_TEXT: '"abc"' })
  assert.equal((await secrets.getSecret('QUOTED_NUMBER')).reveal(), 123456)
  assert.equal((await secrets.getSecret('QUOTED_TEXT')).reveal(), 'abc')
  // An override is parsed once: the same text set through setSecret keeps its string.
  const overridden = secretsFrom({})
  await overridden.setSecret('QUOTED_NUMBER', '"123456"')
  assert.equal((await overridden.getSecret('QUOTED_NUMBER')).reveal(), '123456')
})

test('local-secret-missing: a key set neither in the overrides nor the environment throws "Requested secret not found"', async () => {
  await assert.rejects(secretsFrom({}).getSecret('REMINDER_EMAIL_API_KEY'), { message: 'Requested secret not found' })
  // An empty value counts as missing too.
  await assert.rejects(secretsFrom({ REMINDER_EMAIL_API_KEY: '' }).getSecret('REMINDER_EMAIL_API_KEY'), {
    message: 'Requested secret not found',
  })
})

test('local-secret-falsy-json: an environment value that parses to 0, false or null also throws "Requested secret not found"; hasSecret still reports 0 and false as set, so the typed read of an optional one throws', async () => {
  for (const raw of ['0', 'false', 'null']) {
    await assert.rejects(secretsFrom({ REMINDER_EMAIL_API_KEY: raw }).getSecret('REMINDER_EMAIL_API_KEY'), {
      message: 'Requested secret not found',
    })
  }
  assert.equal(await secretsFrom({ REMINDER_EMAIL_API_KEY: '0' }).hasSecret('REMINDER_EMAIL_API_KEY'), true)
  assert.equal(await secretsFrom({ REMINDER_EMAIL_API_KEY: 'false' }).hasSecret('REMINDER_EMAIL_API_KEY'), true)
  assert.equal(await secretsFrom({ REMINDER_EMAIL_API_KEY: 'null' }).hasSecret('REMINDER_EMAIL_API_KEY'), false)
  // DIGEST_WEBHOOK_URL is declared optional: unset it resolves undefined, set to false it throws.
  await assert.rejects(new TypedSecretService(secretsFrom({ DIGEST_WEBHOOK_URL: 'false' })).getSecret('DIGEST_WEBHOOK_URL'), {
    message: 'Requested secret not found',
  })
})

test('local-secret-overrides: setSecret stores an override that wins over the environment; hasSecret and getSecrets skip missing keys', async () => {
  const secrets = secretsFrom({ REMINDER_EMAIL_API_KEY: 'from-env' })
  await secrets.setSecret('REMINDER_EMAIL_API_KEY', 'override')
  assert.equal((await secrets.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'override')
  assert.equal(await secrets.hasSecret('DIGEST_WEBHOOK_URL'), false)
  const some = await secrets.getSecrets(['REMINDER_EMAIL_API_KEY', 'DIGEST_WEBHOOK_URL'])
  assert.deepEqual(Object.keys(some), ['REMINDER_EMAIL_API_KEY'])
})

test('local-secret-delete-keeps-env: setSecret and deleteSecret change only the in-memory overrides, so a deleted key the environment holds is still found; getSecrets leaves out a key getSecret refuses', async () => {
  const env: Record<string, string> = { REMINDER_EMAIL_API_KEY: 'from-env', DIGEST_WEBHOOK_URL: '0' }
  const secrets = secretsFrom(env)
  await secrets.setSecret('NEW_ONLY_IN_MEMORY', 'stored')
  assert.equal(env.NEW_ONLY_IN_MEMORY, undefined)
  await secrets.setSecret('REMINDER_EMAIL_API_KEY', 'override')
  await secrets.deleteSecret('REMINDER_EMAIL_API_KEY')
  assert.equal(env.REMINDER_EMAIL_API_KEY, 'from-env')
  assert.equal((await secrets.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'from-env')
  // '0' parses to a falsy value, which getSecret refuses: getSecrets leaves it out rather than throwing.
  const some = await secrets.getSecrets(['REMINDER_EMAIL_API_KEY', 'DIGEST_WEBHOOK_URL'])
  assert.deepEqual(Object.keys(some), ['REMINDER_EMAIL_API_KEY'])
})

test('scoped-secret-service: ScopedSecretService throws "Access denied to secret key: <key>" from hasSecret for a key it was not given, refuses setSecret and deleteSecret even for a granted key, and checks every getSecrets key before fetching', async () => {
  const inner = secretsFrom({ GRANTED: 'yes', OTHER: 'no' })
  const fetched: string[] = []
  const getSecrets = inner.getSecrets.bind(inner)
  inner.getSecrets = (async (keys: string[]) => {
    fetched.push(...keys)
    return getSecrets(keys)
  }) as never
  const scoped = new ScopedSecretService(inner, new Set(['GRANTED']))
  assert.equal(await scoped.hasSecret('GRANTED'), true)
  await assert.rejects(scoped.hasSecret('OTHER'), { message: 'Access denied to secret key: OTHER' })
  await assert.rejects(scoped.setSecret('GRANTED', 'x'), { message: 'setSecret is not allowed in scoped secret service' })
  await assert.rejects(scoped.deleteSecret('GRANTED'), { message: 'deleteSecret is not allowed in scoped secret service' })
  assert.equal((await inner.getSecret('GRANTED')).reveal(), 'yes')
  await assert.rejects(scoped.getSecrets(['GRANTED', 'OTHER']), { message: 'Access denied to secret key: OTHER' })
  assert.deepEqual(fetched, [])
  assert.deepEqual(Object.keys(await scoped.getSecrets(['GRANTED'])), ['GRANTED'])
  assert.deepEqual(fetched, ['GRANTED'])
})

test('secret-value-redacted: a secret serializes as "[secret]" and refuses string coercion, in a template literal or a concatenation', async () => {
  const secret = await secretsFrom({ JWT_SECRET: 'do-not-print' }).getSecret('JWT_SECRET')
  assert.equal(JSON.stringify({ secret }), '{"secret":"[secret]"}')
  assert.throws(() => `${secret}`, { name: 'SecretCoercionError' })
  assert.throws(() => 'token: ' + secret, { name: 'SecretCoercionError' })
})

test('secret-value-inspect-reveal: reveal() returns the raw value, and inspecting a secret, as console.log does, prints [secret]', async () => {
  const secret = await secretsFrom({ JWT_SECRET: 'do-not-print' }).getSecret('JWT_SECRET')
  assert.equal(secret.reveal(), 'do-not-print')
  assert.equal(inspect(secret), '[secret]')
  assert.ok(inspect({ secret }).includes('[secret]') && !inspect({ secret }).includes('do-not-print'))
  assert.equal(format('%o', secret), '[secret]')
})

test('typed-optional-undefined: the typed getSecret resolves undefined for an unset optional secret and throws for a required one', async () => {
  const typed = new TypedSecretService(secretsFrom({}))
  assert.equal(await typed.getSecret('DIGEST_WEBHOOK_URL'), undefined)
  await assert.rejects(typed.getSecret('REMINDER_EMAIL_API_KEY'), { message: 'Requested secret not found' })
})

test('typed-secret-not-validated: the typed service returns a value its schema would refuse', async () => {
  // JwtSecretSchema asks for 32 characters or more.
  const typed = new TypedSecretService(secretsFrom({ JWT_SECRET: 'short' }))
  assert.equal((await typed.getSecret('JWT_SECRET')).reveal(), 'short')
})

test('typed-secret-cached: the typed service keeps the first value it read, and an absence, until set or deleted through it', async () => {
  const env: Record<string, string> = { REMINDER_EMAIL_API_KEY: 'first' }
  const typed = new TypedSecretService(secretsFrom(env))
  assert.equal((await typed.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'first')
  env.REMINDER_EMAIL_API_KEY = 'rotated'
  assert.equal((await typed.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'first')
  // An optional secret found missing stays missing for this object, even once it is set.
  assert.equal(await typed.getSecret('DIGEST_WEBHOOK_URL'), undefined)
  env.DIGEST_WEBHOOK_URL = 'https://chat.example.com/hook'
  assert.equal(await typed.getSecret('DIGEST_WEBHOOK_URL'), undefined)
  await typed.setSecret('REMINDER_EMAIL_API_KEY', 'set-through-typed')
  assert.equal((await typed.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'set-through-typed')
})

test('typed-secret-delete-clears: deleting a secret through the typed service drops its cached value, so the next read asks the store again', async () => {
  const secrets = secretsFrom({})
  const typed = new TypedSecretService(secrets)
  await secrets.setSecret('REMINDER_EMAIL_API_KEY', 'cached')
  assert.equal((await typed.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'cached')
  await typed.deleteSecret('REMINDER_EMAIL_API_KEY')
  await assert.rejects(typed.getSecret('REMINDER_EMAIL_API_KEY'), { message: 'Requested secret not found' })
})

test('typed-secret-asks-has-secret: the typed getSecret of an optional secret, getAllStatus and getMissing take the store\'s hasSecret as the answer to whether a secret is set', async () => {
  // A store that holds a value for every key but says it has none.
  const store = secretsFrom({ DIGEST_WEBHOOK_URL: 'https://chat.example.com/hook', JWT_SECRET: 'x'.repeat(32) })
  store.hasSecret = async () => false
  const typed = new TypedSecretService(store)
  assert.equal(await typed.getSecret('DIGEST_WEBHOOK_URL'), undefined)
  const status = await new TypedSecretService(store).getAllStatus()
  const jwt = status.find((s) => s.secretId === 'JWT_SECRET')
  assert.deepEqual(jwt && { name: jwt.name, isConfigured: jwt.isConfigured }, { name: 'jwtSecret', isConfigured: false })
  assert.ok((await new TypedSecretService(store).getMissing()).some((s) => s.secretId === 'JWT_SECRET'))
  // With the real answer, getAllStatus reports it set.
  const real = await new TypedSecretService(secretsFrom({ JWT_SECRET: 'x'.repeat(32) })).getAllStatus()
  assert.equal(real.find((s) => s.secretId === 'JWT_SECRET')?.isConfigured, true)
})

test('typed-has-secret-cached-absence: once the typed getSecret has found an optional secret missing, the typed hasSecret answers true; getMissing still lists it', async () => {
  const typed = new TypedSecretService(secretsFrom({ JWT_SECRET: 'x'.repeat(32) }))
  assert.equal(await typed.hasSecret('DIGEST_WEBHOOK_URL'), false)
  assert.equal(await typed.getSecret('DIGEST_WEBHOOK_URL'), undefined)
  // The cached absence counts as a cache entry, and hasSecret answers true for any key it has cached.
  assert.equal(await typed.hasSecret('DIGEST_WEBHOOK_URL'), true)
  assert.ok((await typed.getMissing()).some((s) => s.secretId === 'DIGEST_WEBHOOK_URL'))
})

test('typed-secret-missing-list: getMissing lists every declared secret without a value, optional ones included', async () => {
  const typed = new TypedSecretService(secretsFrom({ JWT_SECRET: 'x'.repeat(32) }))
  const missing = (await typed.getMissing()).map((s) => s.secretId)
  assert.ok(missing.includes('REMINDER_EMAIL_API_KEY'))
  assert.ok(missing.includes('DIGEST_WEBHOOK_URL'))
  assert.ok(!missing.includes('JWT_SECRET'))
})

test('typed-secret-addon-not-listed: a secret an installed addon declares is in the sidecar, yet the typed service of the app neither lists it in getAllStatus nor in getMissing while it is unset', async () => {
  // CHAT_WEBHOOK_URL is declared by the addon the app installs (addon-example/src/secrets.ts), not by the app itself.
  assert.ok(Object.values(secretDefinitions).some((d: { secretId: string }) => d.secretId === 'CHAT_WEBHOOK_URL'))
  const typed = new TypedSecretService(secretsFrom({}))
  const status = (await typed.getAllStatus()).map((s) => s.secretId)
  const missing = (await typed.getMissing()).map((s) => s.secretId)
  assert.ok(missing.includes('REMINDER_EMAIL_API_KEY'))
  assert.ok(!status.includes('CHAT_WEBHOOK_URL'))
  assert.ok(!missing.includes('CHAT_WEBHOOK_URL'))
})

test('secrets-meta-sidecar: the leaf does not export the declarations; LocalMetaService over .pikku returns pikku-secrets-meta.gen.json from getSecretsMeta()', async () => {
  const { LocalMetaService } = await import('@pikku/core/services/local-meta')
  const leaf = await import('#pikku/secrets')
  assert.ok(!Object.values(leaf).some((value: unknown) => value === secretDefinitions))
  assert.ok(!Object.keys(leaf).some((name) => /meta/i.test(name)))
  const meta = new LocalMetaService(fileURLToPath(new URL('../../.pikku', import.meta.url)))
  assert.deepEqual(await meta.getSecretsMeta(), secretDefinitions)
})

test('allowed-hosts: assertSecretAllowedForHost passes a declared host and throws SecretHostNotAllowedError for another', () => {
  const defs = secretDefinitions as never
  assertSecretAllowedForHost('REMINDER_EMAIL_API_KEY', 'https://api.mail.example.com/send', defs)
  assert.throws(
    () => assertSecretAllowedForHost('REMINDER_EMAIL_API_KEY', 'https://evil.example.net/', defs),
    SecretHostNotAllowedError,
  )
  // JWT_SECRET declares no hosts: allowed, unless the project requires allowedHosts.
  assertSecretAllowedForHost('JWT_SECRET', 'https://anywhere.example.org/', defs)
  assert.throws(() => assertSecretAllowedForHost('JWT_SECRET', 'https://anywhere.example.org/', defs, true), SecretHostNotAllowedError)
})

test('allowed-hosts-wildcard: a leading *. matches subdomains only, not the bare domain', () => {
  const defs = { k: { name: 'k', secretId: 'K', allowedHosts: ['*.example.com'] } } as never
  assertSecretAllowedForHost('K', 'https://api.example.com/', defs)
  assert.throws(() => assertSecretAllowedForHost('K', 'https://example.com/', defs), SecretHostNotAllowedError)
})

test('allowed-hosts-no-definitions: with no declarations to compare with, as when the app has no metaService, every host passes, and with requireAllowedHosts every secret is refused, a declared one included', () => {
  assertSecretAllowedForHost('REMINDER_EMAIL_API_KEY', 'https://evil.example.net/', undefined)
  assert.throws(() => assertSecretAllowedForHost('REMINDER_EMAIL_API_KEY', 'https://api.mail.example.com/send', undefined, true), SecretHostNotAllowedError)
})

test('secret-host-error-plain: SecretHostNotAllowedError, exported from @pikku/core/services, is a plain Error with no status of its own', () => {
  const defs = secretDefinitions as never
  assert.throws(
    () => assertSecretAllowedForHost('REMINDER_EMAIL_API_KEY', 'https://evil.example.net/', defs),
    (error: unknown) => error instanceof SecretHostNotAllowedError && error instanceof Error && !(error instanceof PikkuError),
  )
})

// --- variables ---

test('variables-json-parsed: LocalVariablesService parses JSON values and returns other text as it is; the typed read of a declared variable gets the parsed value', async () => {
  const variables = new LocalVariablesService({ A: '48', B: 'two', C: '007', D: 'true', E: '{"digest":true}' })
  assert.equal(variables.get('A'), 48)
  assert.equal(variables.get('B'), 'two')
  assert.equal(variables.get('C'), '007')
  assert.equal(variables.get('D'), true)
  assert.deepEqual(variables.get('E'), { digest: true })
  assert.equal(variables.get('UNSET'), undefined)
  // The variables page's example: REMINDER_ESCALATION_HOURS=48 read through the app's typed service is the number 48.
  const typed = new TypedVariablesService(new LocalVariablesService({ REMINDER_ESCALATION_HOURS: '48' }))
  assert.equal(await typed.get('REMINDER_ESCALATION_HOURS'), 48)
})

test('typed-variable-not-validated: the typed read of a value its schema refuses returns it unchanged', async () => {
  const typed = new TypedVariablesService(new LocalVariablesService({ REMINDER_ESCALATION_HOURS: 'two' }))
  assert.equal(await typed.get('REMINDER_ESCALATION_HOURS'), 'two' as never)
})

test('typed-variables-missing: getMissing lists every declared variable without a value, optional ones included', async () => {
  const typed = new TypedVariablesService(new LocalVariablesService({}))
  const missing = (await typed.getMissing()).map((v) => v.variableId).sort()
  assert.deepEqual(missing, ['REMINDER_ESCALATION_HOURS', 'REMINDER_FROM_ADDRESS'])
})

test('variables-read-env-secrets: with the services of the app, the variables service a function gets returns JWT_SECRET, a secret kept in the environment, unwrapped; getAll lists it too', async () => {
  registerProbe('readSecretThroughVariables', {
    func: async (services: any) => {
      const all = await services.variables.getAll()
      return { value: await services.variables.get('JWT_SECRET'), listed: 'JWT_SECRET' in all }
    },
  }, { sessionless: true })
  const result = (await run('readSecretThroughVariables', {})) as { value: unknown; listed: boolean }
  assert.deepEqual(result, { value: process.env.JWT_SECRET, listed: true })
  assert.equal(typeof result.value, 'string')
  // The same key through the secret service is wrapped.
  assert.equal((await app.services.secrets.getSecret('JWT_SECRET')).reveal(), process.env.JWT_SECRET)
})

test('variables-set-writes-env: set and delete on the default LocalVariablesService change process.env, which a LocalSecretService over it then reads', async () => {
  const variables = new LocalVariablesService()
  const secrets = new LocalSecretService(variables)
  try {
    variables.set('PROBE_WRITTEN_VARIABLE', { a: 1 })
    assert.equal(process.env.PROBE_WRITTEN_VARIABLE, '{"a":1}')
    assert.deepEqual((await secrets.getSecret('PROBE_WRITTEN_VARIABLE')).reveal(), { a: 1 })
    variables.delete('PROBE_WRITTEN_VARIABLE')
    assert.equal('PROBE_WRITTEN_VARIABLE' in process.env, false)
  } finally {
    delete process.env.PROBE_WRITTEN_VARIABLE
  }
})

// --- credentials ---

test('credential-missing-403: addTodoToCalendar without a linked calendar throws MissingCredentialError, a 403 with a payload', async () => {
  addFunction('addTodoToCalendar', addTodoToCalendar)
  const todo = await app.services.todoStore.create({ ownerId: 'alice', title: 'Dentist', dueAt: '2030-01-01T09:00:00Z', done: false })
  await assert.rejects(run('addTodoToCalendar', { todoId: todo.todoId }, { session: { userId: 'alice', role: 'member' } }), (error: any) => {
    assert.ok(error instanceof MissingCredentialError)
    assert.deepEqual(error.payload, {
      error: 'missing_credential',
      credentialName: 'google-calendar',
      credentialType: 'oauth2',
      connectUrl: undefined,
    })
    return true
  })
  // The status the HTTP error handler answers it with, from core's error registry.
  const registered = (pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>).get(MissingCredentialError)
  assert.equal(registered?.status, 403)
})

test('get-credential-one-load: getCredential loads the caller\'s credentials with one getAll call, null for one not linked', async () => {
  const credentials = credentialsOf()
  await credentials.set('google-calendar', { accessToken: 'token-a' }, 'alice')
  const original = credentials.getAll.bind(credentials)
  const loads: (string | undefined)[] = []
  credentials.getAll = async (userId?: string) => {
    loads.push(userId)
    return original(userId as string)
  }
  registerProbe('readCredentials', {
    func: async (_services: unknown, _data: unknown, wire: any) => ({
      calendar: await wire.getCredential('google-calendar'),
      again: await wire.getCredential('google-calendar'),
      other: await wire.getCredential('not-linked'),
    }),
  })
  try {
    const result = await run('readCredentials', {}, { session: { userId: 'alice', role: 'member' } })
    assert.deepEqual(result, { calendar: { accessToken: 'token-a' }, again: { accessToken: 'token-a' }, other: null })
    assert.deepEqual(loads, ['alice'])
  } finally {
    credentials.getAll = original
    await credentials.delete('google-calendar', 'alice')
  }
})

test('get-credential-parallel-null: a second getCredential started while the first call is still loading resolves null', async () => {
  await credentialsOf().set('google-calendar', { accessToken: 'token-a' }, 'alice')
  registerProbe('readCredentialsInParallel', {
    func: async (_s: unknown, _d: unknown, wire: any) => {
      const [first, second] = await Promise.all([wire.getCredential('google-calendar'), wire.getCredential('google-calendar')])
      const later = await wire.getCredential('google-calendar')
      return { first, second, later }
    },
  })
  try {
    assert.deepEqual(await run('readCredentialsInParallel', {}, { session: { userId: 'alice', role: 'member' } }), {
      first: { accessToken: 'token-a' },
      second: null,
      later: { accessToken: 'token-a' },
    })
  } finally {
    await credentialsOf().delete('google-calendar', 'alice')
  }
})

test('get-credential-no-user-null: a call with no session gets null from getCredential', async () => {
  await credentialsOf().set('google-calendar', { accessToken: 'token-a' }, 'alice')
  registerProbe('readCredentialSessionless', {
    func: async (_s: unknown, _d: unknown, wire: any) => ({ calendar: await wire.getCredential('google-calendar') }),
  }, { sessionless: true })
  assert.deepEqual(await run('readCredentialSessionless', {}), { calendar: null })
  await credentialsOf().delete('google-calendar', 'alice')
})

test('get-credential-string-user-id: the wire takes the caller from a session userId only when it is a string; a numeric userId leaves the call with no caller, so getCredential resolves null', async () => {
  await credentialsOf().set('google-calendar', { accessToken: 'token-42' }, '42')
  registerProbe('readCredentialNumericUser', {
    func: async (_s: unknown, _d: unknown, wire: any) => ({ calendar: await wire.getCredential('google-calendar') }),
  })
  try {
    assert.deepEqual(await run('readCredentialNumericUser', {}, { session: { userId: 42, role: 'member' } }), { calendar: null })
    assert.deepEqual(await run('readCredentialNumericUser', {}, { session: { userId: '42', role: 'member' } }), {
      calendar: { accessToken: 'token-42' },
    })
  } finally {
    await credentialsOf().delete('google-calendar', '42')
  }
})

test('get-credential-queue-caller: in a queue job, getCredential reads the credentials of a pikkuUserId only when it is a claim signed by SignedQueueService that verifies; a plain id, or a signed claim that does not verify for the job it arrives on, leaves the job with no caller', async () => {
  const { runQueueJob, SignedQueueService } = await import('@pikku/core/queue')
  const credentials = credentialsOf()
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const cleanup = functions.get('purgeDoneTodos')
  const read: unknown[] = []
  process.env.PIKKU_QUEUE_IDENTITY_SECRET = 'q0Vb1m3mS0n6cXy3mJ2bQx8T1vH5dN7aK9pL4rW6eZs='
  try {
    await credentials.set('google-calendar', { accessToken: 'token-q' }, 'u-queue')
    // The todo-cleanup worker's function, swapped for one that reports the credential its wire gives.
    addFunction('purgeDoneTodos', { func: async (_services: unknown, _data: unknown, wire: any) => void read.push(await wire.getCredential('google-calendar')) } as never)
    const claims: string[] = []
    const recorder = { supportsResults: false, add: async (_q: string, _d: unknown, options?: { pikkuUserId?: string }) => (claims.push(options!.pikkuUserId!), 'rec'), getJob: async () => null }
    await new SignedQueueService(recorder as never, app.services.secrets, app.services.logger).add('todo-cleanup', { ownerId: 'u-queue' }, { pikkuUserId: 'u-queue' })
    const job = (id: string, pikkuUserId: string) =>
      runQueueJob({ job: { id, queueName: 'todo-cleanup', data: { ownerId: 'u-queue' }, status: () => 'active', pikkuUserId } as never })
    await job('credential-plain-id', 'u-queue')
    await job('credential-signed-id', claims[0]!)
    // The same signed claim on a job whose data differs from what was signed does not verify.
    await runQueueJob({ job: { id: 'credential-unverified-id', queueName: 'todo-cleanup', data: { ownerId: 'u-other' }, status: () => 'active', pikkuUserId: claims[0]! } as never })
    assert.deepEqual(read, [null, { accessToken: 'token-q' }, null])
  } finally {
    functions.set('purgeDoneTodos', cleanup)
    delete process.env.PIKKU_QUEUE_IDENTITY_SECRET
    await credentials.delete('google-calendar', 'u-queue')
  }
})

test('get-credential-no-service-null: with no credentialService in the services, getCredential of a signed-in caller resolves null', async () => {
  registerProbe('readCredentialNoService', {
    func: async (_s: unknown, _d: unknown, wire: any) => ({ calendar: await wire.getCredential('google-calendar') }),
  })
  await credentialsOf().set('google-calendar', { accessToken: 'token-a' }, 'alice')
  try {
    const result = await runPikkuFunc('rpc', 'readCredentialNoService', 'readCredentialNoService', {
      singletonServices: { ...app.services, credentialService: undefined } as never,
      data: () => ({}),
      wire: { session: { userId: 'alice', role: 'member' } } as never,
    })
    assert.deepEqual(result, { calendar: null })
  } finally {
    await credentialsOf().delete('google-calendar', 'alice')
  }
})

test('credential-service-any-user: a function that destructures credentialService reads another user\'s credential by passing their id; its own wire gives only the caller\'s', async () => {
  registerProbe('readOtherUsersCredential', {
    func: async ({ credentialService }: any, _d: unknown, wire: any) => ({
      mine: await wire.getCredential('google-calendar'),
      bobs: await credentialService.get('google-calendar', 'bob'),
    }),
  })
  await credentialsOf().set('google-calendar', { accessToken: 'token-a' }, 'alice')
  await credentialsOf().set('google-calendar', { accessToken: 'token-b' }, 'bob')
  try {
    const result = await run('readOtherUsersCredential', {}, { session: { userId: 'alice', role: 'member' } })
    assert.deepEqual(result, { mine: { accessToken: 'token-a' }, bobs: { accessToken: 'token-b' } })
  } finally {
    await credentialsOf().delete('google-calendar', 'alice')
    await credentialsOf().delete('google-calendar', 'bob')
  }
})

test('get-credential-platform-value-null: a value stored with no user id, the platform-wide one, is not what getCredential gives a signed-in caller', async () => {
  // LocalCredentialService, as src/services.ts builds it: getAll(userId) returns only that user's credentials.
  await credentialsOf().set('company-slack', { token: 'platform-token' })
  registerProbe('readPlatformCredential', {
    func: async (_s: unknown, _d: unknown, wire: any) => ({ slack: await wire.getCredential('company-slack') }),
  })
  try {
    assert.equal(await credentialsOf().has('company-slack'), true)
    assert.deepEqual(await run('readPlatformCredential', {}, { session: { userId: 'alice', role: 'member' } }), { slack: null })
  } finally {
    await credentialsOf().delete('company-slack')
  }
})

test('get-credential-untyped: the function types of #pikku/function type the wire\'s credentials as Record<string, unknown>, so getCredential of a declared name resolves to unknown, while TypedCredentialService.get resolves to its CredentialsMap entry', async () => {
  const probe = [
    "import { pikkuFunc } from '#pikku/function'",
    "import type { CredentialsMap } from '#pikku/credentials'",
    'export const probe = pikkuFunc<void, void>({',
    '  func: async (_services, _data, { getCredential }) => {',
    "    const value = await getCredential?.('google-calendar')",
    "    const typed: CredentialsMap['google-calendar'] | null | undefined = value",
    '    const anything: unknown = value',
    '    void typed, anything',
    '  },',
    '})',
    // TypedCredentialService is typed with the map: its get of the same name is not unknown.
    "import { TypedCredentialService } from '#pikku/credentials'",
    "export const typedRead = async (service: TypedCredentialService) => { const n: number = await service.get('google-calendar'); void n }",
  ].join('\n')
  const { code, output } = await compileScratch('credential-types', { 'probe.ts': probe }, { appConfig: true })
  const probeErrors = [...output.matchAll(/\bprobe\.ts\((\d+),\d+\): error (TS\d+): ([^\n]*)/g)].map(([, line, tsCode, message]) => `${line} ${tsCode} ${message}`)
  assert.equal(probeErrors.length, 2, output)
  assert.match(probeErrors[0]!, /^6 TS2322 Type 'unknown' is not assignable to type /)
  assert.match(probeErrors[1]!, /^12 TS2322 Type '\{ accessToken: string; \} \| null' is not assignable to type 'number'/)
  assert.notEqual(code, 0)
})

test('set-credential-not-stored: wire.setCredential puts a value on this call only, without storing it', async () => {
  registerProbe('setsCredential', {
    func: async (_s: unknown, _d: unknown, wire: any) => {
      wire.setCredential('google-calendar', { accessToken: 'just-this-call' })
      return { calendar: await wire.getCredential('google-calendar') }
    },
  })
  const result = await run('setsCredential', {}, { session: { userId: 'bob', role: 'member' } })
  assert.deepEqual(result, { calendar: { accessToken: 'just-this-call' } })
  assert.equal(await credentialsOf().has('google-calendar', 'bob'), false)
})

test('middleware-set-credential: a middleware that calls wire.setCredential hands the function that credential through getCredential, without storing it', async () => {
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  registerProbe('credentialFromMiddleware', {
    middleware: [
      async (_s: unknown, wire: any, next: () => Promise<void>) => {
        wire.setCredential('google-calendar', { accessToken: 'from-middleware' })
        await next()
      },
    ],
    func: async (_s: unknown, _d: unknown, wire: any) => ({ calendar: await wire.getCredential('google-calendar') }),
  } as never)
  try {
    const result = await run('credentialFromMiddleware', {}, { session: { userId: 'bob', role: 'member' } })
    assert.deepEqual(result, { calendar: { accessToken: 'from-middleware' } })
    assert.equal(await credentialsOf().has('google-calendar', 'bob'), false)
  } finally {
    functions.delete('credentialFromMiddleware')
    delete functionMeta['credentialFromMiddleware']
  }
})

test('list-my-connections: listMyConnections reports the calendar as connected once the user has a token', async () => {
  addFunction('listMyConnections', listMyConnections)
  const session = { session: { userId: 'carol', role: 'member' } }
  const before = (await run('listMyConnections', undefined, session)) as { connections: { name: string; connected: boolean }[] }
  assert.deepEqual(before.connections.find((c) => c.name === 'google-calendar')?.connected, false)
  await credentialsOf().set('google-calendar', { accessToken: 't' }, 'carol')
  const after = (await run('listMyConnections', undefined, session)) as typeof before
  assert.deepEqual(after.connections.find((c) => c.name === 'google-calendar')?.connected, true)
})

// --- secrets in Redis (docs/storage/index.mdx) ---

test('redis-secrets-encrypted: RedisSecretService stores a secret encrypted and reads it back, also through the typed service', async () => {
  const secrets = new RedisSecretService(redis.url, { key: 'k'.repeat(32) })
  const raw = new Redis(redis.url)
  try {
    await secrets.setSecret('REMINDER_EMAIL_API_KEY', 'plain-api-key-123')
    assert.equal((await secrets.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'plain-api-key-123')
    const stored = JSON.stringify(await raw.hgetall('pikku:secret:REMINDER_EMAIL_API_KEY'))
    assert.ok(stored.length > 2 && !stored.includes('plain-api-key-123'))
    const typed = new TypedSecretService(secrets)
    assert.equal((await typed.getSecret('REMINDER_EMAIL_API_KEY')).reveal(), 'plain-api-key-123')
    assert.equal(await typed.getSecret('DIGEST_WEBHOOK_URL'), undefined)
  } finally {
    await secrets.close()
    raw.disconnect()
  }
})

test('redis-secrets-rotate: rotateKEK with a new key, keyVersion 2 and the old key as previousKey keeps every secret readable with the new key', async () => {
  const first = new RedisSecretService(redis.url, { key: 'a'.repeat(32), keyPrefix: 'rotate' })
  await first.setSecret('JWT_SECRET', 'j'.repeat(32))
  await first.close()
  const rotating = new RedisSecretService(redis.url, { key: 'b'.repeat(32), keyVersion: 2, previousKey: 'a'.repeat(32), keyPrefix: 'rotate' })
  const rotated = await rotating.rotateKEK()
  await rotating.close()
  assert.equal(rotated, 1)
  const after = new RedisSecretService(redis.url, { key: 'b'.repeat(32), keyVersion: 2, keyPrefix: 'rotate' })
  try {
    assert.equal((await after.getSecret('JWT_SECRET')).reveal(), 'j'.repeat(32))
  } finally {
    await after.close()
  }
})

test('redis-secrets-rotate-skip: rotateKEK unwraps every older secret with the key of keyVersion - 1, so going from version 1 straight to 3 throws and rotates nothing, while reads still work', async () => {
  const first = new RedisSecretService(redis.url, { key: 'a'.repeat(32), keyPrefix: 'rotate-skip' })
  await first.setSecret('JWT_SECRET', 'j'.repeat(32))
  await first.close()
  const skipping = new RedisSecretService(redis.url, { key: 'c'.repeat(32), keyVersion: 3, previousKey: 'a'.repeat(32), keyPrefix: 'rotate-skip' })
  try {
    await assert.rejects(skipping.rotateKEK())
    // The secret is still wrapped under version 1, which previousKey still opens.
    assert.equal((await skipping.getSecret('JWT_SECRET')).reveal(), 'j'.repeat(32))
  } finally {
    await skipping.close()
  }
  const direct = new Redis(redis.url)
  try {
    assert.equal(await direct.hget('rotate-skip:secret:JWT_SECRET', 'key_version'), '1')
  } finally {
    direct.disconnect()
  }
})

test('redis-get-secrets-wrong-key: getSecrets of RedisSecretService leaves out a missing key but throws for a stored one that the configured key cannot decrypt', async () => {
  const writer = new RedisSecretService(redis.url, { key: 'a'.repeat(32), keyPrefix: 'wrong-key' })
  await writer.setSecret('DIGEST_WEBHOOK_URL', 'https://hooks.example.com/1')
  await writer.close()
  const reader = new RedisSecretService(redis.url, { key: 'z'.repeat(32), keyPrefix: 'wrong-key' })
  try {
    assert.deepEqual(await reader.getSecrets(['REMINDER_EMAIL_API_KEY']), {})
    await assert.rejects(reader.getSecrets(['DIGEST_WEBHOOK_URL', 'REMINDER_EMAIL_API_KEY']), {
      message: 'Failed to decrypt secret "DIGEST_WEBHOOK_URL" (key_version 1): the configured KEK does not match the key it was wrapped under',
    })
  } finally {
    await reader.close()
  }
})

test('kysely-secrets-audit-wrong-key: KyselySecretService with audit records each write, delete (of a missing key too) and rotation, and a getSecret read only with auditReads, never a getSecrets read; auditReads alone records nothing; getSecrets throws for a stored secret the configured key cannot decrypt', async () => {
  const { Kysely, SqliteDialect, CamelCasePlugin } = await import('kysely')
  const { SerializePlugin, applyPikkuSchemas, secretSchema, KyselySecretService } = await import('@pikku/kysely')
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: (await sqliteDatabase()) as never }), plugins: [new SerializePlugin(), new CamelCasePlugin()] })
  const audit = async () =>
    ((await (db as any).selectFrom('secretsAudit').select(['secretKey', 'action']).execute()) as Array<{ secretKey: string; action: string }>)
      .map((row) => `${row.action} ${row.secretKey}`)
      .sort()
  try {
    await applyPikkuSchemas(db as never, [secretSchema])
    const readsOnly = new KyselySecretService(db as never, { key: 'a'.repeat(32), auditReads: true })
    await readsOnly.setSecret('A', 'one')
    await readsOnly.getSecret('A')
    await readsOnly.deleteSecret('A')
    assert.deepEqual(await audit(), [])
    const audited = new KyselySecretService(db as never, { key: 'a'.repeat(32), audit: true, auditReads: true })
    await audited.setSecret('B', 'two')
    await audited.getSecret('B')
    await audited.getSecrets(['B'])
    await audited.deleteSecret('NEVER_STORED')
    assert.deepEqual(await audit(), ['delete NEVER_STORED', 'read B', 'write B'])
    const noReads = new KyselySecretService(db as never, { key: 'a'.repeat(32), audit: true })
    await noReads.getSecret('B')
    const rotated = new KyselySecretService(db as never, { key: 'c'.repeat(32), keyVersion: 2, previousKey: 'a'.repeat(32), audit: true })
    assert.equal(await rotated.rotateKEK(), 1)
    assert.deepEqual(await audit(), ['delete NEVER_STORED', 'read B', 'rotate B', 'write B'])
    // A reader with a key that does not match: a missing key is left out, a stored one throws.
    const wrong = new KyselySecretService(db as never, { key: 'z'.repeat(32), keyVersion: 2 })
    assert.deepEqual(await wrong.getSecrets(['MISSING']), {})
    await assert.rejects(wrong.getSecrets(['B', 'MISSING']), {
      message: 'Failed to decrypt secret "B" (key_version 2): the configured KEK does not match the key it was wrapped under',
    })
  } finally {
    await db.destroy()
  }
})

test('redis-session-store-wrapper: RedisSessionStore takes a client that is not an ioredis instance as options, and opens its own connection to localhost:6379', async () => {
  const client = new Redis(redis.url)
  // A wrapper with the calls the store makes, delegating to a real client.
  const wrapper = {
    ping: () => client.ping(),
    get: (key: string) => client.get(key),
    set: (key: string, value: string) => client.set(key, value),
    del: (key: string) => client.del(key),
  }
  const store = new RedisSessionStore(wrapper as never)
  const used = (store as unknown as { redis: Redis }).redis
  try {
    assert.notEqual(used as unknown, wrapper)
    assert.ok(used instanceof Redis)
    assert.equal(used.options.host, 'localhost')
    assert.equal(used.options.port, 6379)
  } finally {
    used.disconnect()
    client.disconnect()
  }
})

test('redis-stores-sample: the storage page sample reads the encryption key from the environment and builds Redis secrets and sessions', async () => {
  // The sample's body, with a variables service in place of the environment.
  const variables = new LocalVariablesService({ REDIS_URL: redis.url, SECRETS_ENCRYPTION_KEY: 'e'.repeat(32) })
  const redisUrl = ((await variables.get('REDIS_URL')) as string | undefined) ?? 'redis://localhost:6379'
  const encryptionKey = await new LocalSecretService(variables).getSecret('SECRETS_ENCRYPTION_KEY')
  const sessionStore = new RedisSessionStore(redisUrl)
  await sessionStore.init()
  const secrets = new RedisSecretService(redisUrl, { key: encryptionKey.reveal() })
  try {
    await secrets.setSecret('SLACK_BOT_TOKEN', 'xoxb-1')
    assert.equal((await secrets.getSecret('SLACK_BOT_TOKEN')).reveal(), 'xoxb-1')
  } finally {
    await secrets.close()
    await sessionStore.close()
  }
})

test('sqlite-stores-need-camel-case: on a Kysely without CamelCasePlugin, as createSQLiteKysely builds it, the session, secret and channel stores pass init() and then fail their first query; withPlugin(new CamelCasePlugin()) fixes it', async () => {
  const { Kysely, SqliteDialect, CamelCasePlugin } = await import('kysely')
  const { SerializePlugin, applyPikkuSchemas, sessionSchema, secretSchema, channelSchema, KyselySessionStore, KyselySecretService, KyselyChannelStore } = await import('@pikku/kysely')
  // What createSQLiteKysely of @pikku/kysely-sqlite 0.12.13 returns (create-sqlite-kysely.ts): SqliteDialect
  // with SerializePlugin and no other plugin. That package is not installed here, so the same object is built by hand.
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: (await sqliteDatabase()) as never }), plugins: [new SerializePlugin()] })
  try {
    // The tables the migration creates: applyPikkuSchemas names them in snake case whatever plugins db has.
    await applyPikkuSchemas(db as never, [sessionSchema, secretSchema, channelSchema])
    const sessions = new KyselySessionStore(db as never)
    const secrets = new KyselySecretService(db as never, { key: 'k'.repeat(32) })
    const channels = new KyselyChannelStore(db as never)
    // init() checks the tables with a CamelCasePlugin of its own, so all three pass.
    await sessions.init()
    await secrets.init()
    await channels.init()
    await assert.rejects(sessions.set('u1', { userId: 'u1' }), /no such table: pikkuUserSessions/)
    await assert.rejects(secrets.setSecret('API_KEY', 'v1'), /no such table: secretKekSalts/)
    await assert.rejects(channels.addChannel({ channelId: 'c1', channelName: 'todos', openingData: {} } as never), /table channels has no column named channelId/)
    // The same connection with the plugin added reaches the tables.
    const camel = db.withPlugin(new CamelCasePlugin())
    const camelSessions = new KyselySessionStore(camel as never)
    await camelSessions.set('u1', { userId: 'u1' })
    assert.deepEqual(await camelSessions.get('u1'), { userId: 'u1' })
    const camelSecrets = new KyselySecretService(camel as never, { key: 'k'.repeat(32) })
    await camelSecrets.setSecret('API_KEY', 'v1')
    assert.equal((await camelSecrets.getSecret('API_KEY')).reveal(), 'v1')
  } finally {
    await db.destroy()
  }
})

test('mysql-stores-send-on-conflict: on Kysely\'s MySQL dialect the session store\'s set, the event hub store\'s subscribe, the secret service\'s first write and the deployment service\'s start send "insert … on conflict (…)"', async () => {
  const { Kysely, MysqlDialect, CamelCasePlugin } = await import('kysely')
  const { KyselySessionStore, KyselySecretService, KyselyEventHubStore, KyselyDeploymentService } = await import('@pikku/kysely')
  // No MySQL server here: a pool that records each statement and answers with no rows.
  const sent: string[] = []
  const connection = {
    query: (text: string, _parameters: unknown, done: (error: null, rows: unknown[]) => void) => {
      sent.push(text)
      done(null, [])
    },
    release: () => {},
  }
  const pool = { getConnection: (done: (error: null, c: typeof connection) => void) => done(null, connection), end: (done: () => void) => done() }
  const db = new Kysely<never>({ dialect: new MysqlDialect({ pool: pool as never }), plugins: [new CamelCasePlugin()] })
  try {
    await new KyselySessionStore(db as never).set('u1', { userId: 'u1' })
    await new KyselyEventHubStore(db as never).subscribe('todos:ann', 'c1')
    // The salt is read back after its insert; this pool has no row to give, so the write stops there.
    await assert.rejects(new KyselySecretService(db as never, { key: 'k'.repeat(32) }).setSecret('API_KEY', 'v1'))
    const deployments = new KyselyDeploymentService({}, db as never)
    await deployments.start({ deploymentId: 'd1', endpoint: 'http://127.0.0.1:9', functions: ['listTodos'] })
    await deployments.stop()
    const upserts = sent.filter((text) => text.startsWith('insert'))
    assert.deepEqual(upserts.map((text) => text.slice(0, text.indexOf(' ('))), ['insert into `pikku_user_sessions`', 'insert into `channel_subscriptions`', 'insert into `secret_kek_salts`', 'insert into `pikku_deployments`', 'insert into `pikku_deployment_functions`'])
    for (const text of upserts.slice(0, 4)) assert.match(text, / on conflict \(`[a-z_`, ]+\) do (update set|nothing)/)
  } finally {
    await db.destroy()
  }
})

test('notifier-without-keys: the app starts with no mail key or webhook; only sending an e-mail fails, and postDigest resolves false', async () => {
  assert.equal(process.env.REMINDER_EMAIL_API_KEY, undefined)
  assert.equal(process.env.DIGEST_WEBHOOK_URL, undefined)
  // The app is running (before() started it): reading the key is left to the first send.
  const notifier = app.services.notifier as Notifier
  await assert.rejects(notifier.sendEmail({ to: 'a@example.com', subject: 's', text: 't' }), {
    message: 'Requested secret not found',
  })
  assert.equal(await notifier.postDigest('3 open'), false)
})

test('missing-service-error-500: MissingServiceError is registered with status 500', async () => {
  const { MissingServiceError } = await import('@pikku/core/errors')
  const registered = (pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>).get(MissingServiceError)
  assert.equal(registered?.status, 500)
})

// --- OAuth2 credentials through @pikku/better-auth (docs/core-features/credentials.mdx) ---

/**
 * A real better-auth instance (the version this repository installs) on its in-memory adapter, with the
 * credentialOAuth plugin for one OAuth2 credential whose token URL is a local server that counts its calls,
 * one signed-up user, and that user's session cookie.
 */
const credentialOAuthApp = async (options: { errorURL?: string; providers?: unknown[] } = {}) => {
  const { createServer } = await import('node:http')
  const tokenRequests: string[] = []
  const tokenServer = createServer((req, res) => {
    tokenRequests.push(req.url ?? '')
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600, token_type: 'Bearer' }))
  })
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve))
  const { port } = tokenServer.address() as { port: number }
  const { betterAuth } = await import('better-auth')
  const { memoryAdapter } = await import('better-auth/adapters/memory')
  const { credentialOAuth } = await import('@pikku/better-auth')
  const db: Record<string, Record<string, unknown>[]> = { user: [], session: [], account: [], verification: [] }
  const auth = betterAuth({
    secret: 'better-auth-secret-of-at-least-32-chars',
    baseURL: 'http://localhost:3000',
    database: memoryAdapter(db),
    emailAndPassword: { enabled: true },
    ...(options.errorURL ? { onAPIError: { errorURL: options.errorURL } } : {}),
    plugins: [
      credentialOAuth({
        config: (options.providers as never) ?? [
          {
            providerId: 'google-calendar',
            clientId: 'client-id',
            clientSecret: 'client-secret',
            authorizationUrl: 'https://provider.example/authorize',
            tokenUrl: `http://127.0.0.1:${port}/token`,
            scopes: ['calendar'],
          },
        ],
      }),
    ],
  })
  const signUp = await auth.api.signUpEmail({
    body: { name: 'Alice', email: 'alice@example.com', password: 'alice-password-1' },
    asResponse: true,
  })
  const cookies = signUp.headers.getSetCookie().map((c) => c.split(';')[0])
  const { user } = (await signUp.json()) as { user: { id: string } }
  return { auth, db, user, cookies, tokenRequests, stop: () => tokenServer.close() }
}

/** The plugin's POST /credential-oauth/link for `providerId`, sent with `cookies` (and `extra` in the body); its answer. */
const requestLink = (
  auth: { handler: (request: Request) => Promise<Response> },
  cookies: string[],
  providerId = 'google-calendar',
  extra: Record<string, string> = {},
) =>
  auth.handler(
    new Request('http://localhost:3000/api/auth/credential-oauth/link', {
      method: 'POST',
      headers: { cookie: cookies.join('; '), 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ providerId, callbackURL: '/settings', ...extra }),
    }),
  )

/**
 * Asks to link google-calendar (with `extra` in the request body), then comes back to the callback with a code, as
 * the provider does after a granted consent; the callback's answer.
 */
const linkAndCallBack = async (
  auth: { handler: (request: Request) => Promise<Response> },
  cookies: string[],
  extra: Record<string, string> = {},
) => {
  const link = await requestLink(auth, cookies, 'google-calendar', extra)
  assert.equal(link.status, 200)
  const state = new URL(((await link.json()) as { url: string }).url).searchParams.get('state')
  const stateCookies = link.headers.getSetCookie().map((c) => c.split(';')[0])
  return auth.handler(
    new Request(`http://localhost:3000/api/auth/credential-oauth/callback/google-calendar?code=granted&state=${state}`, {
      headers: { cookie: [...cookies, ...stateCookies].join('; ') },
    }),
  )
}

test('credential-oauth-link-better-auth-17: with better-auth 1.7 the link callback never exchanges the code: it redirects to the error page with session_required, and an errorCallbackURL is not used', async () => {
  const { readFile } = await import('node:fs/promises')
  const manifest = new URL('../../node_modules/better-auth/package.json', import.meta.url)
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string }
  assert.match(version, /^1\.7\./)
  const { auth, db, cookies, tokenRequests, stop } = await credentialOAuthApp()
  try {
    const callback = await linkAndCallBack(auth, cookies, { errorCallbackURL: '/settings/failed' })
    assert.equal(callback.status, 302)
    assert.equal(callback.headers.get('location'), 'http://localhost:3000/api/auth/error?error=session_required')
    assert.deepEqual(tokenRequests, [])
    assert.equal(db.account!.filter((a) => a.providerId === 'google-calendar').length, 0)
  } finally {
    stop()
  }
})

test('credential-oauth-link-error-url: a failed link callback redirects to the errorURL of better-auth\'s onAPIError option when the app sets one, with ?error=<code> appended', async () => {
  const { auth, cookies, stop } = await credentialOAuthApp({ errorURL: 'http://localhost:3000/settings/link-failed' })
  try {
    // The callback fails (session_required with the better-auth this repository installs; see the test above).
    const callback = await linkAndCallBack(auth, cookies)
    assert.equal(callback.status, 302)
    assert.equal(callback.headers.get('location'), 'http://localhost:3000/settings/link-failed?error=session_required')
  } finally {
    stop()
  }
})

test('better-auth-credential-read-17: with better-auth 1.7 every OAuth2 read of BetterAuthCredentialService throws "[body] Invalid input", so the first getCredential of any credential in that call rejects, and every other one, later or in parallel, resolves null', async () => {
  const { BetterAuthCredentialService } = await import('@pikku/better-auth')
  const { auth, user, stop } = await credentialOAuthApp()
  const context = await auth.$context
  // A linked account row, as the callback would write it.
  await context.internalAdapter.createAccount({ userId: user.id, providerId: 'google-calendar', accountId: user.id, accessToken: 'at-1' })
  const original = app.services.credentialService
  const fallback = credentialsOf()
  const service = new BetterAuthCredentialService({ getAuth: async () => auth as never, oauth2Names: ['google-calendar'], fallback })
  await fallback.set('reporting-api-key', { apiKey: 'k' }, user.id)
  registerProbe('readApiKey', {
    func: async (_s: unknown, _d: unknown, wire: any) => ({ apiKey: await wire.getCredential('reporting-api-key') }),
  })
  registerProbe('readApiKeyTwice', {
    func: async (_s: unknown, _d: unknown, wire: any) => {
      const first = await wire.getCredential('reporting-api-key').catch((e: Error) => e.message)
      return { first, second: await wire.getCredential('reporting-api-key') }
    },
  })
  registerProbe('readApiKeyInParallel', {
    func: async (_s: unknown, _d: unknown, wire: any) => {
      const [first, second] = await Promise.allSettled([wire.getCredential('reporting-api-key'), wire.getCredential('reporting-api-key')])
      return { first: first.status, second: second.status === 'fulfilled' ? second.value : second.status }
    },
  })
  try {
    for (const read of [() => service.get('google-calendar', user.id), () => service.has('google-calendar', user.id), () => service.getAll(user.id)]) {
      await assert.rejects(read(), { message: '[body] Invalid input' })
    }
    // A credential better-auth does not own is still read from the fallback when asked for alone...
    assert.deepEqual(await service.get('reporting-api-key', user.id), { apiKey: 'k' })
    // ...but the wire loads all of the caller's credentials with getAll, which reads the OAuth2 ones too.
    ;(app.services as { credentialService?: CredentialService }).credentialService = service
    await assert.rejects(run('readApiKey', {}, { session: { userId: user.id, role: 'member' } }), { message: '[body] Invalid input' })
    // A second read in the same call, after the first was caught, resolves null: the wire counts itself loaded.
    assert.deepEqual(await run('readApiKeyTwice', {}, { session: { userId: user.id, role: 'member' } }), {
      first: '[body] Invalid input',
      second: null,
    })
    // Only the read that started the load rejects: one made while it was still loading resolves null.
    assert.deepEqual(await run('readApiKeyInParallel', {}, { session: { userId: user.id, role: 'member' } }), {
      first: 'rejected',
      second: null,
    })
  } finally {
    ;(app.services as { credentialService?: CredentialService }).credentialService = original
    await fallback.delete('reporting-api-key', user.id)
    stop()
  }
})

test('pku951-reads: PKU951 counts literal keys read with getSecret, hasSecret or getSecrets as methods, not a bare getSecret on a destructured service', { timeout: 600_000 }, async () => {
  const file = (read: string) =>
    [
      "import type { SecretService } from '@pikku/core/services'",
      `export const read = async (secrets: SecretService) => { ${read} }`,
    ].join('\n')
  const { reported, state } = await inspectFiles('pku951-reads', {
    'get.ts': file("await secrets.getSecret('UNDECLARED_GET')"),
    'has.ts': file("await secrets.hasSecret('UNDECLARED_HAS')"),
    'list.ts': file("await secrets.getSecrets(['UNDECLARED_LIST'])"),
    'bare.ts': file("const { getSecret } = secrets; await getSecret('UNDECLARED_BARE')"),
  })
  // One warning per file that reads an undeclared key as a method; the destructured read is not seen at all.
  assert.deepEqual(reported.filter(({ code }) => code === 'PKU951').map(({ severity }) => severity), ['warn', 'warn', 'warn'])
  const keys = [...state.secrets.usage.values()].flatMap((usage) => usage.keys).sort()
  assert.deepEqual(keys, ['UNDECLARED_GET', 'UNDECLARED_HAS', 'UNDECLARED_LIST'])
})

test('secret-declaration-codes: a defineSecret without name, displayName, secretId or schema, or with an inline schema, a property-access schema or the { schema } shorthand is PKU111; a name or secretId given by a constant is PKU118; an unparsable rotationPeriod is PKU124', { timeout: 600_000 }, async () => {
  const file = (fields: string) =>
    [
      "import { defineSecret } from '@pikku/core/secret'",
      "import { z } from 'zod'",
      'const ApiKeySchema = z.string()',
      'const schemas = { apiKey: ApiKeySchema }',
      'const schema = ApiKeySchema',
      "const NAME = 'apiKey'",
      "const ID = 'API_KEY'",
      `defineSecret({ ${fields} })`,
    ].join('\n')
  const base = "displayName: 'API key', "
  const cases: Record<string, string> = {
    inline: `name: 'apiKey', ${base}secretId: 'API_KEY', schema: z.string()`,
    property: `name: 'apiKey', ${base}secretId: 'API_KEY', schema: schemas.apiKey`,
    shorthand: `name: 'apiKey', ${base}secretId: 'API_KEY', schema`,
    noName: `${base}secretId: 'API_KEY', schema: ApiKeySchema`,
    noDisplayName: "name: 'apiKey', secretId: 'API_KEY', schema: ApiKeySchema",
    noSecretId: `name: 'apiKey', ${base}schema: ApiKeySchema`,
    noSchema: `name: 'apiKey', ${base}secretId: 'API_KEY'`,
    constName: `name: NAME, ${base}secretId: 'API_KEY', schema: ApiKeySchema`,
    constId: `name: 'apiKey', ${base}secretId: ID, schema: ApiKeySchema`,
    rotation: `name: 'apiKey', ${base}secretId: 'API_KEY', schema: ApiKeySchema, rotationPeriod: 'soon'`,
    fine: `name: 'apiKey', ${base}secretId: 'API_KEY', schema: ApiKeySchema, rotationPeriod: '90d'`,
  }
  const found: Record<string, string[]> = {}
  for (const [name, fields] of Object.entries(cases)) {
    const { reported } = await inspectFiles(`secret-decl-${name}`, { 'secret.ts': file(fields) })
    found[name] = codes(reported).filter((c) => /^PKU1(11|18|24) /.test(c))
  }
  assert.deepEqual(found, {
    inline: ['PKU111 critical'],
    property: ['PKU111 critical'],
    shorthand: ['PKU111 critical'],
    noName: ['PKU111 critical'],
    noDisplayName: ['PKU111 critical'],
    noSecretId: ['PKU111 critical'],
    noSchema: ['PKU111 critical'],
    constName: ['PKU118 critical'],
    constId: ['PKU118 critical'],
    rotation: ['PKU124 critical'],
    fine: [],
  })
})

test('credential-declaration-inspect: the inspector folds literal URLs but records a constant or a template with placeholders as its source text, drops oauth2 without appCredentialSecretId, authorizationUrl, tokenUrl or an array-literal scopes, types only a bare schema name, and reports PKU111 for no name, no displayName or a bad type and PKU118 for a constant name', { timeout: 600_000 }, async () => {
  const head = [
    "import { defineCredential } from '@pikku/core/credential'",
    "import { z } from 'zod'",
    'const TokenSchema = z.object({ accessToken: z.string() })',
    'const schemas = { token: TokenSchema }',
    'const schema = TokenSchema',
    "const AUTH_URL = 'https://auth.example.com/authorize'",
    "const HOST = 'auth.example.com'",
    "const SCOPES = ['read']",
    "const NAME = 'from-constant'",
  ].join('\n')
  const oauth2 = (fields: string) =>
    `oauth2: { appCredentialSecretId: 'APP', tokenSecretId: 'TOKENS', tokenUrl: 'https://auth.example.com/token', ${fields} }`
  const define = (name: string, rest: string) => `defineCredential({ name: '${name}', displayName: 'D', type: 'wire', ${rest} })`
  const good = [
    define('literal', `schema: TokenSchema, ${oauth2("authorizationUrl: 'https://a.example.com/' + 'authorize', scopes: ['read']")}`),
    define('constant-url', `schema: TokenSchema, ${oauth2('authorizationUrl: AUTH_URL, scopes: [\'read\']')}`),
    define('template-url', `schema: TokenSchema, ${oauth2("authorizationUrl: `https://${HOST}/authorize`, scopes: ['read']")}`),
    define('plain-template', `schema: TokenSchema, ${oauth2("authorizationUrl: `https://auth.example.com/authorize`, scopes: ['read']")}`),
    define('no-scopes', `schema: TokenSchema, ${oauth2("authorizationUrl: 'https://a.example.com/'")}`),
    define('const-scopes', `schema: TokenSchema, ${oauth2("authorizationUrl: 'https://a.example.com/', scopes: SCOPES")}`),
    define('no-app-secret', "oauth2: { tokenUrl: 't', authorizationUrl: 'a', scopes: ['read'] }"),
    define('no-token-url', "oauth2: { appCredentialSecretId: 'APP', authorizationUrl: 'a', scopes: ['read'] }"),
    define('inline-schema', 'schema: z.object({ accessToken: z.string() })'),
    define('property-schema', 'schema: schemas.token'),
    define('shorthand-schema', 'schema'),
  ]
  const { reported, state } = await inspectFiles('credential-decl', { 'good.ts': [head, ...good].join('\n') })
  assert.deepEqual(codes(reported).filter((c) => /^PKU1(11|18) /.test(c)), [])
  const defs = Object.fromEntries(state.credentials.definitions.map((d: any) => [d.name, d]))
  assert.equal(defs['literal'].oauth2.authorizationUrl, 'https://a.example.com/authorize')
  assert.equal(defs['plain-template'].oauth2.authorizationUrl, 'https://auth.example.com/authorize')
  assert.equal(defs['constant-url'].oauth2.authorizationUrl, 'AUTH_URL')
  assert.equal(defs['template-url'].oauth2.authorizationUrl, '`https://${HOST}/authorize`')
  assert.equal(defs['no-scopes'].oauth2, undefined)
  assert.equal(defs['const-scopes'].oauth2, undefined)
  assert.equal(defs['no-app-secret'].oauth2, undefined)
  assert.equal(defs['no-token-url'].oauth2, undefined)
  assert.equal(defs['literal'].schema, 'CredentialSchema_literal')
  assert.deepEqual(['inline-schema', 'property-schema', 'shorthand-schema'].map((n) => defs[n].schema), [undefined, undefined, undefined])
  const bad: Record<string, string> = {
    noName: "defineCredential({ displayName: 'D', type: 'wire', schema: TokenSchema })",
    noDisplayName: "defineCredential({ name: 'x', type: 'wire', schema: TokenSchema })",
    badType: "defineCredential({ name: 'x', displayName: 'D', type: 'user', schema: TokenSchema })",
    constName: "defineCredential({ name: NAME, displayName: 'D', type: 'wire', schema: TokenSchema })",
  }
  const found: Record<string, string[]> = {}
  for (const [name, line] of Object.entries(bad)) {
    const result = await inspectFiles(`credential-decl-${name}`, { 'bad.ts': [head, line].join('\n') })
    found[name] = codes(result.reported).filter((c) => /^PKU1(11|18) /.test(c))
  }
  assert.deepEqual(found, { noName: ['PKU111 critical'], noDisplayName: ['PKU111 critical'], badType: ['PKU111 critical'], constName: ['PKU118 critical'] })
})

test('credential-oauth-providers-skip: credentialOAuthProviders skips, with a warning, a credential whose app secret the local, Redis or Kysely secret service reports as "Requested secret not found", passes any other error on, and throws for a secret with no clientId', async () => {
  const { credentialOAuthProviders } = await import('@pikku/better-auth')
  const { Kysely, SqliteDialect, CamelCasePlugin } = await import('kysely')
  const { SerializePlugin, applyPikkuSchemas, secretSchema, KyselySecretService } = await import('@pikku/kysely')
  const configs = {
    'google-calendar': { appCredentialSecretId: 'OAUTH_APP', authorizationUrl: 'https://a.example.com/', tokenUrl: 'https://a.example.com/token', scopes: ['read'] },
  } as never
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: (await sqliteDatabase()) as never }), plugins: [new SerializePlugin(), new CamelCasePlugin()] })
  const redisSecrets = new RedisSecretService(redis.url, { key: 'a'.repeat(32), keyPrefix: 'oauth-providers' })
  try {
    await applyPikkuSchemas(db as never, [secretSchema])
    for (const store of [secretsFrom({}), redisSecrets, new KyselySecretService(db as never, { key: 'a'.repeat(32) })]) {
      const warnings: string[] = []
      assert.deepEqual(await credentialOAuthProviders(configs, store as never, { warn: (m: string) => warnings.push(m) }), [])
      assert.equal(warnings.length, 1)
    }
    const failing = { getSecret: async () => { throw new Error('FATAL: Error finding secret: OAUTH_APP') } }
    await assert.rejects(credentialOAuthProviders(configs, failing as never), { message: 'FATAL: Error finding secret: OAUTH_APP' })
    await assert.rejects(credentialOAuthProviders(configs, secretsFrom({ OAUTH_APP: '{"clientSecret":"s"}' }) as never), /has no clientId/)
    const [provider] = await credentialOAuthProviders(configs, secretsFrom({ OAUTH_APP: '{"clientId":"c","clientSecret":"s"}' }) as never)
    assert.equal(provider?.clientId, 'c')
  } finally {
    await redisSecrets.close()
    await db.destroy()
  }
})

test('better-auth-credential-owner: BetterAuthCredentialService refuses set of an OAuth2 name it owns (a user id given, or a singleton name), sends an oauth2Names-only name with no user id to fallback, and refuses getUsersWithCredential for every name in oauth2Names', async () => {
  const { BetterAuthCredentialService } = await import('@pikku/better-auth')
  const { LocalCredentialService } = await import('@pikku/core/services')
  const fallback = new LocalCredentialService()
  const service = new BetterAuthCredentialService({
    getAuth: async () => { throw new Error('better-auth is not reached') },
    oauth2Names: ['google-calendar', 'team-slack'],
    singletonOAuth2Names: ['team-slack'],
    fallback,
  } as never)
  await assert.rejects(service.set('google-calendar', { accessToken: 't' }, 'alice'), /^Error: Cannot set OAuth2 credential 'google-calendar' directly/)
  await assert.rejects(service.set('team-slack', { accessToken: 't' }), /Cannot set OAuth2 credential 'team-slack' directly/)
  // No user id: no owner, so the value is stored in fallback without an error, and read and deleted there.
  await service.set('google-calendar', { accessToken: 'platform' })
  assert.deepEqual(await fallback.get('google-calendar'), { accessToken: 'platform' })
  assert.deepEqual(await service.get('google-calendar'), { accessToken: 'platform' })
  assert.equal(await service.has('google-calendar'), true)
  await service.delete('google-calendar')
  assert.equal(await fallback.get('google-calendar'), null)
  for (const name of ['google-calendar', 'team-slack']) {
    await assert.rejects(service.getUsersWithCredential(name), { message: new RegExp(`^Cannot list users for OAuth2 credential '${name}'`) })
  }
})

test('credential-oauth-link-unknown-404: linking a providerId that the plugin has no provider for answers 404 "No OAuth2 credential named \'…\' is declared"', async () => {
  const { auth, cookies, stop } = await credentialOAuthApp()
  try {
    const link = await requestLink(auth, cookies, 'no-such-credential')
    assert.equal(link.status, 404)
    assert.equal(((await link.json()) as { message: string }).message, "No OAuth2 credential named 'no-such-credential' is declared")
  } finally {
    stop()
  }
})

test('credential-oauth-endpoints: the plugin\'s POST /credential-oauth/link refuses a caller with no session and answers a signed-in one with the provider\'s authorization URL; the provider comes back to /credential-oauth/callback/:providerId', async () => {
  const { auth, cookies, stop } = await credentialOAuthApp()
  try {
    const link = (cookie: string[]) => requestLink(auth, cookie)
    assert.equal((await link([])).status, 401)
    const signedIn = await link(cookies)
    assert.equal(signedIn.status, 200)
    const url = new URL(((await signedIn.json()) as { url: string }).url)
    assert.equal(`${url.origin}${url.pathname}`, 'https://provider.example/authorize')
    // The callback route exists: an unknown state is sent to the error page, not answered 404.
    const callback = await auth.handler(new Request('http://localhost:3000/api/auth/credential-oauth/callback/google-calendar?code=c&state=unknown'))
    assert.equal(callback.status, 302)
    assert.match(callback.headers.get('location') ?? '', /error=/)
  } finally {
    stop()
  }
})

test('credential-oauth-link-skipped-404: a credential that credentialOAuthProviders skipped for an unset app secret answers the link with the same 404 as an undeclared one', async () => {
  const { credentialOAuthProviders } = await import('@pikku/better-auth')
  const configs = {
    'google-calendar': { appCredentialSecretId: 'OAUTH_APP', authorizationUrl: 'https://a.example.com/', tokenUrl: 'https://a.example.com/token', scopes: ['read'] },
  } as never
  const providers = await credentialOAuthProviders(configs, secretsFrom({}) as never, { warn: () => {} })
  const { auth, cookies, stop } = await credentialOAuthApp({ providers })
  try {
    const link = await requestLink(auth, cookies)
    assert.equal(link.status, 404)
    assert.equal(((await link.json()) as { message: string }).message, "No OAuth2 credential named 'google-calendar' is declared")
  } finally {
    stop()
  }
})

test('shared-id-same-schema-duplicates: two defineSecret calls sharing a secretId and a schema constant, or two defineVariable calls sharing a variableId and one, pass the CLI\'s check, but its serializers then write the id twice, and the generated leaves fail to compile', { timeout: 600_000 }, async () => {
  const source = [
    "import { defineSecret } from '@pikku/core/secret'",
    "import { defineVariable } from '@pikku/core/variable'",
    "import { z } from 'zod'",
    'export const KeySchema = z.string()',
    'export const DelaySchema = z.number()',
    "defineSecret({ name: 'mailKey', displayName: 'Mail key', secretId: 'MAIL_KEY', schema: KeySchema })",
    "defineSecret({ name: 'mailKeyAgain', displayName: 'Mail key again', secretId: 'MAIL_KEY', schema: KeySchema })",
    "defineVariable({ name: 'delay', displayName: 'Delay', variableId: 'DELAY_HOURS', schema: DelaySchema })",
    "defineVariable({ name: 'delayAgain', displayName: 'Delay again', variableId: 'DELAY_HOURS', schema: DelaySchema })",
  ].join('\n')
  const { reported, state } = await inspectFiles('shared-id-same-schema', { 'declarations.ts': source })
  assert.deepEqual(codes(reported), [])
  // The CLI's own serializers (what `pikku all` writes to #pikku/secrets and #pikku/variables), from its build.
  const cliFile = (path: string) => new URL(`../../node_modules/@pikku/cli/dist/src/functions/wirings/${path}`, import.meta.url).href
  const { serializeSecretsTypes } = await import(cliFile('secrets/serialize-secrets-types.js'))
  const { serializeVariablesTypes } = await import(cliFile('variables/serialize-variables-types.js'))
  const sourceFile = state.secrets.definitions[0].sourceFile as string
  const next = (name: string) => sourceFile.replace(/declarations\.ts$/, name)
  // Neither stops: the schema check only compares different schema constants.
  const secretsLeaf: string = serializeSecretsTypes({
    definitions: state.secrets.definitions,
    schemaLookup: state.schemaLookup,
    secretsFile: next('secrets.gen.ts'),
    packageMappings: {},
  })
  const variablesLeaf: string = serializeVariablesTypes({
    definitions: state.variables.definitions,
    schemaLookup: state.schemaLookup,
    variablesFile: next('variables.gen.ts'),
    packageMappings: {},
  })
  assert.equal(secretsLeaf.match(/'MAIL_KEY'\??:/g)?.length, 4)
  assert.equal(variablesLeaf.match(/'DELAY_HOURS':/g)?.length, 4)
  // The JSON sidecars are not written here; their side-effect imports are left out of the compile.
  const withoutSidecar = (text: string) => text.replace(/^import '\.\/pikku-[a-z]+-meta\.gen\.json'.*$/m, '')
  const { code, output } = await compileScratch('shared-id-same-schema', {
    'declarations.ts': source,
    'secrets.gen.ts': withoutSidecar(secretsLeaf),
    'variables.gen.ts': withoutSidecar(variablesLeaf),
  })
  assert.notEqual(code, 0)
  const errors = output.split('\n').filter(Boolean).map((line) => line.replace(/^.*\/(\w+\.gen\.ts)\(\d+,\d+\)/, '$1'))
  assert.deepEqual(errors.sort(), [
    "secrets.gen.ts: error TS1117: An object literal cannot have multiple properties with the same name.",
    "secrets.gen.ts: error TS2300: Duplicate identifier 'MAIL_KEY'.",
    "secrets.gen.ts: error TS2300: Duplicate identifier 'MAIL_KEY'.",
    "variables.gen.ts: error TS1117: An object literal cannot have multiple properties with the same name.",
    "variables.gen.ts: error TS2300: Duplicate identifier 'DELAY_HOURS'.",
    "variables.gen.ts: error TS2300: Duplicate identifier 'DELAY_HOURS'.",
  ])
})
