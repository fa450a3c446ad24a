// The schema services against the to-do app's generated schemas (.pikku/schemas): why the app uses
// CFWorkerSchemaService, what AjvSchemaService does with zod's draft 2020-12 schemas, and the core schema helpers.
// No server here: the generated bootstrap registers the schemas, as it does before a server starts.
import '#pikku/pikku-bootstrap.gen.js'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ConsoleLogger, LogLevel, type SchemaService } from '@pikku/core/services'
import { UnprocessableContentError, MissingSchemaError, MissingServiceError } from '@pikku/core/errors'
import { addSchema, coerceTopLevelDataFromSchema, compileAllSchemas, getSchema, validateSchema } from '@pikku/core/schema'
import { AjvSchemaService } from '@pikku/schema-ajv'
import { CFWorkerSchemaService } from '@pikku/schema-cfworker'
import { pikkuState } from '@pikku/core/state'
import { z } from 'zod'
import { recordingLogger, registerProbe } from './harness/core-probes.js'
import { rpcService } from '@pikku/core/rpc'
import { inspectFiles } from './harness/inspector.js'
import { APP_DIR } from './harness/node-process.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const logger = new ConsoleLogger()
if (!process.env.LOG) logger.setLevel(LogLevel.critical)

const DRAFT_2020_MISSING = /no schema with key or ref "https:\/\/json-schema\.org\/draft\/2020-12\/schema"/

test('zod-schemas-are-draft-2020: schemas made from zod (secrets, the public RPC endpoint) declare draft 2020-12; type-made ones draft-07', () => {
  // Every secret declared in src/secrets.ts.
  for (const name of ['reminderEmail', 'digestWebhook', 'jwtSecret'])
    assert.equal(getSchema(`SecretSchema_${name}`)?.$schema, 'https://json-schema.org/draft/2020-12/schema', name)
  // The generated public RPC endpoint's input is made from zod too.
  assert.equal(getSchema('RpcCallerInput')?.$schema, 'https://json-schema.org/draft/2020-12/schema')
  assert.equal(getSchema('ListTodosInput')?.$schema, 'http://json-schema.org/draft-07/schema#')
})

test('generated-schemas-registered: the generated bootstrap registers a JSON Schema made from a function\'s input type and one made from its output type', () => {
  assert.equal(getSchema('CreateTodoInput')?.type, 'object')
  assert.ok(Object.hasOwn(getSchema('CreateTodoInput')?.properties ?? {}, 'title'))
  assert.equal(getSchema('ListTodosOutput')?.$schema, 'http://json-schema.org/draft-07/schema#')
})

test('generated-schema-files: codegen writes each schema as a JSON file under .pikku/schemas/schemas/ and a register.gen.ts beside it that registers each one by its name', () => {
  const dir = join(APP_DIR, '.pikku', 'schemas')
  const register = readFileSync(join(dir, 'register.gen.ts'), 'utf8')
  for (const name of ['CreateTodoInput', 'ListTodosOutput']) {
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'schemas', `${name}.schema.json`), 'utf8')), JSON.parse(JSON.stringify(getSchema(name))))
    assert.ok(register.includes(`addSchema('${name}', ${name})`), name)
  }
})

test('ajv-rejects-draft-2020: AjvSchemaService throws on compiling a zod-made schema', () => {
  const ajv = new AjvSchemaService(logger)
  assert.throws(() => ajv.compileSchema('SecretSchema_jwtSecret', getSchema('SecretSchema_jwtSecret')), DRAFT_2020_MISSING)
})

test('ajv-start-fails: compileAllSchemas with AjvSchemaService, what a server runs at start, throws on the app', () => {
  assert.throws(() => compileAllSchemas(logger, new AjvSchemaService(logger)), DRAFT_2020_MISSING)
})

test('cfworker-compiles-all: CFWorkerSchemaService compiles every schema the app registers', () => {
  const cf = new CFWorkerSchemaService(logger)
  compileAllSchemas(logger, cf)
  assert.ok(cf.getSchemaNames().has('SecretSchema_jwtSecret'))
  assert.ok(cf.getSchemaNames().has('CreateTodoInput'))
})

test('cfworker-validates-2020: CFWorkerSchemaService checks a draft 2020-12 schema, with UnprocessableContentError on a mismatch', () => {
  const cf = new CFWorkerSchemaService(logger)
  cf.compileSchema('SecretSchema_jwtSecret', getSchema('SecretSchema_jwtSecret'))
  cf.validateSchema('SecretSchema_jwtSecret', 'k'.repeat(32))
  assert.throws(() => cf.validateSchema('SecretSchema_jwtSecret', 'short'), UnprocessableContentError)
})

test('ajv-draft-07-ok: AjvSchemaService compiles a type-made draft-07 schema and does not coerce "false" to false', () => {
  const ajv = new AjvSchemaService(logger)
  ajv.compileSchema('ListTodosInput', getSchema('ListTodosInput'))
  ajv.validateSchema('ListTodosInput', { done: false })
  assert.throws(() => ajv.validateSchema('ListTodosInput', { done: 'false' }), UnprocessableContentError)
})

test('ajv-keeps-first-schema: compiled again under the same name with a changed schema, as a dev reload does, AjvSchemaService keeps validating against the first one; CFWorkerSchemaService switches', () => {
  const before = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false }
  const after = { ...before, properties: { ...before.properties, priority: { type: 'number' } } }
  const ajv = new AjvSchemaService(logger)
  const cfworker = new CFWorkerSchemaService(logger)
  for (const service of [ajv, cfworker]) {
    service.compileSchema('ReloadedInput', before)
    service.compileSchema('ReloadedInput', after)
  }
  cfworker.validateSchema('ReloadedInput', { title: 'a', priority: 1 })
  assert.throws(() => ajv.validateSchema('ReloadedInput', { title: 'a', priority: 1 }), UnprocessableContentError)
})

test('schema-rejection-logged: both schema services log every input they refuse at error level before throwing the 422', () => {
  for (const make of [(l: never) => new CFWorkerSchemaService(l), (l: never) => new AjvSchemaService(l)]) {
    const { lines, logger: recording } = recordingLogger()
    const service = make(recording as never)
    service.compileSchema('ListTodosInput', getSchema('ListTodosInput'))
    service.validateSchema('ListTodosInput', { done: false })
    assert.deepEqual(lines.filter((l) => l.level === 'error'), [])
    assert.throws(() => service.validateSchema('ListTodosInput', { done: 'false' }), UnprocessableContentError)
    const errors = lines.filter((l) => l.level === 'error')
    assert.equal(errors.length, 1)
    assert.ok(errors[0]!.text.startsWith("failed to validate request data against schema 'ListTodosInput'"), errors[0]!.text)
  }
})

test('schema-keys: getSchemaKeys lists a schema\'s top-level properties, and is empty for an unknown name', () => {
  const cf = new CFWorkerSchemaService(logger)
  cf.compileSchema('UpdateTodoInput', getSchema('UpdateTodoInput'))
  assert.deepEqual(cf.getSchemaKeys('UpdateTodoInput'), ['todoId', 'title', 'done', 'dueAt'])
  assert.deepEqual(cf.getSchemaKeys('NoSuchSchema'), [])
})

test('schema-keys-compiled-only: both services answer getSchemaKeys from what they compiled themselves, so a schema core has registered has no keys until the service compiles it', () => {
  assert.ok(getSchema('UpdateTodoInput'))
  for (const service of [new CFWorkerSchemaService(logger), new AjvSchemaService(logger)]) {
    assert.deepEqual(service.getSchemaKeys('UpdateTodoInput'), [])
    service.compileSchema('UpdateTodoInput', getSchema('UpdateTodoInput'))
    assert.deepEqual(service.getSchemaKeys('UpdateTodoInput'), ['todoId', 'title', 'done', 'dueAt'])
  }
})

test('service-missing-validator-string: called directly with a name it never compiled, either service\'s validateSchema throws the plain string "Missing validator for <name>"', () => {
  for (const service of [new CFWorkerSchemaService(logger), new AjvSchemaService(logger)]) {
    assert.throws(() => service.validateSchema('NeverCompiled', {}), (thrown: unknown) => thrown === 'Missing validator for NeverCompiled')
  }
})

test('date-time-coerced-422: coerceDataFromSchema turns a top-level date-time property into a Date (an Invalid Date when the caller left it out), which both schema services then refuse with 422', async () => {
  // What the function runner does before validation when coerceDataFromSchema is on (the HTTP runner's default):
  // coerceTopLevelDataFromSchema, then validateSchema. The app has no date-time input, so a schema of its own.
  addSchema('DueAtProbeInput', {
    type: 'object',
    properties: { dueAt: { type: 'string', format: 'date-time' }, tags: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  })
  const given = { dueAt: '2026-12-01T09:00:00Z', tags: 'home,urgent' }
  coerceTopLevelDataFromSchema('DueAtProbeInput', given)
  assert.ok((given.dueAt as unknown) instanceof Date)
  assert.deepEqual(given.tags, ['home', 'urgent'])
  const leftOut: Record<string, unknown> = {}
  coerceTopLevelDataFromSchema('DueAtProbeInput', leftOut)
  assert.ok(leftOut.dueAt instanceof Date && Number.isNaN(leftOut.dueAt.getTime()))
  for (const service of [new CFWorkerSchemaService(logger), new AjvSchemaService(logger)]) {
    service.compileSchema('DueAtProbeInput', getSchema('DueAtProbeInput'))
    for (const data of [given, leftOut])
      await assert.rejects(validateSchema(logger, service, 'DueAtProbeInput', data), UnprocessableContentError)
    // Without the coercion the same string passes.
    await validateSchema(logger, service, 'DueAtProbeInput', { dueAt: '2026-12-01T09:00:00Z' })
  }
})

test('date-time-nested-stays-string: below the top level coerceDataFromSchema leaves a date-time string alone, and it passes validation as a string', async () => {
  // The schema ts-json-schema-generator makes for { window: { from: Date } }: a Date is a date-time string.
  addSchema('WindowProbeInput', {
    type: 'object',
    properties: {
      window: { type: 'object', properties: { from: { type: 'string', format: 'date-time' } }, required: ['from'], additionalProperties: false },
    },
    required: ['window'],
    additionalProperties: false,
  })
  try {
    const given = { window: { from: '2026-12-01T09:00:00Z' } }
    coerceTopLevelDataFromSchema('WindowProbeInput', given)
    assert.equal(typeof given.window.from, 'string')
    const cf = new CFWorkerSchemaService(logger)
    cf.compileSchema('WindowProbeInput', getSchema('WindowProbeInput'))
    await validateSchema(logger, cf, 'WindowProbeInput', given)
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('WindowProbeInput')
  }
})

test('zod-rules-lost: converted as the inspector converts zod, a refine is not checked, a transform accepts any value, z.coerce does not coerce and a nested default stays required', async () => {
  // processZodSchema in @pikku/inspector's schema-generator.ts converts with z.toJSONSchema and unrepresentable: 'any';
  // the runner then validates against that JSON Schema only, never with zod itself.
  const input = z.object({
    code: z.string().refine((value) => value.startsWith('T-')),
    count: z.string().transform(Number),
    limit: z.coerce.number(),
    options: z.object({ pageSize: z.number().default(20) }),
  })
  addSchema('ZodRulesProbeInput', z.toJSONSchema(input, { unrepresentable: 'any' }))
  try {
    const cf = new CFWorkerSchemaService(logger)
    cf.compileSchema('ZodRulesProbeInput', getSchema('ZodRulesProbeInput'))
    // zod refuses a code that breaks the refine and a count that is not a string; the schema lets both through.
    const broken = { code: 'x', count: 42, limit: 5, options: { pageSize: 10 } }
    assert.equal(input.safeParse(broken).success, false)
    await validateSchema(logger, cf, 'ZodRulesProbeInput', broken)
    // zod coerces "5"; the schema refuses it.
    const textLimit = { code: 'T-1', count: '3', limit: '5', options: { pageSize: 10 } }
    assert.equal(input.safeParse(textLimit).success, true)
    await assert.rejects(validateSchema(logger, cf, 'ZodRulesProbeInput', textLimit), UnprocessableContentError)
    // zod fills in the nested default; the schema still requires the field.
    const noPageSize = { code: 'T-1', count: '3', limit: 5, options: {} }
    assert.equal(input.safeParse(noPageSize).success, true)
    await assert.rejects(validateSchema(logger, cf, 'ZodRulesProbeInput', noPageSize), UnprocessableContentError)
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('ZodRulesProbeInput')
  }
})

test('inspector-primitive-and-channel-input: the inspector records a bare string or number input under the type\'s own name, and records no input type for a channel, one with a route param included', async () => {
  const { state } = await inspectFiles('primitive-input', {
    'probe.ts': [
      "import { pikkuSessionlessFunc, wireChannel } from '@pikku/core'",
      'export const echoText = pikkuSessionlessFunc<string, string>({ func: async (_services, text) => text })',
      'export const echoNumber = pikkuSessionlessFunc<number, number>({ func: async (_services, n) => n })',
      'export const echoObject = pikkuSessionlessFunc<{ text: string }, void>({ func: async () => {} })',
      "wireChannel({ name: 'rooms', route: '/rooms/:room', auth: false, onMessage: echoObject })",
      '',
    ].join('\n'),
  })
  const meta = state.functions.meta as Record<string, { inputSchemaName?: string | null }>
  assert.equal(meta.echoText?.inputSchemaName, 'string')
  assert.equal(meta.echoNumber?.inputSchemaName, 'number')
  assert.equal(meta.echoObject?.inputSchemaName, 'EchoObjectInput')
  assert.deepEqual(state.channels.meta.rooms?.params, ['room'])
  assert.equal(state.channels.meta.rooms?.input, null)
})

test('no-schema-service-skips: with no schema service, validateSchema lets data that does not match through', async () => {
  await validateSchema(logger, undefined, 'CreateTodoInput', { title: 42, priority: 'high' })
})

test('missing-schema-500: a schema name that was never registered fails with MissingSchemaError (500)', async () => {
  await assert.rejects(
    validateSchema(logger, new CFWorkerSchemaService(logger), 'NoSuchInput', {}),
    (error: unknown) => error instanceof MissingSchemaError,
  )
})

test('missing-schema-no-service: with no schema service, a schema name that was never registered is not looked up, so validateSchema resolves', async () => {
  await validateSchema(logger, undefined, 'NoSuchInput', { title: 42 })
})

test('runner-validates-with-schema: the function runner has the schema service compile and then validate a function\'s input before its body runs, again on every call; a function with no input schema is not checked', async () => {
  const calls: string[] = []
  const cf = new CFWorkerSchemaService(logger)
  const recording: SchemaService = {
    compileSchema: (name, value) => { calls.push(`compile ${name}`); return cf.compileSchema(name, value) },
    validateSchema: (name, data) => { calls.push(`validate ${name}`); return cf.validateSchema(name, data) },
    getSchemaNames: () => cf.getSchemaNames(),
    getSchemaKeys: (name) => cf.getSchemaKeys(name),
  }
  const ran: unknown[] = []
  const func = { func: async (_services: unknown, data: unknown) => { calls.push('func'); ran.push(data); return data } }
  registerProbe('checkedProbe', func, { sessionless: true, inputSchemaName: 'CreateTodoInput' })
  registerProbe('uncheckedProbe', func, { sessionless: true })
  try {
    const rpc: any = rpcService.getContextRPCService({ logger, schema: recording } as never, {}, false)
    await rpc.invoke('checkedProbe', { title: 'ok' })
    await rpc.invoke('checkedProbe', { title: 'again' })
    assert.deepEqual(calls, ['compile CreateTodoInput', 'validate CreateTodoInput', 'func', 'compile CreateTodoInput', 'validate CreateTodoInput', 'func'])
    calls.length = 0
    await assert.rejects(rpc.invoke('checkedProbe', { title: 42 }), UnprocessableContentError)
    assert.deepEqual(calls, ['compile CreateTodoInput', 'validate CreateTodoInput'])
    calls.length = 0
    // No input schema: the service is not asked, and data no schema describes reaches the function.
    assert.deepEqual(await rpc.invoke('uncheckedProbe', { surprise: true }), { surprise: true })
    assert.deepEqual(calls, ['func'])
  } finally {
    for (const name of ['checkedProbe', 'uncheckedProbe']) {
      pikkuState(null, 'function', 'functions').delete(name)
      delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>)[name]
    }
  }
})

test('output-not-validated: the function runner sends back what a function returns without checking it against the function\'s output schema', async () => {
  const cf = new CFWorkerSchemaService(logger)
  const wrong = { surprise: true }
  // The output schema refuses the value, so only the runner's skipping lets it through.
  await assert.rejects(validateSchema(logger, cf, 'ListTodosOutput', wrong), UnprocessableContentError)
  registerProbe('outputProbe', { func: async () => wrong }, { sessionless: true })
  const meta = pikkuState(null, 'function', 'meta') as Record<string, { outputSchemaName?: string | null }>
  meta.outputProbe!.outputSchemaName = 'ListTodosOutput'
  try {
    const rpc: any = rpcService.getContextRPCService({ logger, schema: cf } as never, {}, false)
    assert.equal(await rpc.invoke('outputProbe', {}), wrong)
  } finally {
    pikkuState(null, 'function', 'functions').delete('outputProbe')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).outputProbe
  }
})

test('zod-transform-value-as-sent: through the function runner, a field whose zod schema has a transform reaches the function as it was sent, not transformed', async () => {
  addSchema('TransformProbeInput', z.toJSONSchema(z.object({ count: z.string().transform(Number) }), { unrepresentable: 'any' }))
  registerProbe('transformProbe', { func: async (_services: unknown, data: unknown) => structuredClone(data) }, { sessionless: true, inputSchemaName: 'TransformProbeInput' })
  try {
    const rpc: any = rpcService.getContextRPCService({ logger, schema: new CFWorkerSchemaService(logger) } as never, {}, false)
    assert.deepEqual(await rpc.invoke('transformProbe', { count: '3' }), { count: '3' })
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('TransformProbeInput')
    pikkuState(null, 'function', 'functions').delete('transformProbe')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).transformProbe
  }
})

test('schema-error-statuses: core registers UnprocessableContentError with status 422, and MissingSchemaError and MissingServiceError with 500', () => {
  // Core's error registry, which the HTTP runner reads for a thrown error's status.
  const registered = pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>
  assert.equal(registered.get(UnprocessableContentError)?.status, 422)
  assert.equal(registered.get(MissingSchemaError)?.status, 500)
  assert.equal(registered.get(MissingServiceError)?.status, 500)
})

test('no-schema-name-no-data: validateSchema with no schema name refuses data with 422 "No data expected" (the channel runner\'s check)', async () => {
  const cf = new CFWorkerSchemaService(logger)
  await validateSchema(logger, cf, undefined, {})
  await assert.rejects(validateSchema(logger, cf, undefined, { surprise: true }), (error: unknown) => {
    assert.ok(error instanceof UnprocessableContentError)
    assert.equal(error.message, 'No data expected')
    return true
  })
})

test('no-data-expected-warn: core logs its "No data expected" refusal at warn level, not error', async () => {
  const { lines, logger: recording } = recordingLogger()
  await assert.rejects(validateSchema(recording as never, new CFWorkerSchemaService(logger), undefined, { surprise: true }), UnprocessableContentError)
  assert.deepEqual(lines, [{ level: 'warn', text: 'No schema provided, but data was passed' }])
})

test('defaults-written-into-caller-data: the runner writes a top-level schema default into the object it was handed, so rpc.invoke fills in the caller\'s own object, and a frozen one that lacks a defaulted field fails with a TypeError', async () => {
  // rpc.invoke hands the function runner the caller's object as it is; applyDefaultsFromSchema adds the missing
  // keys to that object rather than to a copy.
  addSchema('DefaultsProbeInput', {
    type: 'object',
    properties: { title: { type: 'string' }, priority: { type: 'string', default: 'normal' } },
    required: ['title'],
  })
  registerProbe('defaultsProbe', { func: async (_services: unknown, data: unknown) => data }, { sessionless: true, inputSchemaName: 'DefaultsProbeInput' })
  try {
    const services = { logger, schema: new CFWorkerSchemaService(logger) }
    const rpc: any = rpcService.getContextRPCService(services as never, {}, false)
    const input: Record<string, unknown> = { title: 'Write docs' }
    const received = await rpc.invoke('defaultsProbe', input)
    assert.equal(received, input)
    assert.deepEqual(input, { title: 'Write docs', priority: 'normal' })
    await assert.rejects(rpc.invoke('defaultsProbe', Object.freeze({ title: 'Frozen' })), (error: unknown) => {
      assert.ok(error instanceof TypeError)
      assert.match(error.message, /Cannot add property priority, object is not extensible/)
      return true
    })
    // A frozen object that already holds every field with a default is left alone, and the call goes through.
    const complete = Object.freeze({ title: 'Frozen', priority: 'high' })
    assert.equal(await rpc.invoke('defaultsProbe', complete), complete)
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('DefaultsProbeInput')
    pikkuState(null, 'function', 'functions').delete('defaultsProbe')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).defaultsProbe
  }
})

/**
 * Sets up a PikkuExpressServer (or, with `server`, a PikkuNodeHTTPServer, or starts a PikkuFastifyServer, whose plugin
 * compiles the schemas only as Fastify starts) on the app's singleton services with `schema` as their schema service
 * (none, for `undefined`): resolves with what its set-up does, and restores and stops the services after.
 */
async function initExpressWithSchema(schema: SchemaService | undefined, server: 'express' | 'node-http' | 'fastify' = 'express') {
  const { PikkuExpressServer } = await import('@pikku/express')
  const { stopSingletonServices } = await import('@pikku/core/utils')
  const { createConfig } = await import('../../src/config.js')
  const { createSingletonServices } = await import('../../src/services.js')
  const services = await createSingletonServices(await createConfig())
  services.logger.setLevel(LogLevel.critical)
  const own = services.schema
  if (schema) services.schema = schema
  else delete (services as Partial<typeof services>).schema
  try {
    if (server === 'express') await new PikkuExpressServer({ port: 0, hostname: '127.0.0.1' }, services.logger).init()
    else if (server === 'node-http') {
      const { PikkuNodeHTTPServer } = await import('@pikku/node-http-server')
      await new PikkuNodeHTTPServer({ port: 0, hostname: '127.0.0.1' } as never, services.logger).init()
    } else {
      const { PikkuFastifyServer } = await import('@pikku/fastify')
      const fastify = new PikkuFastifyServer({ port: 0, hostname: '127.0.0.1' } as never, services.logger)
      await fastify.init()
      try {
        await fastify.start()
      } finally {
        await (fastify as any).app.close()
      }
    }
  } finally {
    services.schema = own
    await stopSingletonServices()
  }
}

test('express-no-schema-service-fails: without a schema service, PikkuExpressServer does not start: it compiles every schema as it is set up, and that throws', async () => {
  await assert.rejects(
    initExpressWithSchema(undefined),
    /^Error: SchemaService needs to be defined to load schemas$/,
  )
})

test('servers-no-schema-service-fail: without a schema service, PikkuNodeHTTPServer.init() and PikkuFastifyServer.start() throw as they compile the schemas, as PikkuExpressServer does', async () => {
  for (const server of ['node-http', 'fastify'] as const) {
    await assert.rejects(initExpressWithSchema(undefined, server), /^Error: SchemaService needs to be defined to load schemas$/, server)
  }
})

test('ajv-express-init-fails: PikkuExpressServer.init() throws with AjvSchemaService as the app\'s schema service', async () => {
  // src/services.ts as it was before the app moved to CFWorkerSchemaService.
  await assert.rejects(initExpressWithSchema(new AjvSchemaService(logger)), DRAFT_2020_MISSING)
})

test('error-text-differs: the two schema services word the 422 message differently, and each names only the first problem it finds', () => {
  const schema = {
    type: 'object',
    properties: { title: { type: 'string' }, limit: { type: 'number' } },
    required: ['title'],
    additionalProperties: false,
  }
  const messages = (service: SchemaService) => {
    service.compileSchema('ErrorTextProbe', schema)
    return [{ title: 42, limit: 'x' }, { title: 'a', priority: 'high' }, {}].map((data) => {
      try {
        service.validateSchema('ErrorTextProbe', data)
        return 'passed'
      } catch (error) {
        assert.ok(error instanceof UnprocessableContentError)
        return error.message
      }
    })
  }
  assert.deepEqual(messages(new CFWorkerSchemaService(logger)), [
    'Property "title" does not match schema., Instance type "number" is invalid. Expected "string".',
    'Property "priority" does not match additional properties schema., False boolean schema.',
    'Instance does not have required property "title".',
  ])
  assert.deepEqual(messages(new AjvSchemaService(logger)), [
    'data/title must be string',
    'data must NOT have additional properties',
    "data must have required property 'title'",
  ])
})

test('unknown-format: both schema services check date-time and email; a format CFWorkerSchemaService does not know passes any string, and AjvSchemaService refuses to compile it', () => {
  const known = {
    type: 'object',
    properties: { at: { type: 'string', format: 'date-time' }, mail: { type: 'string', format: 'email' } },
    additionalProperties: false,
  }
  const unknown = { type: 'object', properties: { token: { type: 'string', format: 'jwt' } } }
  const cf = new CFWorkerSchemaService(logger)
  const ajv = new AjvSchemaService(logger)
  for (const service of [cf, ajv]) {
    service.compileSchema('FormatProbe', known)
    service.validateSchema('FormatProbe', { at: '2026-12-01T09:00:00Z', mail: 'ada@example.com' })
    assert.throws(() => service.validateSchema('FormatProbe', { at: 'tomorrow' }), UnprocessableContentError)
    assert.throws(() => service.validateSchema('FormatProbe', { mail: 'not-an-address' }), UnprocessableContentError)
  }
  cf.compileSchema('UnknownFormatProbe', unknown)
  cf.validateSchema('UnknownFormatProbe', { token: 'anything at all' })
  assert.throws(() => ajv.compileSchema('UnknownFormatProbe', unknown), /^Error: unknown format "jwt" ignored in schema at path "#\/properties\/token"$/)
})

test('no-coercion-either-service: both schema services refuse "5" for a number field and "false" for a boolean one, with 422', () => {
  const schema = { type: 'object', properties: { limit: { type: 'number' }, done: { type: 'boolean' } }, additionalProperties: false }
  for (const service of [new CFWorkerSchemaService(logger), new AjvSchemaService(logger)]) {
    service.compileSchema('NoCoercionProbe', schema)
    service.validateSchema('NoCoercionProbe', { limit: 5, done: false })
    assert.throws(() => service.validateSchema('NoCoercionProbe', { limit: '5' }), UnprocessableContentError)
    assert.throws(() => service.validateSchema('NoCoercionProbe', { done: 'false' }), UnprocessableContentError)
  }
})

test('defaults-before-validation: the function runner fills in a top-level default before it validates, so a required field that has a default may be left out', async () => {
  addSchema('DefaultFirstProbeInput', {
    type: 'object',
    properties: { title: { type: 'string' }, priority: { type: 'string', default: 'normal' } },
    required: ['title', 'priority'],
    additionalProperties: false,
  })
  registerProbe('defaultFirstProbe', { func: async (_services: unknown, data: unknown) => structuredClone(data) }, { sessionless: true, inputSchemaName: 'DefaultFirstProbeInput' })
  try {
    const cf = new CFWorkerSchemaService(logger)
    await assert.rejects(validateSchema(logger, cf, 'DefaultFirstProbeInput', { title: 'a' }), UnprocessableContentError)
    const rpc: any = rpcService.getContextRPCService({ logger, schema: cf } as never, {}, false)
    assert.deepEqual(await rpc.invoke('defaultFirstProbe', { title: 'a' }), { title: 'a', priority: 'normal' })
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('DefaultFirstProbeInput')
    pikkuState(null, 'function', 'functions').delete('defaultFirstProbe')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).defaultFirstProbe
  }
})

test('ajv-nested-default-lost: through the function runner, with either schema service the function gets the top-level default and not a nested one, Ajv\'s useDefaults included', async () => {
  addSchema('NestedDefaultProbeInput', {
    type: 'object',
    properties: {
      priority: { type: 'string', default: 'normal' },
      options: { type: 'object', properties: { pageSize: { type: 'number', default: 20 } } },
    },
  })
  registerProbe('nestedDefaultProbe', { func: async (_services: unknown, data: unknown) => structuredClone(data) }, { sessionless: true, inputSchemaName: 'NestedDefaultProbeInput' })
  try {
    for (const schema of [new AjvSchemaService(logger), new CFWorkerSchemaService(logger)]) {
      const rpc: any = rpcService.getContextRPCService({ logger, schema } as never, {}, false)
      assert.deepEqual(await rpc.invoke('nestedDefaultProbe', { options: {} }), { options: {}, priority: 'normal' })
    }
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('NestedDefaultProbeInput')
    pikkuState(null, 'function', 'functions').delete('nestedDefaultProbe')
    delete (pikkuState(null, 'function', 'meta') as Record<string, unknown>).nestedDefaultProbe
  }
})

test('ajv-draft-2020-first-call-only: through core, only the first check against a zod-made schema throws with AjvSchemaService; the same schema object then compiles and is validated, in any AjvSchemaService of the process', async () => {
  // A copy, so that no other test's compile of the registered object decides the outcome here.
  addSchema('Draft2020Probe', structuredClone(getSchema('SecretSchema_jwtSecret')))
  try {
    const ajv = new AjvSchemaService(logger)
    await assert.rejects(validateSchema(logger, ajv, 'Draft2020Probe', 'k'.repeat(32)), DRAFT_2020_MISSING)
    await validateSchema(logger, ajv, 'Draft2020Probe', 'k'.repeat(32))
    await assert.rejects(validateSchema(logger, ajv, 'Draft2020Probe', 'short'), UnprocessableContentError)
    // A new AjvSchemaService shares the module's Ajv instance, so it does not fail on that object again.
    await validateSchema(logger, new AjvSchemaService(logger), 'Draft2020Probe', 'k'.repeat(32))
  } finally {
    pikkuState(null, 'misc', 'schemas').delete('Draft2020Probe')
  }
})

test('cfworker-broken-schema-compiles: CFWorkerSchemaService compiles a schema with an unresolved $ref or an unknown type name; the $ref throws a plain Error (no registered status, so a 500) once a value reaches it, the type refuses every value of its property with 422; AjvSchemaService refuses both at compile time', () => {
  const unresolvedRef = { type: 'object', properties: { a: { $ref: '#/definitions/Missing' } } }
  const unknownType = { type: 'object', properties: { a: { type: 'strnig' } } }
  // The registry core's error handling looks a thrown error's class up in; a class it does not hold is answered 500.
  const registered = pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number }>
  const cf = new CFWorkerSchemaService(logger)
  cf.compileSchema('UnresolvedRefProbe', unresolvedRef)
  cf.compileSchema('UnknownTypeProbe', unknownType)
  // Data that never reaches the broken part passes.
  cf.validateSchema('UnresolvedRefProbe', {})
  cf.validateSchema('UnknownTypeProbe', {})
  assert.throws(() => cf.validateSchema('UnresolvedRefProbe', { a: 'x' }), (error: unknown) => {
    assert.equal((error as Error).constructor, Error)
    assert.match((error as Error).message, /^Unresolved \$ref "#\/definitions\/Missing"/)
    assert.equal(registered.get(Error), undefined)
    return true
  })
  for (const a of ['x', 1, true, null])
    assert.throws(() => cf.validateSchema('UnknownTypeProbe', { a }), (error: unknown) => {
      assert.ok(error instanceof UnprocessableContentError)
      assert.equal(registered.get(UnprocessableContentError)?.status, 422)
      assert.match(error.message, /Expected "strnig"\./)
      return true
    })
  const ajv = new AjvSchemaService(logger)
  assert.throws(() => ajv.compileSchema('UnresolvedRefProbe', unresolvedRef), /^Error: can't resolve reference #\/definitions\/Missing from id #$/)
  assert.throws(() => ajv.compileSchema('UnknownTypeProbe', unknownType), /^Error: schema is invalid: data\/properties\/a\/type must be equal to one of the allowed values/)
})

test('ajv-draft-2020-later-strict: through core, a zod-made schema with a draft 2020-12 keyword (z.tuple) or a format Ajv lacks (z.jwt) fails with AjvSchemaService on every check, first for the meta-schema, then in strict mode', async () => {
  // Converted the way the inspector converts zod schemas (utils/schema-generator.ts, processZodSchema).
  const probes = {
    TupleDraft2020Probe: [z.object({ pair: z.tuple([z.string(), z.number()]) }), { pair: ['a', 1] }, /^Error: strict mode: unknown keyword: "prefixItems"$/],
    JwtDraft2020Probe: [z.object({ token: z.jwt() }), { token: 'a.b.c' }, /^Error: unknown format "jwt" ignored in schema at path "#\/properties\/token"$/],
  } as const
  try {
    for (const [name, [zodSchema, data, later]] of Object.entries(probes)) {
      addSchema(name, z.toJSONSchema(zodSchema, { unrepresentable: 'any' }))
      const ajv = new AjvSchemaService(logger)
      await assert.rejects(validateSchema(logger, ajv, name, data), DRAFT_2020_MISSING)
      await assert.rejects(validateSchema(logger, ajv, name, data), later)
      await assert.rejects(validateSchema(logger, ajv, name, data), later)
    }
  } finally {
    for (const name of Object.keys(probes)) pikkuState(null, 'misc', 'schemas').delete(name)
  }
})
