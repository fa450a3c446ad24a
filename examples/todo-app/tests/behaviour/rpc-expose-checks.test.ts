// What the inspector (the code analysis `pikku all` runs) makes of `expose: true`, for docs/rpcs/external.mdx: which
// constants get RPC metadata, and which gates silence the PKU574 warning about an exposed function nobody guards.
// Kept out of rpc.test.ts, whose running app would sit idle while the inspector works.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'

test('expose-gates-inspected: expose: true on a constant that is not exported gives no metadata; an exported exposed sessionless function with no gate gets the warn PKU574, which auth: true, or permissionsInBody: true once the config allows it, silence', async () => {
  const run = async (name: string, body: string, options: Record<string, unknown> = {}) => {
    const { reported, state } = await inspectFiles(`expose-${name}`, {
      'probe.ts': `import { pikkuSessionlessFunc } from '@pikku/core'\n${body}\n`,
    }, options)
    return { reported: codes(reported), functions: Object.keys(state.functions.meta), exposed: Object.keys(state.rpc.exposedMeta) }
  }
  const fn = (config: string) => `pikkuSessionlessFunc<void, void>({ expose: true, ${config}func: async () => {} })`
  assert.deepEqual(await run('hidden', `const hidden = ${fn('')}\nexport const use = () => hidden`), { reported: [], functions: [], exposed: [] })
  assert.deepEqual(await run('bare', `export const open = ${fn('')}`), { reported: ['PKU574 warn'], functions: ['open'], exposed: ['open'] })
  assert.deepEqual((await run('auth', `export const open = ${fn('auth: true, ')}`)).reported, [])
  // permissionsInBody: true is itself refused (critical PKU576) unless pikku.config.json allows it.
  assert.deepEqual((await run('in-body', `export const open = ${fn('permissionsInBody: true, ')}`)).reported, ['PKU576 critical'])
  assert.deepEqual((await run('in-body-allowed', `export const open = ${fn('permissionsInBody: true, ')}`, { allow: { permissionsInBody: true } })).reported, [])
})
