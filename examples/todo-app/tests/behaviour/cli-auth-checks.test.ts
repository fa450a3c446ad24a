// The inspector checks behind PKU573, PKU574 and PKU910 of the CLI error reference, run on small source files with the inspector that `pikku all` uses (harness/inspector.ts). Kept out of
// cli-errors.test.ts so that each file stays within the suite's per-file time limit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'

test('pku574-gates-read-in-place: an exposed sessionless function whose only gate is a permissions variable, a scopes entry held in a constant, or an arrow function written in place in permissions gets the warn PKU574; permissions naming a pikkuPermission, or scopes written as a string literal, silence it', async () => {
  const head = [
    "import { pikkuSessionlessFunc, pikkuPermission } from '@pikku/core'",
    'export const isOwner = pikkuPermission(async () => true)',
    'const perms = { isOwner }',
    "const READ_SCOPE = 'todos:read'",
  ].join('\n')
  const gates: Record<string, string> = {
    variable: 'permissions: perms',
    scopeConstant: 'scopes: [READ_SCOPE]',
    inlineArrow: 'permissions: { open: async () => true }',
    named: 'permissions: { isOwner }',
    scopeLiteral: "scopes: ['todos:read']",
  }
  const warned: Record<string, string[]> = {}
  for (const [name, gate] of Object.entries(gates)) {
    const { reported } = await inspectFiles(`pku574-${name}`, {
      'probe.ts': `${head}\nexport const probe = pikkuSessionlessFunc<void, void>({ expose: true, ${gate}, func: async () => {} })\n`,
    })
    warned[name] = codes(reported).filter((c) => c.startsWith('PKU574'))
  }
  assert.deepEqual(warned, {
    variable: ['PKU574 warn'],
    scopeConstant: ['PKU574 warn'],
    inlineArrow: ['PKU574 warn'],
    named: [],
    scopeLiteral: [],
  })
})

test('pku573-group-auth-inherited: a pikkuFunc on a route of a wireHTTPRoutes group with auth: false, and none of its own, is a critical PKU573; the same route with auth: true of its own, or an inline pikkuFunc under wireHTTP with auth: false, is not reported', async () => {
  const head = [
    "import { pikkuFunc, wireHTTP, wireHTTPRoutes } from '@pikku/core'",
    "export const mine = pikkuFunc<void, string>({ func: async (_services, _data, { session }) => (session as any).userId })",
  ].join('\n')
  const files: Record<string, string> = {
    inherited: "wireHTTPRoutes({ auth: false, routes: { list: { method: 'get', route: '/mine', func: mine } } })",
    overridden: "wireHTTPRoutes({ auth: false, routes: { list: { method: 'get', route: '/mine', func: mine, auth: true } } })",
    inline: "wireHTTP({ method: 'get', route: '/inline', auth: false, func: pikkuFunc<void, string>({ func: async (_services, _data, { session }) => (session as any).userId }) })",
  }
  const found: Record<string, string[]> = {}
  for (const [name, wiring] of Object.entries(files)) {
    const { reported } = await inspectFiles(`pku573-${name}`, { 'probe.ts': `${head}\n${wiring}\n` })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU573'))
  }
  assert.deepEqual(found, { inherited: ['PKU573 critical'], overridden: [], inline: [] })
})

test('pku910-security-only: a pikkuFunc whose return type holds a Secret field is an error PKU910 only with the security lint, and is the only code reported then; a Private field from a pikkuFunc is not reported', async () => {
  const member = (fields: string) =>
    [
      "import type { Private, Secret } from '@pikku/core/classification'",
      "import { pikkuFunc } from '#pikku/function'",
      `interface TeamMember { userId: string; ${fields} }`,
      'declare function loadMember(userId: string): Promise<TeamMember>',
      'export const getMember = pikkuFunc<{ userId: string }, Readonly<TeamMember>>({',
      "  description: 'Fetch a team member',",
      '  func: async (_services, { userId }) => loadMember(userId),',
      '})',
    ].join('\n')
  const run = async (name: string, file: string, security: boolean) =>
    codes((await inspectFiles(name, { 'probe.functions.ts': file }, security ? { classificationCheck: true } : {})).reported)
  const leaking = member('email: Private<string>; apiKeyHash: Secret<string>')
  assert.deepEqual(await run('pku910-plain', leaking, false), [])
  assert.deepEqual(await run('pku910-security', leaking, true), ['PKU910 error'])
  assert.deepEqual(await run('pku910-private', member('email: Private<string>'), true), [])
})
