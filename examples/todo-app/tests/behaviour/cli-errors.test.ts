// The inspector's checks behind a few PKU codes of the CLI error reference, run on small source files with the
// inspector that `pikku all` uses (harness/inspector.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inspectFiles } from './harness/inspector.js'
import { captureConsole } from './harness/core-probes.js'

const codes = (reported: Array<{ code: string; severity: string }>) => reported.map(({ code, severity }) => `${code} ${severity}`)

/** A pikkuWorkflowFunc whose body is `body`, with its input named `input` unless `param` says otherwise. */
const workflowFile = (body: string, param = 'input') =>
  [
    "import { pikkuWorkflowFunc } from '#pikku/workflow'",
    'export const probeFlow = pikkuWorkflowFunc<{ todoId: string; todoIds: string[] }, void>({',
    `  func: async (_services, ${param}, { workflow }) => {`,
    body,
    '  },',
    '})',
  ].join('\n')

const inspectWorkflow = async (name: string, body: string, param?: string) => {
  const { reported, state } = await inspectFiles(name, { 'probe.workflow.ts': workflowFile(body, param) })
  return { reported: codes(reported), registered: 'probeFlow' in state.workflows.meta, steps: state.workflows.meta.probeFlow?.steps }
}

test('pku641-refused-not-registered: an inline step, a destructured input, a while loop or a try in a pikkuWorkflowFunc is a critical PKU641 and the workflow is not registered', async () => {
  const named = "    await workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId })"
  const ok = await inspectWorkflow('pku641-ok', named)
  assert.deepEqual([ok.reported, ok.registered], [[], true])
  for (const [name, body, param] of [
    ['pku641-inline', "    await workflow.do('Check', async () => true)\n" + named],
    ['pku641-destructured', "    await workflow.do('Escalate', 'escalateTodo', { todoId })", '{ todoId }'],
    ['pku641-while', `    while (input.todoId) {\n${named}\n    }`],
    ['pku641-try', `    try {\n${named}\n    } catch {}`],
  ] as const) {
    const result = await inspectWorkflow(name, body, param)
    assert.deepEqual([name, result.reported, result.registered], [name, ['PKU641 critical'], false])
  }
})

test('pku641-sleep-bound-dropped: a workflow.sleep bound with const is left out of the plan with no diagnostic; as a statement it is a step', async () => {
  const statement = await inspectWorkflow('pku641-sleep-statement', "    await workflow.sleep('Wait', '1h')")
  assert.deepEqual([statement.reported, statement.steps?.length], [[], 1])
  const bound = await inspectWorkflow('pku641-sleep-bound', "    const waited = await workflow.sleep('Wait', '1h')")
  assert.deepEqual([bound.reported, bound.registered, bound.steps?.length], [[], true, 0])
})

const invokeFile = (line: string) =>
  [
    "import { pikkuFunc } from '#pikku/function'",
    'export const probeInvoke = pikkuFunc<{ todoId: string }, unknown>({',
    '  func: async (_services, { todoId }, wire) => {',
    '    const { rpc } = wire',
    `    ${line}`,
    '  },',
    '})',
  ].join('\n')

test('pku940-cast-critical: a cast on an rpc.invoke result or on an argument is a critical PKU940; a cast on a property of the result, inside an argument, or on wire.rpc.invoke is not reported', async () => {
  const check = async (name: string, line: string) => codes((await inspectFiles(name, { 'probe.ts': invokeFile(line) })).reported)
  assert.deepEqual(await check('pku940-plain', "return await rpc.invoke('getTodo', { todoId })"), [])
  assert.deepEqual(await check('pku940-result', "return (await rpc.invoke('getTodo', { todoId })) as unknown"), ['PKU940 critical'])
  assert.deepEqual(await check('pku940-argument', "return await rpc.invoke('getTodo', { todoId } as { todoId: string })"), ['PKU940 critical'])
  assert.deepEqual(await check('pku940-property', "return (await rpc.invoke('getTodo', { todoId })).title as string"), [])
  assert.deepEqual(await check('pku940-nested', "return await rpc.invoke('getTodo', { todoId: todoId as string })"), [])
  assert.deepEqual(await check('pku940-wire', "return (await wire.rpc.invoke('getTodo', { todoId })) as unknown"), [])
})

/**
 * The page's share-link function, with `logged` as the fields of its log line. The reference to Node's types stands in
 * for the rest of the app, which brings them into a real run: without them randomUUID() is `any`, and so is the secret.
 */
const shareLinkFile = (logged: string, before = '') =>
  [
    '/// <reference types="node" />',
    "import { randomUUID } from 'node:crypto'",
    "import { createSecretValue } from '@pikku/core/classification'",
    "import { pikkuFunc } from '#pikku/function'",
    'export const createShareLink = pikkuFunc<{ todoId: string }, { url: string }>({',
    '  func: async ({ logger }, { todoId }) => {',
    '    const token = createSecretValue(randomUUID())',
    before,
    `    logger.info({ message: 'share link created', todoId${logged} })`,
    '    return { url: `https://todo.example.com/shared/${todoId}?token=${token.reveal()}` }',
    '  },',
    '})',
  ].join('\n')

test('pku953-security-only: a revealed secret passed to logger.info is an error PKU953 only with the security lint; the fixed log line, a copy typed as plain string, or a secret of type any is not reported', async () => {
  const check = async (name: string, file: string, security: boolean) =>
    codes((await inspectFiles(name, { 'probe.ts': file }, security ? { classificationCheck: true } : {})).reported)
  assert.deepEqual(await check('pku953-leak', shareLinkFile(', token: token.reveal()'), true), ['PKU953 error'])
  assert.deepEqual(await check('pku953-no-lint', shareLinkFile(', token: token.reveal()'), false), [])
  assert.deepEqual(await check('pku953-fixed', shareLinkFile(''), true), [])
  assert.deepEqual(await check('pku953-plain-string', shareLinkFile(', token: plain', '    const plain: string = token.reveal()'), true), [])
  const anyFile = shareLinkFile(', token: loose.reveal()', "    const loose = createSecretValue(JSON.parse('\"x\"'))")
  assert.deepEqual(await check('pku953-any', anyFile, true), [])
})

test('pku342-not-raised: in a process with no CLI metadata registered, executeCLI throws a CLIError "CLI program \\"todos\\" not found" with exit code 1, not PKU342, and prints nothing first', async () => {
  const { executeCLI, CLIError } = await import('@pikku/core/cli')
  const { pikkuState } = await import('@pikku/core/state')
  assert.deepEqual(pikkuState(null, 'cli', 'meta'), { programs: {}, renderers: {} })
  let created = false
  const printed = await captureConsole(() =>
    assert.rejects(
      executeCLI({ programName: 'todos', args: ['list'], createSingletonServices: async () => ((created = true), {}) as never }),
      (error: unknown) => error instanceof CLIError && error.message === 'CLI program "todos" not found' && error.exitCode === 1,
    ),
  )
  assert.equal(created, false)
  assert.deepEqual(printed, [])
})

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

test('pku679-func-form: a pikkuScenario whose func is a function expression, or an arrow function kept in a const and passed by name, is a critical PKU679; the same body as an arrow function written in place is not reported', async () => {
  const body = "await scenario.then('Alice sees it done', 'seesTodoDone', { todoId: 't1' })"
  const forms: Record<string, string> = {
    inPlace: `export const probe = pikkuScenario<void, void>({ description: 'probe', func: async (_services, _data, { scenario }) => { ${body} } })`,
    functionExpression: `export const probe = pikkuScenario<void, void>({ description: 'probe', func: async function (_services, _data, { scenario }) { ${body} } })`,
    constant: `const run = async (_services: any, _data: void, { scenario }: any) => { ${body} }\nexport const probe = pikkuScenario<void, void>({ description: 'probe', func: run })`,
  }
  const found: Record<string, string[]> = {}
  for (const [name, source] of Object.entries(forms)) {
    const { reported } = await inspectFiles(`pku679-${name}`, {
      'probe.scenario.ts': `import { pikkuScenario } from '#pikku/scenarios'\n${source}\n`,
    })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU679'))
  }
  assert.deepEqual(found, { inPlace: [], functionExpression: ['PKU679 critical'], constant: ['PKU679 critical'] })
})

test('pku146-model-as-written: an agent model with no "/" that is not a key of modelAliases is a critical PKU146, even a constant holding "openai/gpt-4o-mini"; "openai/gpt-4o-mini" written out, or an alias the table has, passes', async () => {
  const agent = (model: string) =>
    [
      "import { pikkuAgent } from '#pikku/agent'",
      "const DEFAULT_MODEL = 'openai/gpt-4o-mini'",
      `export const probeAgent = pikkuAgent({ name: 'probe-agent', description: 'probe', goal: 'probe', model: ${model}, tools: [] })`,
    ].join('\n')
  const cases: Record<string, [string, Record<string, string>]> = {
    alias: ["'fast'", {}],
    constant: ['DEFAULT_MODEL', {}],
    written: ["'openai/gpt-4o-mini'", {}],
    configured: ["'fast'", { fast: 'openai/gpt-4o-mini' }],
    otherCase: ["'Fast'", { fast: 'openai/gpt-4o-mini' }],
  }
  const found: Record<string, string[]> = {}
  for (const [name, [model, modelAliases]] of Object.entries(cases)) {
    const { reported } = await inspectFiles(`pku146-${name}`, { 'probe.agent.ts': agent(model) }, { modelAliases })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU146'))
  }
  assert.deepEqual(found, {
    alias: ['PKU146 critical'],
    constant: ['PKU146 critical'],
    written: [],
    configured: [],
    otherCase: ['PKU146 critical'],
  })
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
