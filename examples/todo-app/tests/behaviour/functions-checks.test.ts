// What the code generator records about functions (docs/core-features/functions.mdx): which factories it records as
// needing a session, when `auth: false` on a route stops the build with PKU573, what it records of errors and inputs,
// and name clashes (PKU851), run with the inspector that
// `pikku all` uses (harness/inspector.ts) on small source files.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'
import { compileScratch } from './harness/node-process.js'

test('list-func-recorded-sessionless: only pikkuFunc is recorded as needing a session; pikkuListFunc, pikkuSessionlessFunc and pikkuVoidFunc are recorded as sessionless', async () => {
  const { state } = await inspectFiles('functions-sessionless', {
    'probe.functions.ts': [
      "import { pikkuFunc, pikkuListFunc, pikkuSessionlessFunc, pikkuVoidFunc } from '@pikku/core'",
      'export const mine = pikkuFunc<void, string>({ func: async () => "mine" })',
      'export const open = pikkuSessionlessFunc<void, string>({ func: async () => "open" })',
      'export const listed = pikkuListFunc<void, string>({ func: async () => ({ rows: [] }) as any })',
      'export const tick = pikkuVoidFunc({ func: async () => {} })',
    ].join('\n'),
  })
  const meta = (state as any).functions.meta
  assert.deepEqual(
    { mine: meta.mine.sessionless, open: meta.open.sessionless, listed: meta.listed.sessionless, tick: meta.tick?.sessionless },
    { mine: false, open: true, listed: true, tick: true },
  )
})

test('auth-false-session-func-pku573: a route with auth: false reports the critical PKU573 for an exported pikkuFunc and for an unexported one whose config sets override; an unexported one without override is not reported and is recorded as sessionless', async () => {
  const head = "import { pikkuFunc, wireHTTP } from '@pikku/core'"
  const body = 'func: async (_services, _data, { session }) => (session as any).userId'
  const cases: Record<string, string> = {
    exported: `export const mine = pikkuFunc<void, string>({ ${body} })`,
    override: `const mine = pikkuFunc<void, string>({ override: 'mine', ${body} })`,
    unexported: `const mine = pikkuFunc<void, string>({ ${body} })`,
  }
  const found: Record<string, string[]> = {}
  const sessionless: Record<string, unknown> = {}
  for (const [name, declaration] of Object.entries(cases)) {
    const { reported, state } = await inspectFiles(`functions-pku573-${name}`, {
      'probe.ts': `${head}\n${declaration}\nwireHTTP({ method: 'get', route: '/mine', auth: false, func: mine })\n`,
    })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU573'))
    const route = (state as any).http.meta.get['/mine']
    sessionless[name] = route ? (state as any).functions.meta[route.pikkuFuncId]?.sessionless : 'no route'
  }
  assert.deepEqual(found, { exported: ['PKU573 critical'], override: ['PKU573 critical'], unexported: [] })
  assert.equal(sessionless.unexported, true)
})

test('func-declaration-not-read: a func that names a function declared with `function`, or is written as a method, is not read: the inspector prints an uncoded "No valid \'func\' property" error, reports no code (not even PKU410 for an undestructured services parameter) and records the function with no schemas and no services; the same handler as a const arrow function is read', async () => {
  const { reported, errors, state } = await inspectFiles('functions-func-declaration', {
    'probe.functions.ts': [
      "import { pikkuSessionlessFunc } from '@pikku/core'",
      'async function handler(services: any, { text }: { text: string }) { return services.logger ? text : text }',
      'const arrow = async ({ logger }: any, { text }: { text: string }) => (logger ? text : text)',
      'export const declared = pikkuSessionlessFunc<{ text: string }, string>({ func: handler })',
      'export const method = pikkuSessionlessFunc<{ text: string }, string>({ async func(services: any, { text }) { return services.logger ? text : text } })',
      'export const viaConst = pikkuSessionlessFunc<{ text: string }, string>({ func: arrow })',
      'export const inline = pikkuSessionlessFunc<{ text: string }, string>({ func: async (services: any, { text }) => (services.logger ? text : text) })',
    ].join('\n'),
  })
  const { meta } = (state as any).functions
  assert.deepEqual(errors, ["• No valid 'func' property found for declared.", "• No valid 'func' property found for method."])
  assert.deepEqual(codes(reported), [])
  // Only the inline arrow function's undestructured services parameter is recorded for PKU410.
  const found = (state.diagnostics as Array<{ code: string; message: string }>).map((d) => `${d.code} ${d.message.split(' ').slice(0, 2).join(' ')}`)
  assert.deepEqual(found, ["PKU410 Function 'inline'"])
  assert.equal(meta.method.inputSchemaName, null)
  assert.deepEqual(meta.method.services.services, [])
  assert.equal(meta.declared.inputSchemaName, null)
  assert.equal(meta.declared.outputSchemaName, null)
  assert.deepEqual(meta.declared.services.services, [])
  assert.equal(meta.viaConst.inputSchemaName, 'ViaConstInput')
  assert.deepEqual(meta.viaConst.services.services, ['logger'])
})

test('function-errors-and-primitive-input-recorded: the errors of a function config are recorded by class name in its metadata; a bare string or number input is recorded under the type\'s own name, with no type of its own to generate a schema from, unlike an object type', async () => {
  const { reported, state } = await inspectFiles('functions-recorded-meta', {
    'probe.functions.ts': [
      "import { pikkuSessionlessFunc, NotFoundError } from '@pikku/core'",
      'export const greet = pikkuSessionlessFunc<string, string>({ errors: [NotFoundError], func: async (_s, name) => name })',
      'export const wrapped = pikkuSessionlessFunc<{ text: string }, string>({ func: async (_s, { text }) => text })',
      'export const double = pikkuSessionlessFunc<number, number>({ func: async (_s, n) => n * 2 })',
    ].join('\n'),
  })
  const { meta, typesMap } = (state as any).functions
  assert.deepEqual(codes(reported), [])
  assert.deepEqual(meta.greet.errors, ['NotFoundError'])
  assert.equal(meta.wrapped.errors, undefined)
  assert.equal(meta.greet.inputSchemaName, 'string')
  assert.equal(meta.double.inputSchemaName, 'number')
  assert.equal(meta.wrapped.inputSchemaName, 'WrappedInput')
  assert.deepEqual([...typesMap.customTypes.keys()], ['WrappedInput'])
})

test('function-name-clash-pku851: two functions exported under the same name from two files stop the build with the critical PKU851', async () => {
  const fn = "import { pikkuSessionlessFunc } from '@pikku/core'\nexport const createTodo = pikkuSessionlessFunc<void, string>({ func: async () => 'x' })\n"
  const one = await inspectFiles('functions-pku851-one', { 'a.functions.ts': fn })
  const two = await inspectFiles('functions-pku851-two', { 'a.functions.ts': fn, 'b.functions.ts': fn })
  assert.deepEqual(codes(one.reported), [])
  assert.deepEqual(codes(two.reported), ['PKU851 critical'])
})

test('scopes-by-factory: pikkuListFunc accepts scopes, like pikkuFunc; pikkuSessionlessFunc and pikkuVoidFunc refuse them at compile time', async () => {
  const probe = [
    "import { pikkuFunc, pikkuListFunc, pikkuSessionlessFunc, pikkuVoidFunc } from '#pikku/function'",
    "export const mine = pikkuFunc<void, string>({ scopes: ['todos:export'], func: async () => 'x' })",
    "export const listed = pikkuListFunc<{}, string>({ scopes: ['todos:export'], func: async () => ({ rows: [] }) as never })",
    "export const open = pikkuSessionlessFunc<void, string>({ scopes: ['todos:export'], func: async () => 'x' })",
    "export const tick = pikkuVoidFunc({ scopes: ['todos:export'], func: async () => {} })",
  ].join('\n')
  const { code, output } = await compileScratch('functions-scopes', { 'probe.ts': probe }, { appConfig: true })
  const lines = [...output.matchAll(/\bprobe\.ts\((\d+),\d+\): error (TS\d+)/g)].map(([, line, tsCode]) => `${line} ${tsCode}`)
  assert.deepEqual(lines, ['4 TS2353', '5 TS2353'], output)
  assert.notEqual(code, 0)
})
