// Claims of the blog posts and the "Why?" essays that no other file's area covers. No server: imports and tsc runs on scratch files.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileScratch } from './harness/node-process.js'

test('core-root-no-runtime-exports: the root entry of @pikku/core 0.12.90 exports no value at run time, while @pikku/core/errors exports PikkuError and addError', async () => {
  const root: Record<string, unknown> = await import('@pikku/core')
  assert.deepEqual(
    Object.keys(root).filter((name) => name !== 'default'),
    []
  )
  const errors = await import('@pikku/core/errors')
  assert.equal(typeof errors.PikkuError, 'function')
  assert.equal(typeof errors.addError, 'function')
})

test('wire-http-disabled-ts2353: wireHTTP with disabled: true does not compile (TS2353), while the same call without it does', async () => {
  const head = [
    "import { wireHTTP } from '#pikku/http'",
    "import { health } from '../../src/functions/todos.functions.js'",
  ]
  const withFlag = [...head, "wireHTTP({ method: 'get', route: '/health-off', func: health, auth: false, disabled: true })"].join('\n')
  const withoutFlag = [...head, "wireHTTP({ method: 'get', route: '/health-off', func: health, auth: false })"].join('\n')
  const flagged = await compileScratch('p16-disabled-flag', { 'probe.ts': withFlag }, { appConfig: true })
  const lines = [...flagged.output.matchAll(/\bprobe\.ts\((\d+),\d+\): error (TS\d+)/g)].map(([, line, tsCode]) => `${line} ${tsCode}`)
  assert.deepEqual(lines, ['3 TS2353'], flagged.output)
  const plain = await compileScratch('p16-disabled-plain', { 'probe.ts': withoutFlag }, { appConfig: true })
  assert.equal(plain.code, 0, plain.output)
})

test('func-config-disabled-ts2353: a function config that sets disabled: true, next to mcp: true, does not compile (TS2353 on disabled)', async () => {
  const probe = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "export const hidden = pikkuSessionlessFunc<void, string>({ mcp: true, disabled: true, description: 'Hidden', func: async () => 'x' })",
  ].join('\n')
  const { code, output } = await compileScratch('p16-func-disabled', { 'probe.ts': probe }, { appConfig: true })
  const lines = [...output.matchAll(/\bprobe\.ts\((\d+),(\d+)\): error (TS\d+): Object literal may only specify known properties, and '(\w+)'/g)].map(
    ([, line, , tsCode, key]) => `${line} ${tsCode} ${key}`
  )
  assert.deepEqual(lines, ['2 TS2353 disabled'], output)
  assert.notEqual(code, 0)
})
