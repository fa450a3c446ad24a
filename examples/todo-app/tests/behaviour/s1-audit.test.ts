// Checks behind statements of the skill pages docs/skills/{functions,http,channel,ws,...}.mdx that no other file
// covers: the inspector's lint of a handler's parameters, and how the CLI ranks it by default.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inspectFiles } from './harness/inspector.js'
import { PikkuExpressServer } from '@pikku/express'
import { pikkuExpressMiddleware } from '@pikku/express-middleware'
import { pikkuState } from '@pikku/core/state'

const CLI_DIST = '../../node_modules/@pikku/cli/dist'

test('wire-not-destructured-pku411: a handler that destructures its services but takes the wire whole gets PKU411 alone, which the CLI reports as critical by default; a wire named with a leading underscore gets nothing', async () => {
  const { state } = await inspectFiles('s1-wire', {
    'a.ts': [
      "import { pikkuFunc } from '@pikku/core'",
      'export const whole = pikkuFunc<void, void>({ func: async ({ logger }, _data, wire) => { logger.info(String(wire.session)) } })',
      'export const unused = pikkuFunc<void, void>({ func: async ({ logger }, _data, _wire) => { logger.info("x") } })',
      'export const destructured = pikkuFunc<void, void>({ func: async ({ logger }, _data, { session }) => { logger.info(String(session)) } })',
      '',
    ].join('\n'),
  })
  const diagnostics = state.diagnostics as Array<{ code: string; message: string }>
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['PKU411'],
  )
  assert.match(diagnostics[0].message, /Function 'whole' does not destructure its wires parameter/)
  const { processDiagnostics } = await import(`${CLI_DIST}/src/services.js`)
  const logged: string[] = []
  const log = {
    warn: (message: string) => logged.push(`warn ${message}`),
    critical: (code: string) => logged.push(`critical ${code}`),
  }
  // No `lint` section in pikku.config.json: the CLI's defaults apply.
  processDiagnostics(diagnostics, undefined, log)
  assert.deepEqual(logged, ['critical PKU411'])
})

test('express-before-services-throws: before createSingletonServices has run, new PikkuExpressServer() succeeds but init() rejects, and pikkuExpressMiddleware with loadSchemas throws, both with "SchemaService needs to be defined to load schemas"', async () => {
  // This file boots no app, so the process has no singleton services, as an entry file has before it creates them.
  assert.equal(pikkuState(null, 'package', 'singletonServices'), null)
  const logger = { info() {}, warn() {}, error() {}, debug() {}, trace() {} } as never
  const server = new PikkuExpressServer({ port: 0, hostname: '127.0.0.1' } as never, logger)
  await assert.rejects(server.init(), { message: 'SchemaService needs to be defined to load schemas' })
  assert.throws(() => pikkuExpressMiddleware({ logger, loadSchemas: true }), { message: 'SchemaService needs to be defined to load schemas' })
})
