// The to-do assistant (src/agents/todo-assistant.agent.ts) through the app's routes (src/agents/assistant.http.ts),
// with the services src/agents/start-assistant.ts gives it: VercelAgentRunner from @pikku/ai-vercel, the app's
// InMemoryAgentStorage and core's InMemoryAgentRunStateService. The provider map points 'openai' at a scripted
// model (harness/model.ts), so the AI SDK and Pikku's agent loop run for real and nothing reaches the network.
import { after, before, beforeEach, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { VercelAgentRunner } from '@pikku/ai-vercel'
import { InMemoryAgentRunStateService, PikkuSessionService } from '@pikku/core/services'
import { rpcService } from '@pikku/core/rpc'
import { pikkuState } from '@pikku/core/state'
import { LocalMetaService } from '@pikku/core/services/local-meta'
import { InMemoryAgentStorage } from '../../src/agents/in-memory-agent-storage.js'
import { rpcFor, startSessionApp, type SessionApp } from './harness/workflows.js'
import { ScriptedModel } from './harness/model.js'
import { collectLogs } from './harness/app.js'
import { codes, inspectFiles } from './harness/inspector.js'

const model = new ScriptedModel()
const storage = new InMemoryAgentStorage()
const runner = new VercelAgentRunner({ openai: model.provider })
let app: SessionApp
let services: any

before(async () => {
  app = await startSessionApp({ agentRunner: runner, agentStorage: storage, agentRunState: new InMemoryAgentRunStateService() })
  services = app.services
})
after(() => app.stop())
beforeEach(() => model.reset())

const ask = (userId: string, message: string, threadId: string) =>
  app.call(userId, 'POST', '/assistant/messages', { message, threadId })
const answer = (userId: string, runId: string, toolCallId: string, approved: boolean) =>
  app.call(userId, 'POST', '/assistant/approvals', { runId, toolCallId, approved })
const newTodo = (ownerId: string, title: string) => services.todoStore.create({ ownerId, title, done: false })

/** The events of a server-sent-events body, parsed from its `data:` lines. */
const sseEvents = async (response: Response) =>
  (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)))

/** The CUSTOM pikku:approval-request event a streamed run sends when it stops for approval, if any. */
const approvalRequest = (events: any[]) => events.find((e) => e.type === 'CUSTOM' && e.name === 'pikku:approval-request')

/**
 * Runs `fn` with fields of the registered todoAssistant replaced (`change` gets the agent and returns the new values),
 * then puts the old values back, whether `fn` passed or threw.
 */
const withAgentFields = async (change: (agent: any) => Record<string, unknown>, fn: () => Promise<void>) => {
  const agent: any = pikkuState(null, 'agent', 'agents').get('todoAssistant')
  const values = change(agent)
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, agent[key]]))
  Object.assign(agent, values)
  try {
    await fn()
  } finally {
    Object.assign(agent, saved)
  }
}

const stream = async (userId: string, path: string, body: unknown) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await app.token(userId)}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  })

test('tool-call-as-user: a tool the model picks runs as the signed-in user, and its result goes back to the model', async () => {
  await newTodo('alice', 'Dentist')
  await newTodo('bob', 'Bob only')
  model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'You have one to-do: Dentist.' })
  const response = await ask('alice', 'What is on my list?', 'alice-list')
  assert.equal(response.status, 200)
  const turn = await response.json()
  assert.equal(turn.reply, 'You have one to-do: Dentist.')
  assert.deepEqual(turn.pendingApprovals, [])
  assert.equal(model.calls.length, 2)
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.equal(toolMessage.role, 'tool')
  const titles = toolMessage.content[0].output.value.todos.map((t: any) => t.title)
  assert.deepEqual(titles, ['Dentist'])
})

test('system-prompt-order: role, personality and goal open the system prompt in that order, and the middleware adds the date', async () => {
  model.answer({ text: 'Hi.' })
  await ask('alice', 'Hello', 'alice-hello')
  const system = model.calls[0].system
  const role = system.indexOf('You are the assistant inside a team to-do app.')
  const personality = system.indexOf('Brief and matter-of-fact.')
  const goal = system.indexOf('Help the user list, add, change and delete their own to-dos.')
  assert.equal(role, 0)
  assert.ok(role < personality && personality < goal)
  assert.ok(system.includes(`Today is ${new Date().toISOString().slice(0, 10)}.`))
})

test('tools-offered: the model is offered the four listed functions and the sub-agent; without a metaService each function tool is described by its name', async () => {
  model.answer({ text: 'Hi.' })
  await ask('alice', 'Hello', 'alice-tools')
  const tools = model.calls[0].tools
  assert.deepEqual(
    tools.map((t) => t.name),
    ['listTodos', 'createTodo', 'updateTodo', 'deleteTodoWithApproval', 'dayPlanner'],
  )
  assert.deepEqual(tools.slice(0, 4).map((t) => t.description), ['listTodos', 'createTodo', 'updateTodo', 'deleteTodoWithApproval'])
  const planner = tools[4]
  assert.equal(planner.description, "Orders the user's open to-dos into a plan for today")
  assert.deepEqual(Object.keys((planner.inputSchema as any).properties).sort(), ['message', 'session'])
})

test('tool-refs-codes: code generation keeps an identifier or ref(\'…\') with a literal; a quoted name or an identifier it cannot follow is PKU124, an unknown function PKU153, an unknown namespace PKU152; a property read or ref of a variable is dropped with no code, and a wireRemoteAddon name is not checked', async () => {
  // One agent per kind of entry, in one file, through the inspector that `pikku all` runs.
  const entries: Record<string, string> = {
    ident: 'probeList',
    refLiteral: "ref('probeList')",
    quoted: "'probeList'",
    unfollowed: 'mystery',
    unknown: "ref('nope')",
    noNamespace: "ref('zz:fn')",
    propertyRead: 'probeTools.probeList',
    refVariable: 'ref(toolName)',
    remoteAddon: "ref('remo:anything')",
  }
  const text = [
    "import { pikkuAgent } from '#pikku/agent'",
    "import { pikkuFunc, ref } from '#pikku/function'",
    "import { wireRemoteAddon } from '@pikku/core/addon'",
    "wireRemoteAddon({ name: 'remo', package: '@probe/remote-addon', serverUrl: 'https://remo.example.com' })",
    "export const probeList = pikkuFunc({ description: 'List', func: async () => ({ n: 1 }) })",
    'export const probeTools = { probeList }',
    "const toolName = 'probeList'",
    'declare const mystery: any',
    ...Object.entries(entries).map(
      ([name, tool]) => `export const ${name} = pikkuAgent({ name: '${name}', description: 'p', goal: 'p', model: 'openai/gpt-4o-mini', tools: [${tool}] })`,
    ),
  ].join('\n')
  const { reported, state } = await inspectFiles('tool-refs', { 'probe.agent.ts': text })
  assert.deepEqual(codes(reported).filter((c) => /^PKU1/.test(c)).sort(), ['PKU124 critical', 'PKU124 critical', 'PKU152 critical', 'PKU153 critical'])
  const toolsOf = (name: string) => (state as any).agents.agentsMeta[name]?.tools
  assert.deepEqual([toolsOf('ident'), toolsOf('refLiteral'), toolsOf('remoteAddon')], [['probeList'], ['probeList'], ['remo:anything']])
  // Reported, and kept out of the tools.
  assert.deepEqual([toolsOf('quoted'), toolsOf('unfollowed')], [undefined, undefined])
  // No code at all, and the agent is left without the tool.
  assert.deepEqual([toolsOf('propertyRead'), toolsOf('refVariable')], [undefined, undefined])
})

test('tools-described-with-meta-service: with a LocalMetaService over .pikku, each tool is offered with its function description', async () => {
  services.metaService = new LocalMetaService(fileURLToPath(new URL('../../.pikku', import.meta.url)))
  try {
    model.answer({ text: 'Hi.' })
    await ask('alice', 'Hello', 'alice-described')
    const described = Object.fromEntries(model.calls[0].tools.map((t) => [t.name, t.description]))
    assert.equal(described.deleteTodoWithApproval, "Delete one of the user's to-dos. The user is asked to approve every deletion first.")
    assert.notEqual(described.listTodos, 'listTodos')
  } finally {
    delete services.metaService
  }
})

test('tool-no-description-no-input: with a LocalMetaService, a listed function with no description is offered under its bare name, and one with no input gets an empty object schema', async () => {
  // dailyDigest (src/functions/digest.functions.ts) has neither a description nor an input; listed for this test only.
  const meta = (pikkuState(null, 'agent', 'agentsMeta') as any).todoAssistant
  const tools = meta.tools
  meta.tools = [...tools, 'dailyDigest']
  services.metaService = new LocalMetaService(fileURLToPath(new URL('../../.pikku', import.meta.url)))
  try {
    model.answer({ text: 'Hi.' })
    await ask('alice', 'Hello', 'alice-undescribed')
    const digest = model.calls[0].tools.find((t) => t.name === 'dailyDigest')!
    assert.equal(digest.description, 'dailyDigest')
    const schema = digest.inputSchema as { type: string; properties: object }
    assert.equal(schema.type, 'object')
    assert.deepEqual(schema.properties, {})
  } finally {
    meta.tools = tools
    delete services.metaService
  }
})

test('addon-tool-not-described: with a LocalMetaService over the app\'s .pikku, an addon function listed as a tool is still described by its ref, not by its description', async () => {
  // todoAssistant is given the chat addon's postToChat as a tool for this test only, as ref('chat:postToChat') records it.
  const meta = (pikkuState(null, 'agent', 'agentsMeta') as any).todoAssistant
  const tools = meta.tools
  meta.tools = [...tools, 'chat:postToChat']
  services.metaService = new LocalMetaService(fileURLToPath(new URL('../../.pikku', import.meta.url)))
  try {
    model.answer({ text: 'Hi.' })
    await ask('alice', 'Hello', 'alice-addon-tool')
    const described = Object.fromEntries(model.calls[0].tools.map((t) => [t.name, t.description]))
    // The addon's description is 'Post a message to the team chat'; the app's metadata does not hold the addon's functions.
    assert.equal(described.chat__postToChat, 'chat:postToChat')
    assert.equal(described.deleteTodoWithApproval, "Delete one of the user's to-dos. The user is asked to approve every deletion first.")
  } finally {
    meta.tools = tools
    delete services.metaService
  }
})

test('tool-call-no-http-middleware: a tool call does not run the app\'s \'*\' addHTTPMiddleware group, which the same function behind its HTTP route does', async () => {
  // requestLogger (src/middleware.ts), in the '*' group, logs "<wireType> <functionId> took …" for each call it wraps.
  const info = collectLogs(services, 'info')
  try {
    await newTodo('alice', 'Logged?')
    model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'Listed.' })
    assert.equal((await ask('alice', 'What is on my list?', 'alice-no-http-mw')).status, 200)
    // The tool ran (its result went back to the model), yet only the assistant's own route was logged.
    assert.equal(model.calls.length, 2)
    assert.ok(info.lines.some((line) => /^http askAssistant took/.test(line)), info.lines.join('\n'))
    // (The agent's own toolAudit middleware logs "agent called listTodos …"; requestLogger would add "… listTodos took".)
    assert.ok(info.lines.some((line) => line.startsWith('agent called listTodos')), info.lines.join('\n'))
    assert.ok(!info.lines.some((line) => / listTodos took/.test(line)), info.lines.join('\n'))
    assert.equal((await app.call('alice', 'GET', '/todos')).status, 200)
    assert.ok(info.lines.some((line) => /^http listTodos took/.test(line)), info.lines.join('\n'))
  } finally {
    info.restore()
  }
})

test('tool-permission-refused: a tool call on another user\'s to-do is refused by its permission, the model is told it failed, and the run still answers', async () => {
  const bobs = await newTodo('bob', 'Bob\'s chore')
  model.answer({ toolCalls: [{ toolName: 'updateTodo', args: { todoId: bobs.todoId, done: true } }] }, { text: 'I could not change that one.' })
  const turn = await (await ask('alice', 'Mark Bob\'s chore done', 'alice-refused')).json()
  assert.equal(turn.reply, 'I could not change that one.')
  assert.equal((await services.todoStore.get(bobs.todoId)).done, false)
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.deepEqual(toolMessage.content[0].output, { type: 'json', value: 'Error: Tool execution failed' })
})

test('tool-error-streamed: on a streamed run a failing tool is handed to the model as "Error: " and the thrown message', async () => {
  const bobs = await newTodo('bob', 'Bob\'s streamed chore')
  model.answer({ toolCalls: [{ toolName: 'updateTodo', args: { todoId: bobs.todoId, done: true } }] }, { text: 'I could not change that one.' })
  const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Mark Bob\'s chore done', threadId: 'alice-stream-refused' }))
  assert.equal(events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'I could not change that one.')
  assert.equal((await services.todoStore.get(bobs.todoId)).done, false)
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.equal(toolMessage.role, 'tool')
  assert.deepEqual(toolMessage.content[0].output, { type: 'json', value: 'Error: Permission denied' })
})

test('tool-scope-not-filtered: a tool whose function requires a scope the session lacks is still offered, and calling it fails with MissingScopeError', async () => {
  // agent-prepare.ts in core 0.12.90 filters the offered tools by their permissions only. listTodos declares no
  // scopes, so the test gives its registered config one for the length of the test (the runner reads it first).
  const listTodos = pikkuState(null, 'function', 'functions').get('listTodos')!
  const before = listTodos.scopes
  listTodos.scopes = ['todos:read']
  try {
    model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'I cannot read your list.' })
    await sseEvents(await stream('alice', '/assistant/stream', { message: 'What is on my list?', threadId: 'alice-scoped-tool' }))
    assert.ok(model.calls[0].tools.some((t) => t.name === 'listTodos'))
    const toolMessage: any = model.calls[1].prompt.at(-1)
    assert.deepEqual(toolMessage.content[0].output, { type: 'json', value: 'Error: Missing required scope: todos:read' })
  } finally {
    if (before === undefined) delete listTodos.scopes
    else listTodos.scopes = before
  }
})

test('tool-rpc-missing: a listed tool with no function in the registered metadata stops the run before the model is called: the reply is empty, the run is recorded suspended with reason rpc-missing, and a streamed run sends a pikku:suspended event, then RUN_FINISHED', async () => {
  // Stands in for stale code generation: the agent's metadata lists a tool the RPC metadata does not have.
  const meta = (pikkuState(null, 'agent', 'agentsMeta') as any).todoAssistant
  const tools = meta.tools
  meta.tools = [...tools, 'archiveTodo']
  try {
    const response = await ask('alice', 'Hello', 'alice-rpc-missing')
    assert.equal(response.status, 200)
    const turn = await response.json()
    assert.equal(turn.reply, '')
    assert.deepEqual(turn.pendingApprovals, [])
    assert.equal(model.calls.length, 0)
    const run = await services.agentRunState.getRun(turn.runId)
    assert.equal(run.status, 'suspended')
    assert.equal(run.suspendReason, 'rpc-missing')
    assert.deepEqual(run.missingRpcs, ['archiveTodo'])

    // core 0.12.90 sends done on this path without closing the channel, so the body is read only up to RUN_FINISHED.
    const body = (await stream('alice', '/assistant/stream', { message: 'Hello', threadId: 'alice-rpc-missing-stream' })).body!
    const reader = body.pipeThrough(new TextDecoderStream()).getReader()
    const events: any[] = []
    let buffered = ''
    while (!events.some((e) => e.type === 'RUN_FINISHED')) {
      const { value, done } = await reader.read()
      if (done) break
      buffered += value
      const lines = buffered.split('\n')
      buffered = lines.pop()!
      for (const line of lines) if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)))
    }
    await reader.cancel()
    assert.ok(events.some((e) => e.type === 'RUN_FINISHED'))
    const suspended = events.find((e) => e.type === 'CUSTOM' && e.name === 'pikku:suspended')
    assert.deepEqual(suspended?.value, { reason: 'rpc-missing', missingRpcs: ['archiveTodo'] })
    assert.ok(!events.some((e) => e.type === 'TEXT_MESSAGE_CONTENT'))
    assert.equal(model.calls.length, 0)
  } finally {
    meta.tools = tools
  }
})

test('approval-suspends: a call of an approvalRequired function stops the run with a pending approval carrying the description', async () => {
  const todo = await newTodo('alice', 'Old plan')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Delete the old plan', 'alice-approval')).json()
  assert.equal(turn.reply, '')
  assert.equal(turn.pendingApprovals.length, 1)
  const [pending] = turn.pendingApprovals
  assert.equal(pending.toolName, 'deleteTodoWithApproval')
  assert.deepEqual(pending.args, { todoId: todo.todoId })
  assert.equal(pending.reason, 'Delete the to-do "Old plan"?')
  assert.equal(pending.runId, turn.runId)
  assert.equal(typeof pending.toolCallId, 'string')
  assert.ok(pending.toolCallId.length > 0)
  assert.ok(await services.todoStore.get(todo.todoId), 'nothing is deleted before the answer')
})

/** An RPC client for `userId` whose wire has a channel, and the events the channel is sent, for rpc.agent.stream and resume. */
const channelRpc = (userId: string) => {
  const events: any[] = []
  const channel = {
    channelId: `channel-${userId}`,
    openingData: undefined,
    state: undefined,
    send: (event: any) => void events.push(event),
    sendBinary: () => {},
    close: () => {},
    setState: () => {},
    getState: () => undefined,
    clearState: () => {},
    remote: async () => undefined,
  }
  const sessionService = new PikkuSessionService()
  sessionService.setInitial({ userId })
  return { rpc: rpcService.getContextRPCService(services, { channel } as never, { sessionService }) as any, events }
}

/** An RPC client for `userId` whose wire has no channel. */
const sessionRpc = (userId: string) => {
  const sessionService = new PikkuSessionService()
  sessionService.setInitial({ userId })
  return rpcService.getContextRPCService(services, {}, { sessionService }) as any
}

test('approval-status-suspended: a run that stops for approval returns status "suspended" and is saved so; approve returns the same shape, so the run can stop again', async () => {
  const first = await newTodo('alice', 'First suspended')
  const second = await newTodo('alice', 'Second suspended')
  const rpc = sessionRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: first.todoId } }] })
  const run = await rpc.agent.run('todoAssistant', { message: 'Delete the first', threadId: 'alice-status', resourceId: 'alice' })
  assert.equal(run.status, 'suspended')
  assert.equal((await services.agentRunState.getRun(run.runId)).status, 'suspended')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: second.todoId } }] })
  const again = await rpc.agent.approve(run.runId, [{ toolCallId: run.pendingApprovals[0].toolCallId, approved: true }], 'todoAssistant')
  assert.equal(await services.todoStore.get(first.todoId), undefined)
  assert.equal(again.status, 'suspended')
  assert.equal(again.runId, run.runId)
  assert.equal(again.pendingApprovals.length, 1)
  assert.equal(again.pendingApprovals[0].reason, 'Delete the to-do "Second suspended"?')
  assert.ok(await services.todoStore.get(second.todoId))
})

test('approval-description-before-permission: the description is written for a to-do the user may not delete, since it runs before the permission guard', async () => {
  const bobs = await newTodo('bob', 'Bob\'s secret')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: bobs.todoId } }] })
  const turn = await (await ask('alice', 'Delete Bob\'s secret', 'alice-description-first')).json()
  assert.equal(turn.pendingApprovals[0].reason, 'Delete the to-do "Bob\'s secret"?')
})

test('approval-flag-ignored-by-rpc: a function with approvalRequired called through RPC runs at once, without asking', async () => {
  const todo = await newTodo('alice', 'Direct delete')
  await rpcService.getContextRPCService(services, { session: { userId: 'alice' } } as never, false).invoke('deleteTodoWithApproval', { todoId: todo.todoId })
  assert.equal(await services.todoStore.get(todo.todoId), undefined)
})

test('approval-wrong-agent: approve naming another agent than the run\'s is refused with "Run … belongs to agent …", and the tool does not run', async () => {
  const todo = await newTodo('alice', 'Wrong agent')
  const rpc = sessionRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const run = await rpc.agent.run('todoAssistant', { message: 'Delete it', threadId: 'alice-wrong-agent', resourceId: 'alice' })
  await assert.rejects(rpc.agent.approve(run.runId, [{ toolCallId: run.pendingApprovals[0].toolCallId, approved: true }], 'dayPlanner'), {
    message: `Run ${run.runId} belongs to agent 'todoAssistant', not 'dayPlanner'`,
  })
  assert.ok(await services.todoStore.get(todo.todoId))
})

test('approval-race-one-wins: two answers to one request that race: exactly one runs the tool, the other gets "already resolved by another caller"', async () => {
  const todo = await newTodo('alice', 'Raced')
  const rpc = sessionRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const run = await rpc.agent.run('todoAssistant', { message: 'Delete raced', threadId: 'alice-race', resourceId: 'alice' })
  model.answer({ text: 'Deleted.' }, { text: 'Deleted.' })
  const approvals = [{ toolCallId: run.pendingApprovals[0].toolCallId, approved: true }]
  // Both calls start before either has claimed the request, so both pass the status check.
  const settled = await Promise.allSettled([
    rpc.agent.approve(run.runId, approvals, 'todoAssistant'),
    rpc.agent.approve(run.runId, approvals, 'todoAssistant'),
  ])
  assert.deepEqual(settled.map((s) => s.status).sort(), ['fulfilled', 'rejected'])
  const lost: any = settled.find((s) => s.status === 'rejected')
  assert.equal(lost.reason.message, `Approvals for run ${run.runId} were already resolved by another caller`)
  assert.equal(await services.todoStore.get(todo.todoId), undefined)
  assert.equal(model.calls.length, 2, 'the model is called again once')
})

test('approval-resume-twice: a second answer through rpc.agent.resume fails with "No pending approval for toolCallId … on run …"', async () => {
  const todo = await newTodo('alice', 'Resumed twice')
  const { rpc, events } = channelRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  await rpc.agent.stream('todoAssistant', { message: 'Delete it', threadId: 'alice-resume-twice', resourceId: 'alice' })
  const { runId, toolCallId } = approvalRequest(events).value
  model.answer({ text: 'Deleted.' })
  await rpc.agent.resume(runId, { toolCallId, approved: true })
  assert.equal(await services.todoStore.get(todo.todoId), undefined)
  await assert.rejects(rpc.agent.resume(runId, { toolCallId, approved: true }), {
    message: `No pending approval for toolCallId ${toolCallId} on run ${runId}`,
  })
  assert.equal(model.calls.length, 2)
})

test('resume-without-runner-takes-approval: without an agentRunner, approve fails before taking the request, but resume takes it first: the tool has not run, and the request can no longer be answered', async () => {
  const todo = await newTodo('alice', 'Resumed without runner')
  const { rpc, events } = channelRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  await rpc.agent.stream('todoAssistant', { message: 'Delete it', threadId: 'alice-resume-no-runner', resourceId: 'alice' })
  const { runId, toolCallId } = approvalRequest(events).value
  delete services.agentRunner
  try {
    await assert.rejects(rpc.agent.approve(runId, [{ toolCallId, approved: true }], 'todoAssistant'), { name: 'AIProviderNotConfiguredError' })
    assert.deepEqual((await services.agentRunState.getRun(runId)).pendingApprovals.map((p: any) => p.toolCallId), [toolCallId])
    await assert.rejects(rpc.agent.resume(runId, { toolCallId, approved: true }), { name: 'AIProviderNotConfiguredError' })
  } finally {
    services.agentRunner = runner
  }
  assert.ok(await services.todoStore.get(todo.todoId), 'the tool did not run')
  const run = await services.agentRunState.getRun(runId)
  assert.equal(run.status, 'suspended')
  assert.deepEqual(run.pendingApprovals, [])
  await assert.rejects(rpc.agent.resume(runId, { toolCallId, approved: true }), {
    message: `No pending approval for toolCallId ${toolCallId} on run ${runId}`,
  })
  await assert.rejects(rpc.agent.approve(runId, [{ toolCallId, approved: true }], 'todoAssistant'), {
    message: `Approvals for run ${runId} were already resolved by another caller`,
  })
  assert.ok(await services.todoStore.get(todo.todoId))
  assert.equal(model.calls.length, 1)
})

test('approval-resume-waits-for-all: with two requests in one step, the streaming resume continues only once both are answered', async () => {
  const first = await newTodo('alice', 'First resumed')
  const second = await newTodo('alice', 'Second resumed')
  const { rpc, events } = channelRpc('alice')
  model.answer({
    toolCalls: [
      { toolName: 'deleteTodoWithApproval', args: { todoId: first.todoId } },
      { toolName: 'deleteTodoWithApproval', args: { todoId: second.todoId } },
    ],
  })
  await rpc.agent.stream('todoAssistant', { message: 'Delete both', threadId: 'alice-resume-both', resourceId: 'alice' })
  const requests = events.filter((e) => e.type === 'CUSTOM' && e.name === 'pikku:approval-request').map((e) => e.value)
  assert.equal(requests.length, 2)
  model.answer({ text: 'Both deleted.' })
  await rpc.agent.resume(requests[0].runId, { toolCallId: requests[0].toolCallId, approved: true })
  assert.equal(model.calls.length, 1, 'the model is not called after the first answer')
  assert.equal((await services.agentRunState.getRun(requests[0].runId)).status, 'suspended')
  await rpc.agent.resume(requests[1].runId, { toolCallId: requests[1].toolCallId, approved: true })
  assert.equal(model.calls.length, 2)
  assert.equal(await services.todoStore.get(first.todoId), undefined)
  assert.equal(await services.todoStore.get(second.todoId), undefined)
})

test('approval-policy-all-and-false: requiresToolApproval "all" asks before a function tool but not before the sub-agent; false never asks, even for approvalRequired', async () => {
  const { rpc, events } = channelRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'p' } }] }, { text: JSON.stringify({ summary: 'Free day.', steps: [] }) }, { text: 'Planned.' })
  await rpc.agent.stream('todoAssistant', { message: 'Plan', threadId: 'alice-policy-all-sub', resourceId: 'alice' }, { requiresToolApproval: 'all' })
  assert.equal(approvalRequest(events), undefined, 'the sub-agent call is not stopped')
  assert.equal(model.calls.length, 3)
  model.reset()
  events.length = 0
  model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] })
  await rpc.agent.stream('todoAssistant', { message: 'List', threadId: 'alice-policy-all-fn', resourceId: 'alice' }, { requiresToolApproval: 'all' })
  assert.equal(approvalRequest(events)?.value.toolName, 'listTodos')
  model.reset()
  events.length = 0
  const todo = await newTodo('alice', 'Never asked')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] }, { text: 'Deleted.' })
  await rpc.agent.stream('todoAssistant', { message: 'Delete it', threadId: 'alice-policy-false', resourceId: 'alice' }, { requiresToolApproval: false })
  assert.equal(approvalRequest(events), undefined)
  assert.equal(await services.todoStore.get(todo.todoId), undefined)
})

test('approval-step-text-not-stored: text the model writes in the step that stops for approval is returned as the reply, but the thread stores only the tool call, so neither a later read of the thread nor the model after approval sees it', async () => {
  const todo = await newTodo('alice', 'Spare plan')
  const said = 'I will delete "Spare plan" once you approve.'
  model.answer({ text: said, toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Delete the spare plan', 'alice-approval-text')).json()
  assert.equal(turn.reply, said)
  assert.equal(turn.pendingApprovals.length, 1)
  const stored: any[] = await storage.getMessages('alice-approval-text')
  // The user's message, an assistant message with no content (the finished steps, none here) and the tool call.
  assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'assistant'])
  assert.equal(stored[1].content, undefined)
  assert.deepEqual(stored[2].toolCalls.map((c: any) => c.name), ['deleteTodoWithApproval'])
  assert.ok(!JSON.stringify(stored).includes(said), 'the text is in no stored message')
  model.answer({ text: 'Deleted.' })
  assert.equal((await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)).status, 200)
  // The continued run sends the model the stored thread: the tool call and its result, without the text.
  assert.ok(!model.calls[1].text.includes(said))
  assert.ok(!JSON.stringify(await storage.getMessages('alice-approval-text')).includes(said))
})

test('approval-other-user-403: another user answering the approval gets 403 "Not authorized to access this run"', async () => {
  const todo = await newTodo('alice', 'Guarded')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Delete it', 'alice-guarded')).json()
  const response = await answer('bob', turn.runId, turn.pendingApprovals[0].toolCallId, true)
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Not authorized to access this run')
  assert.ok(await services.todoStore.get(todo.todoId))
})

test('approval-other-user-streamed: another user answering through the streaming resume route gets 200 with one error event, and the tool does not run', async () => {
  const todo = await newTodo('alice', 'Guarded stream')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Delete it', threadId: 'alice-guarded-stream' }))
  const request = approvalRequest(events)
  const { runId, toolCallId } = request.value
  const response = await stream('bob', '/assistant/resume', { runId, toolCallId, approved: true })
  assert.equal(response.status, 200)
  assert.deepEqual(await sseEvents(response), [
    { type: 'error', errorText: 'The client does not have permission to access the requested resource.' },
    { type: 'done' },
  ])
  assert.ok(await services.todoStore.get(todo.todoId))
})

test('approval-approved-runs-tool: an approved call runs the tool and the run continues; a second answer is refused', async () => {
  const todo = await newTodo('alice', 'Obsolete')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Delete obsolete', 'alice-approve')).json()
  model.answer({ text: 'Deleted "Obsolete".' })
  const approved = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
  assert.equal(approved.status, 200)
  const after = await approved.json()
  assert.equal(after.runId, turn.runId)
  assert.equal(after.reply, 'Deleted "Obsolete".')
  assert.deepEqual(after.pendingApprovals, [])
  assert.equal(await services.todoStore.get(todo.todoId), undefined)
  // The model is called again with the approved tool's result as the last message.
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.equal(toolMessage.role, 'tool')
  assert.equal(toolMessage.content[0].type, 'tool-result')
  assert.equal(toolMessage.content[0].toolName, 'deleteTodoWithApproval')
  assert.equal(toolMessage.content[0].toolCallId, turn.pendingApprovals[0].toolCallId)

  const again = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
  assert.equal(again.status, 500)
  assert.equal((await again.json()).message, `Run ${turn.runId} is not suspended (status: completed)`)
})

test('approval-two-pending-one-answer: answering one of two approvals continues the run; the other is never run, and both answers in one approve run both', async () => {
  const first = await newTodo('alice', 'First to go')
  const second = await newTodo('alice', 'Second to go')
  const deleteBoth = {
    toolCalls: [
      { toolName: 'deleteTodoWithApproval', args: { todoId: first.todoId } },
      { toolName: 'deleteTodoWithApproval', args: { todoId: second.todoId } },
    ],
  }
  model.answer(deleteBoth)
  const turn = await (await ask('alice', 'Delete both', 'alice-approve-two')).json()
  assert.equal(turn.pendingApprovals.length, 2)
  model.answer({ text: 'Done.' })
  const one = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
  assert.equal(one.status, 200)
  assert.deepEqual(await one.json(), { runId: turn.runId, reply: 'Done.', pendingApprovals: [] })
  assert.equal(model.calls.length, 2, 'the model was called again after the first answer')
  assert.equal(await services.todoStore.get(first.todoId), undefined)
  assert.ok(await services.todoStore.get(second.todoId), 'the second call never ran')
  // The run is over, so the answer to the second request is refused.
  const two = await answer('alice', turn.runId, turn.pendingApprovals[1].toolCallId, true)
  assert.equal(two.status, 500)
  assert.equal((await two.json()).message, `Run ${turn.runId} is not suspended (status: completed)`)

  // Both decisions in one approve call run both tools.
  const third = await newTodo('alice', 'Third to go')
  const fourth = await newTodo('alice', 'Fourth to go')
  model.reset()
  model.answer({
    toolCalls: [
      { toolName: 'deleteTodoWithApproval', args: { todoId: third.todoId } },
      { toolName: 'deleteTodoWithApproval', args: { todoId: fourth.todoId } },
    ],
  })
  const sessionService = new PikkuSessionService()
  sessionService.setInitial({ userId: 'alice' })
  const rpc: any = rpcService.getContextRPCService(services, {}, { sessionService })
  const suspended = await rpc.agent.run('todoAssistant', { message: 'Delete both', threadId: 'alice-approve-both', resourceId: 'alice' })
  model.answer({ text: 'Both done.' })
  const resumed = await rpc.agent.approve(
    suspended.runId,
    suspended.pendingApprovals.map((p: { toolCallId: string }) => ({ toolCallId: p.toolCallId, approved: true })),
    'todoAssistant',
  )
  assert.equal(resumed.result, 'Both done.')
  assert.equal(await services.todoStore.get(third.todoId), undefined)
  assert.equal(await services.todoStore.get(fourth.todoId), undefined)
})

test('approval-unknown-id-already-resolved: an answer whose toolCallId is not pending gets the "already resolved by another caller" error, and the tool does not run', async () => {
  const todo = await newTodo('alice', 'Mistyped answer')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Delete mistyped', 'alice-mistyped')).json()
  const response = await answer('alice', turn.runId, 'not-a-tool-call-id', true)
  assert.equal(response.status, 500)
  assert.equal((await response.json()).message, `Approvals for run ${turn.runId} were already resolved by another caller`)
  assert.ok(await services.todoStore.get(todo.todoId))
})

test('approval-other-run-tool-call-id: approve for one run with a toolCallId pending on another user\'s run clears that request and continues the first run; neither tool runs, and the other run stays suspended with nothing to answer', async () => {
  const alices = await newTodo('alice', 'Alice\'s draft')
  const bobs = await newTodo('bob', 'Bob\'s draft')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: alices.todoId } }] })
  const aliceTurn = await (await ask('alice', 'Delete my draft', 'alice-cross-run')).json()
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: bobs.todoId } }] })
  const bobTurn = await (await ask('bob', 'Delete my draft', 'bob-cross-run')).json()
  const aliceCall = aliceTurn.pendingApprovals[0].toolCallId
  const bobCall = bobTurn.pendingApprovals[0].toolCallId
  assert.notEqual(aliceCall, bobCall, 'the two runs have different tool call ids, as a real provider\'s would')
  assert.notEqual(aliceTurn.runId, bobTurn.runId)

  // The streaming resume route looks for the id on the run it resumes, so Bob's request is untouched.
  const streamed = await sseEvents(await stream('alice', '/assistant/resume', { runId: aliceTurn.runId, toolCallId: bobCall, approved: true }))
  assert.deepEqual(streamed, [{ type: 'error', errorText: 'Internal server error' }, { type: 'done' }])
  assert.equal((await services.agentRunState.getRun(bobTurn.runId)).pendingApprovals.length, 1)

  // approve claims the id on whichever run holds it: Alice's run goes on, Bob's request is gone.
  model.answer({ text: 'Alice continued.' })
  const crossed = await answer('alice', aliceTurn.runId, bobCall, true)
  assert.equal(crossed.status, 200)
  assert.deepEqual(await crossed.json(), { runId: aliceTurn.runId, reply: 'Alice continued.', pendingApprovals: [] })
  assert.equal(model.calls.length, 3, 'the model was called again for Alice\'s run')
  assert.ok(await services.todoStore.get(alices.todoId), 'Alice\'s tool did not run')
  assert.ok(await services.todoStore.get(bobs.todoId), 'Bob\'s tool did not run')
  assert.equal((await services.agentRunState.getRun(aliceTurn.runId)).status, 'completed')
  const bobRun = await services.agentRunState.getRun(bobTurn.runId)
  assert.equal(bobRun.status, 'suspended')
  assert.deepEqual(bobRun.pendingApprovals, [])

  // Bob can no longer answer his own request, on either route.
  const bobAnswer = await answer('bob', bobTurn.runId, bobCall, true)
  assert.equal(bobAnswer.status, 500)
  assert.equal((await bobAnswer.json()).message, `Approvals for run ${bobTurn.runId} were already resolved by another caller`)
  const bobStreamed = await sseEvents(await stream('bob', '/assistant/resume', { runId: bobTurn.runId, toolCallId: bobCall, approved: true }))
  assert.deepEqual(bobStreamed, [{ type: 'error', errorText: 'Internal server error' }, { type: 'done' }])
  // Nor can Alice answer her own: her run is over.
  const aliceOwn = await answer('alice', aliceTurn.runId, aliceCall, true)
  assert.equal(aliceOwn.status, 500)
  assert.equal((await aliceOwn.json()).message, `Run ${aliceTurn.runId} is not suspended (status: completed)`)
  assert.ok(await services.todoStore.get(alices.todoId))
  assert.ok(await services.todoStore.get(bobs.todoId))
  assert.equal(model.calls.length, 3)
})

test('approval-declined: a declined call is not run, and the model is told the user declined and not to retry', async () => {
  const todo = await newTodo('alice', 'Keep me')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Delete keep me', 'alice-decline')).json()
  model.answer({ text: 'Kept.' })
  const declined = await (await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, false)).json()
  assert.equal(declined.reply, 'Kept.')
  assert.ok(await services.todoStore.get(todo.todoId))
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.deepEqual(toolMessage.content[0].output.value, {
    approved: false,
    message: 'The user explicitly declined this action. Inform them that it was declined and do not retry.',
  })
})

test('approval-approved-tool-error: an approved tool that fails is handed to the model as "Error: " and the thrown message', async () => {
  const bobs = await newTodo('bob', 'Bob\'s approved chore')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: bobs.todoId } }] })
  const turn = await (await ask('alice', 'Delete Bob\'s chore', 'alice-approve-refused')).json()
  model.answer({ text: 'I could not delete that one.' })
  const approved = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
  assert.equal(approved.status, 200)
  assert.equal((await approved.json()).reply, 'I could not delete that one.')
  assert.ok(await services.todoStore.get(bobs.todoId))
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.equal(toolMessage.role, 'tool')
  // Core runs the approved tool itself, before the runner, and keeps the thrown message.
  assert.deepEqual(toolMessage.content[0].output, { type: 'json', value: 'Error: Permission denied' })
})

test('approval-no-storage-fails: without an agentStorage an approved tool runs, then the continued run has no messages and fails', async () => {
  delete services.agentStorage
  try {
    const todo = await newTodo('alice', 'Unstored')
    model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
    const turn = await (await ask('alice', 'Delete unstored', 'alice-approve-no-storage')).json()
    const approved = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
    assert.equal(approved.status, 500)
    assert.equal((await approved.json()).message, 'Invalid prompt: messages must not be empty')
    assert.equal(await services.todoStore.get(todo.todoId), undefined, 'the tool ran before the failure')
    assert.equal(model.calls.length, 1, 'the model is not called again')

    const streamed = await newTodo('alice', 'Unstored stream')
    model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: streamed.todoId } }] })
    const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Delete it', threadId: 'alice-approve-no-storage-stream' }))
    const { runId, toolCallId } = approvalRequest(events).value
    const resumed = await sseEvents(await stream('alice', '/assistant/resume', { runId, toolCallId, approved: true }))
    assert.deepEqual(resumed.at(-1), { type: 'RUN_ERROR', message: 'Invalid prompt: messages must not be empty' })
    assert.ok(resumed.some((e) => e.type === 'TOOL_CALL_RESULT'))
    assert.equal(await services.todoStore.get(streamed.todoId), undefined, 'the streamed resume ran the tool too')
    assert.equal(model.calls.length, 2, 'neither continuation calls the model')
  } finally {
    services.agentStorage = storage
  }
})

test('sub-agent-approval: a sub-agent\'s request answered by approve returns 200 without running the tool; through resume the tool runs, and the parent is handed a fixed line in place of the sub-agent\'s answer', async () => {
  // dayPlanner is given the approval tool for this test only, so that a sub-agent asks for approval.
  const meta = (pikkuState(null, 'agent', 'agentsMeta') as any).dayPlanner
  const tools = meta.tools
  meta.tools = [...tools, 'deleteTodoWithApproval']
  try {
    const viaApprove = await newTodo('alice', 'Sub plan')
    model.answer(
      { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'delete it', session: 'cleanup' } }] },
      { toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: viaApprove.todoId } }] },
    )
    const turn = await (await ask('alice', 'Plan and clean up', 'alice-sub-approval')).json()
    assert.equal(turn.pendingApprovals[0].toolName, 'deleteTodoWithApproval')
    assert.equal(turn.pendingApprovals[0].reason, 'Delete the to-do "Sub plan"?')
    model.answer({ text: 'Done.' })
    const approved = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
    assert.equal(approved.status, 200)
    assert.deepEqual(await approved.json(), { runId: turn.runId, reply: 'Done.', pendingApprovals: [] })
    assert.ok(await services.todoStore.get(viaApprove.todoId), 'approve did not run the sub-agent tool')
    model.reset()

    const viaResume = await newTodo('alice', 'Sub stream plan')
    model.answer(
      { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'delete it', session: 'cleanup' } }] },
      { toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: viaResume.todoId } }] },
    )
    const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Plan and clean up', threadId: 'alice-sub-approval-stream' }))
    const { runId, toolCallId } = approvalRequest(events).value
    model.answer({ text: 'Deleted it.' }, { text: 'The planner deleted it.' })
    const resumed = await sseEvents(await stream('alice', '/assistant/resume', { runId, toolCallId, approved: true }))
    assert.equal(resumed.at(-1).type, 'RUN_FINISHED')
    // The sub-agent and then the parent are each called once more.
    assert.equal(model.calls.length, 4)
    assert.equal(await services.todoStore.get(viaResume.todoId), undefined, 'resume ran the sub-agent tool')
    // The parent is handed a fixed line, not the sub-agent's answer.
    const results = (model.calls[3].prompt.at(-1) as any).content.map((part: any) => part.output.value)
    assert.equal(results[0].__approvalRequired, true, 'the call that stopped keeps its approval marker as result')
    assert.equal(results.at(-1), 'Sub-agent completed successfully')
    assert.ok(!model.calls[3].text.includes('Deleted it.'), 'the sub-agent\'s answer is not in the parent\'s prompt')
  } finally {
    meta.tools = tools
  }
})

test('sub-agent-structured-streamed: a structured sub-agent without tools hands the parent its object when not streamed, and an empty text when streamed, since the Vercel runner streams only a "text" property of the object', async () => {
  // dayPlanner is given no tools for this test only, so that VercelAgentRunner asks the model for its output schema.
  const meta = (pikkuState(null, 'agent', 'agentsMeta') as any).dayPlanner
  const tools = meta.tools
  meta.tools = []
  const plan = { summary: 'A busy day', steps: [] }
  const handedToParent = () => (model.calls[2].prompt.at(-1) as any).content[0].output.value
  try {
    model.answer({ toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 's' } }] }, { text: JSON.stringify(plan) }, { text: 'Here is your plan.' })
    assert.equal((await ask('alice', 'Plan my day', 'alice-structured-run')).status, 200)
    assert.equal(model.calls[1].tools.length, 0)
    assert.deepEqual(handedToParent(), plan)
    model.reset()
    model.answer({ toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 's' } }] }, { text: JSON.stringify(plan) }, { text: 'Here is your plan.' })
    const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Plan my day', threadId: 'alice-structured-stream' }))
    assert.equal(events.at(-1).type, 'RUN_FINISHED')
    assert.equal(handedToParent(), '')
  } finally {
    meta.tools = tools
  }
})

test('sub-agent-session-label: a label continues the sub-agent thread within one leg of a run, but not after an approval', async () => {
  const todo = await newTodo('alice', 'Label plan')
  model.answer(
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'first question', session: 'a' } }] },
    { text: 'first answer' },
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'second question', session: 'a' } }] },
    { text: 'second answer' },
    { toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] },
  )
  const turn = await (await ask('alice', 'Plan twice', 'alice-label')).json()
  // calls: parent, dayPlanner, parent, dayPlanner, parent (stops for approval)
  assert.ok(model.calls[3].text.includes('first question'), 'the second call with label a continues the first thread')
  model.answer(
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'third question', session: 'a' } }] },
    { text: 'third answer' },
    { text: 'Done.' },
  )
  const approved = await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)
  assert.equal(approved.status, 200)
  // calls 5 to 7: parent, dayPlanner, parent
  assert.equal(model.calls.length, 8)
  assert.ok(model.calls[6].text.includes('third question'))
  assert.ok(!model.calls[6].text.includes('first question'), 'after the approval label a starts a new thread')
})

test('sub-agent-new-label: within one leg of a run, a different label starts a fresh sub-agent thread', async () => {
  model.answer(
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'first question', session: 'a' } }] },
    { text: 'first answer' },
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'other question', session: 'b' } }] },
    { text: 'other answer' },
    { text: 'Done.' },
  )
  const response = await ask('alice', 'Plan two things', 'alice-new-label')
  assert.equal(response.status, 200)
  // calls: parent, dayPlanner (a), parent, dayPlanner (b), parent
  assert.equal(model.calls.length, 5)
  assert.ok(model.calls[1].text.includes('first question'))
  assert.ok(model.calls[3].text.includes('other question'))
  assert.ok(!model.calls[3].text.includes('first question'), 'label b does not continue the thread of label a')
})

test('max-steps-per-leg: maxSteps (6 for todoAssistant) counts the model steps of one leg; a run continued after an approval gets as many again', async () => {
  const todo = await newTodo('alice', 'Long run')
  const list = { toolCalls: [{ toolName: 'listTodos', args: {} }] }
  model.answer(list, list, list, list, list, { toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const turn = await (await ask('alice', 'Look around, then delete it', 'alice-long-run')).json()
  assert.equal(turn.pendingApprovals.length, 1)
  assert.equal(model.calls.length, 6)
  model.answer(list, list, list, list, list, { text: 'Finished.' })
  const after = await (await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)).json()
  assert.equal(after.reply, 'Finished.')
  assert.equal(model.calls.length, 12, 'one run, twelve model steps')
})

test('thread-history: a second message on the same threadId is sent to the model after the earlier turn', async () => {
  model.answer({ text: 'Noted.' })
  await ask('alice', 'My name is Alice.', 'alice-history')
  model.answer({ text: 'You are Alice.' })
  await ask('alice', 'Who am I?', 'alice-history')
  assert.deepEqual(
    model.calls[1].prompt.map((m: any) => [m.role, m.content[0].text]),
    [
      ['user', 'My name is Alice.'],
      ['assistant', 'Noted.'],
      ['user', 'Who am I?'],
    ],
  )
  const thread = await storage.getThread('alice-history')
  assert.equal(thread.resourceId, 'alice')
})

test('thread-other-user-403: another user sending to an existing threadId gets 403 "Not authorized to access this thread"', async () => {
  model.answer({ text: 'Hi Alice.' })
  await ask('alice', 'Hi', 'alice-private')
  const response = await ask('bob', 'Show me', 'alice-private')
  assert.equal(response.status, 403)
  assert.equal((await response.json()).message, 'Not authorized to access this thread')
  assert.equal(model.calls.length, 1, 'the model is never called for the refused message')
})

test('thread-other-user-streamed: on the streaming route another user\'s threadId answers 200 with one error event carrying ForbiddenError\'s general message', async () => {
  model.answer({ text: 'Hi Alice.' })
  await ask('alice', 'Hi', 'alice-private-streamed')
  const response = await stream('bob', '/assistant/stream', { message: 'Show me', threadId: 'alice-private-streamed' })
  assert.equal(response.status, 200)
  assert.deepEqual(await sseEvents(response), [
    { type: 'error', errorText: 'The client does not have permission to access the requested resource.' },
    { type: 'done' },
  ])
  assert.equal(model.calls.length, 1, 'the model is never called for the refused message')
})

test('thread-other-resource-403: the thread owner sending to the same threadId with another resourceId gets 403', async () => {
  const sessionService = new PikkuSessionService()
  sessionService.setInitial({ userId: 'alice' })
  const rpc: any = rpcService.getContextRPCService(services, {}, { sessionService })
  model.answer({ text: 'Hi.' })
  await rpc.agent.run('todoAssistant', { message: 'Hi', threadId: 'alice-resource', resourceId: 'alice' })
  await assert.rejects(rpc.agent.run('todoAssistant', { message: 'Again', threadId: 'alice-resource', resourceId: 'work' }), {
    name: 'ForbiddenError',
    message: 'Not authorized to access this thread',
  })
  assert.equal(model.calls.length, 1, 'the model is never called for the refused message')
  assert.equal((await storage.getThread('alice-resource')).resourceId, 'alice')
})

test('working-memory: an update in working_memory tags is removed from the reply, stored for the thread and shown on the next run', async () => {
  model.answer({ text: 'Good luck with it. <working_memory>{"currentFocus":"the launch"}</working_memory>' })
  const turn = await (await ask('alice', 'I am working on the launch this week', 'alice-memory')).json()
  assert.equal(turn.reply, 'Good luck with it.')
  assert.deepEqual(await storage.getWorkingMemory('alice-memory', 'thread'), { currentFocus: 'the launch' })
  model.answer({ text: 'Still the launch.' })
  await ask('alice', 'What am I on?', 'alice-memory')
  assert.ok(model.calls[1].system.includes('Current working memory:\n{"currentFocus":"the launch"}'))
  // A new thread starts with an empty record.
  model.answer({ text: 'Hello.' })
  await ask('alice', 'Hi', 'alice-memory-2')
  assert.ok(model.calls[2].system.includes('Current working memory: (empty)'))
})

test('working-memory-first-block-only: of two working_memory blocks in one reply only the first is read; both are cut from the reply', async () => {
  model.answer({
    text: 'Noted. <working_memory>{"currentFocus":"the launch"}</working_memory> <working_memory>{"defaultDueTime":"17:00"}</working_memory>',
  })
  const turn = await (await ask('alice', 'Launch this week, due at five', 'alice-memory-two-blocks')).json()
  assert.equal(turn.reply, 'Noted.')
  assert.deepEqual(await storage.getWorkingMemory('alice-memory-two-blocks', 'thread'), { currentFocus: 'the launch' })
})

test('history-counts-tool-messages: a turn with one tool call stores four messages toward lastMessages: the user\'s, the call, its result and the reply', async () => {
  await newTodo('alice', 'Counted')
  model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'One to-do.' })
  await ask('alice', 'What is on my list?', 'alice-history-count')
  const stored = await storage.getMessages('alice-history-count')
  assert.deepEqual(stored.map((m: any) => m.role), ['user', 'assistant', 'tool', 'assistant'])
  assert.deepEqual((stored[1]?.toolCalls ?? []).map((c: any) => c.name), ['listTodos'])
})

test('thread-resource-prefixed: a resourceId other than the user id is stored as "<userId>:<resourceId>", one already starting with "<userId>:" is kept', async () => {
  const rpc = sessionRpc('alice')
  model.answer({ text: 'Hi.' }, { text: 'Hi.' })
  await rpc.agent.run('todoAssistant', { message: 'Hi', threadId: 'alice-resource-work', resourceId: 'work' })
  await rpc.agent.run('todoAssistant', { message: 'Hi', threadId: 'alice-resource-home', resourceId: 'alice:home' })
  assert.equal((await storage.getThread('alice-resource-work')).resourceId, 'alice:work')
  assert.equal((await storage.getThread('alice-resource-home')).resourceId, 'alice:home')
})

test('history-token-budget: the oldest messages are dropped once the history passes an estimated 100,000 tokens, characters divided by four', async () => {
  const sendAfter = async (thread: string, chars: number) => {
    model.answer({ text: 'ok' }, { text: 'ok' })
    await sessionRpc('alice').agent.run('todoAssistant', { message: 'a'.repeat(chars), threadId: thread, resourceId: 'alice' })
    await sessionRpc('alice').agent.run('todoAssistant', { message: 'Hi', threadId: thread, resourceId: 'alice' })
    return model.calls[1].prompt.map((m: any) => m.role)
  }
  assert.deepEqual(await sendAfter('alice-budget-kept', 390_000), ['user', 'assistant', 'user'])
  model.reset()
  assert.deepEqual(await sendAfter('alice-budget-dropped', 410_000), ['user'])
})

test('working-memory-off-without-storage: without an agentStorage the model is told nothing about working memory, streamed or not', async () => {
  delete services.agentStorage
  try {
    model.answer({ text: 'Hi.' }, { text: 'Hi.' })
    await ask('alice', 'Hi', 'alice-no-storage-memory')
    await sseEvents(await stream('alice', '/assistant/stream', { message: 'Hi', threadId: 'alice-no-storage-memory-stream' }))
    assert.equal(model.calls.length, 2)
    for (const call of model.calls) assert.ok(!/working.memory/i.test(call.system), call.system)
  } finally {
    services.agentStorage = storage
  }
})

test('working-memory-merge-no-schema: null deletes a field, a nested object is merged, an array replaced; with no schema service nothing is validated', async () => {
  await storage.saveWorkingMemory('alice-memory-merge', 'thread', { currentFocus: 'docs', defaultDueTime: '17:00', prefs: { a: 1, b: 2 }, tags: ['x', 'y'] })
  const schema = services.schema
  delete services.schema
  try {
    model.answer({ text: 'Ok. <working_memory>{"defaultDueTime":null,"prefs":{"b":3},"tags":["z"],"currentFocus":42}</working_memory>' })
    assert.equal((await (await ask('alice', 'Update', 'alice-memory-merge')).json()).reply, 'Ok.')
  } finally {
    services.schema = schema
  }
  assert.deepEqual(await storage.getWorkingMemory('alice-memory-merge', 'thread'), { currentFocus: 42, prefs: { a: 1, b: 3 }, tags: ['z'] })
})

test('working-memory-streamed-piece: in a streamed run a piece holding only working_memory text sends no TEXT_MESSAGE_CONTENT event', async () => {
  // The scripted model streams a reply in two halves; here the second half is all inside the tags.
  const update = '<working_memory>{"currentFocus":"x"}</working_memory>'
  model.answer({ text: 'N'.repeat(update.length) + update })
  const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'x', threadId: 'alice-memory-piece' }))
  const pieces = events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta)
  assert.deepEqual(pieces, ['N'.repeat(update.length)])
  assert.deepEqual(await storage.getWorkingMemory('alice-memory-piece', 'thread'), { currentFocus: 'x' })
})

test('stream-no-channel: rpc.agent.stream from a wire without a channel fails with a plain Error "No channel available for streaming"', async () => {
  await assert.rejects(sessionRpc('alice').agent.stream('todoAssistant', { message: 'Hi', threadId: 'alice-no-channel', resourceId: 'alice' }), (error: any) => {
    assert.equal(error.constructor, Error)
    assert.equal(error.message, 'No channel available for streaming')
    return true
  })
  assert.equal(model.calls.length, 0)
})

test('interrupt-other-instance: rpc.agent.interrupt, called without a channel, on a run recorded running that is not executing in this process returns stopped: false and logs a warning', async () => {
  // A run another instance is executing: its state says running, but nothing in this process is generating it.
  const runId = await services.agentRunState.createRun({
    agentName: 'todoAssistant',
    threadId: 'alice-elsewhere',
    resourceId: 'alice',
    status: 'running',
    usage: { inputTokens: 0, outputTokens: 0, model: 'openai/gpt-4o-mini' },
    pendingApprovals: [],
    createdAt: new Date(),
    updatedAt: new Date(),
  })
  const warnings = collectLogs(services, 'warn')
  let result: any
  try {
    result = await sessionRpc('alice').agent.interrupt(runId)
  } finally {
    warnings.restore()
  }
  assert.equal(result.stopped, false)
  assert.ok(warnings.lines.some((line) => line.startsWith(`Could not interrupt run ${runId}: it is running in another process.`)), warnings.lines.join('\n'))
})

test('stream-step-names: streamed steps are named step#1, step#2, …; a sub-agent\'s step carries its name in place of step, and the count runs on across parent and sub-agent', async () => {
  const { rpc, events } = channelRpc('alice')
  model.answer({ toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'p' } }] }, { text: JSON.stringify({ summary: 'Free.', steps: [] }) }, { text: 'Planned.' })
  await rpc.agent.stream('todoAssistant', { message: 'Plan', threadId: 'alice-step-names', resourceId: 'alice' })
  const names = events.filter((e) => e.type === 'STEP_STARTED').map((e) => e.stepName)
  assert.deepEqual(names, ['step#1', 'dayPlanner#2', 'step#3'])
})

test('org-scope-no-session-403: an org-scoped agent without auth refuses a caller with no session with the same 403', async () => {
  const planner: any = pikkuState(null, 'agent', 'agents').get('dayPlanner')
  const saved = planner.sessionScope
  planner.sessionScope = 'org'
  try {
    await assert.rejects(rpcFor(services).agent.run('dayPlanner', { message: 'Plan', threadId: 'org-no-session', resourceId: 'x' }), {
      name: 'ForbiddenError',
      message: 'This agent is org-scoped but the session has no organization',
    })
    assert.equal(model.calls.length, 0)
  } finally {
    planner.sessionScope = saved
  }
})

test('org-scope-before-auth: an org-scoped agent with auth: true refuses a caller with no session for the missing organization, not with "Authentication required"', async () => {
  await withAgentFields(() => ({ sessionScope: 'org' }), async () => {
    assert.equal(pikkuState(null, 'agent', 'agents').get('todoAssistant')?.auth, true)
    await assert.rejects(rpcFor(services).agent.run('todoAssistant', { message: 'Hi', threadId: 'org-auth-no-session', resourceId: 'x' }), {
      name: 'ForbiddenError',
      message: 'This agent is org-scoped but the session has no organization',
    })
    assert.equal(model.calls.length, 0)
  })
})

test('history-orphan-tool-result-working-memory: when lastMessages cuts between a stored tool call and its result, the result still reaches the model with working memory on; with it off, the history starts at the next user message', async () => {
  // todoAssistant keeps lastMessages: 12. One tool turn stores 4 messages and a plain turn 2 (history-counts-tool-messages),
  // so after one tool turn and five plain ones the last 12 stored messages start with the tool result.
  await newTodo('alice', 'Orphaned')
  const cutThread = async (thread: string) => {
    model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'One to-do.' })
    await ask('alice', 'What is on my list?', thread)
    for (let i = 1; i <= 5; i++) {
      model.answer({ text: `Reply ${i}.` })
      await ask('alice', `Message ${i}`, thread)
    }
    const lastTwelve: any[] = await storage.getMessages(thread, { lastN: 12 })
    assert.equal(lastTwelve[0].role, 'tool')
    model.answer({ text: 'Still here.' })
    assert.equal((await ask('alice', 'Message 6', thread)).status, 200)
    return model.calls.at(-1)!.prompt as any[]
  }
  // Working memory on, as todoAssistant has it: the system message in front keeps the orphan in.
  const withMemory = await cutThread('alice-orphan-result')
  assert.equal(withMemory[0].role, 'tool')
  assert.equal(withMemory[0].content[0].toolName, 'listTodos')
  // Working memory off, on a thread cut the same way: the leading orphan is dropped and the history starts with a user message.
  await withAgentFields((agent) => ({ memory: { ...agent.memory, workingMemory: undefined } }), async () => {
    const withoutMemory = await cutThread('alice-orphan-result-no-memory')
    assert.equal(withoutMemory[0].role, 'user')
    assert.ok(!withoutMemory.some((m) => m.role === 'tool'))
  })
})

test('working-memory-invalid: an update that fails the schema is logged as a warning and dropped', async () => {
  model.answer({ text: 'Noted. <working_memory>{"currentFocus":"docs"}</working_memory>' })
  await ask('alice', 'I work on docs', 'alice-memory-bad')
  const warnings: string[] = []
  const original = services.logger.warn
  services.logger.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '))
  try {
    model.answer({ text: 'Ok. <working_memory>{"currentFocus":42}</working_memory>' })
    const turn = await (await ask('alice', 'Now 42', 'alice-memory-bad')).json()
    assert.equal(turn.reply, 'Ok.')
  } finally {
    services.logger.warn = original
  }
  assert.match(warnings.join('\n'), /^Working memory validation failed/)
  assert.deepEqual(await storage.getWorkingMemory('alice-memory-bad', 'thread'), { currentFocus: 'docs' })
})

test('working-memory-not-json: an update that is not JSON is stored nowhere and logs no warning; a run that is not streamed keeps it in the reply, a streamed run cuts it out', async () => {
  const warnings = collectLogs(services, 'warn')
  try {
    model.answer({ text: 'Noted. <working_memory>focus: docs</working_memory>' })
    const turn = await (await ask('alice', 'I work on docs', 'alice-memory-not-json')).json()
    assert.equal(turn.reply, 'Noted. <working_memory>focus: docs</working_memory>')
    model.answer({ text: 'Noted. <working_memory>focus: docs</working_memory>' })
    const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'I work on docs', threadId: 'alice-memory-not-json-streamed' }))
    assert.equal(events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'Noted. ')
  } finally {
    warnings.restore()
  }
  assert.ok(!warnings.lines.some((w) => w.startsWith('Working memory validation failed')), warnings.lines.join('\n'))
  assert.equal(await storage.getWorkingMemory('alice-memory-not-json', 'thread'), null)
  assert.equal(await storage.getWorkingMemory('alice-memory-not-json-streamed', 'thread'), null)
})

test('structured-output-with-tools: the day planner (tools plus an output schema) returns the model\'s text, which planMyDay parses', async () => {
  await newTodo('carol', 'Gym')
  const plan = { summary: 'A light day.', steps: [{ todoId: 't1', title: 'Gym', reason: 'Due today' }] }
  model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: JSON.stringify(plan) })
  const rawResults: unknown[] = []
  const originalRun = runner.run.bind(runner)
  runner.run = async (params: any) => {
    const step = await originalRun(params)
    rawResults.push({ object: step.object, outputSchema: Boolean(params.outputSchema) })
    return step
  }
  try {
    const response = await app.call('carol', 'POST', '/assistant/plan')
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), plan)
  } finally {
    runner.run = originalRun
  }
  // The schema reached the runner, but with a tool listed it asked for no object: every step's object is undefined.
  assert.deepEqual(rawResults, [
    { object: undefined, outputSchema: true },
    { object: undefined, outputSchema: true },
  ])
  assert.equal(model.calls[0].tools.length, 1)
})

test('no-agent-runner-503: without an agentRunner the run fails with AIProviderNotConfiguredError, HTTP 503', async () => {
  delete services.agentRunner
  try {
    const response = await ask('alice', 'Hello', 'alice-no-runner')
    assert.equal(response.status, 503)
    assert.equal((await response.json()).name, 'AIProviderNotConfiguredError')
  } finally {
    services.agentRunner = runner
  }
})

test('no-agent-runner-streamed: on the streaming route a run without an agentRunner answers 200 and one error event with the registered message', async () => {
  delete services.agentRunner
  try {
    const response = await stream('alice', '/assistant/stream', { message: 'Hello', threadId: 'alice-stream-no-runner' })
    assert.equal(response.status, 200)
    assert.deepEqual(await sseEvents(response), [
      {
        type: 'error',
        errorText:
          'No AI provider configured. Please set up an AI provider (e.g. OpenAI, Anthropic) and provide a valid API key to use this agent.',
      },
      { type: 'done' },
    ])
    assert.equal(model.calls.length, 0)
  } finally {
    services.agentRunner = runner
  }
})

test('unknown-provider: a model prefix missing from the providers map fails with "Unknown AI provider"', async () => {
  const providers = runner.providers
  runner.providers = { anthropic: model.provider }
  try {
    const response = await ask('alice', 'Hello', 'alice-no-provider')
    assert.equal(response.status, 500)
    assert.equal((await response.json()).message, "Unknown AI provider: 'openai'. Available: anthropic")
  } finally {
    runner.providers = providers
  }
})

test('unknown-provider-streamed: on a streamed run the same error ends the stream with RUN_ERROR, and the route answers 200', async () => {
  const providers = runner.providers
  runner.providers = { anthropic: model.provider }
  try {
    const response = await stream('alice', '/assistant/stream', { message: 'Hello', threadId: 'alice-stream-no-provider' })
    assert.equal(response.status, 200)
    const events = await sseEvents(response)
    const error = events.find((e) => e.type === 'RUN_ERROR')
    assert.ok(error, `no RUN_ERROR in ${events.map((e) => e.type).join(', ')}`)
    assert.equal(error.message, "Unknown AI provider: 'openai'. Available: anthropic")
  } finally {
    runner.providers = providers
  }
})

test('stream-sse-events: POST /assistant/stream sends the reply as AG-UI events over server-sent events', async () => {
  model.answer({ text: 'Hello there' })
  const response = await stream('alice', '/assistant/stream', { message: 'Hi', threadId: 'alice-stream' })
  assert.equal(response.status, 200)
  assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/)
  const events = await sseEvents(response)
  assert.deepEqual(
    events.map((e) => e.type),
    ['RUN_STARTED', 'STEP_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'STEP_FINISHED', 'RUN_FINISHED'],
  )
  assert.equal(events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'Hello there')
  assert.deepEqual(events.at(-1).usage, { promptTokens: 10, completionTokens: 5, totalTokens: 15 })
})

test('stream-approval-request: a streamed run that needs approval sends a CUSTOM pikku:approval-request event and ends; /assistant/resume continues it', async () => {
  const todo = await newTodo('alice', 'Streamed delete')
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] })
  const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Delete it', threadId: 'alice-stream-approval' }))
  const request = approvalRequest(events)
  assert.ok(request, `no approval request in ${events.map((e) => e.type).join(', ')}`)
  assert.ok(await services.todoStore.get(todo.todoId))
  model.answer({ text: 'Deleted.' })
  const { runId, toolCallId } = request.value
  const resumed = await sseEvents(await stream('alice', '/assistant/resume', { runId, toolCallId, approved: true }))
  assert.equal(resumed.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'Deleted.')
  assert.equal(await services.todoStore.get(todo.todoId), undefined)
})

test('approval-resume-keeps-nulls: a null the model sends to a function behind approval is dropped when the run continues through approve, and reaches the function\'s validation when it continues through the streaming resume', async () => {
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: null } }] })
  const turn = await (await ask('alice', 'Delete nothing', 'alice-approve-null')).json()
  model.answer({ text: 'Could not.' })
  assert.equal((await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)).status, 200)
  const viaApprove: any = model.calls[1].prompt.at(-1)
  model.reset()
  model.answer({ toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: null } }] })
  const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Delete nothing', threadId: 'alice-resume-null' }))
  model.answer({ text: 'Could not.' })
  const { runId, toolCallId } = approvalRequest(events).value
  const resumed = await sseEvents(await stream('alice', '/assistant/resume', { runId, toolCallId, approved: true }))
  assert.equal(resumed.at(-1).type, 'RUN_FINISHED')
  const viaResume: any = model.calls[1].prompt.at(-1)
  // approve strips the null, so the validator reports a missing property; resume passes it on, so it reports a null.
  assert.deepEqual(viaApprove.content[0].output, { type: 'json', value: 'Error: Instance does not have required property "todoId".' })
  assert.deepEqual(viaResume.content[0].output, { type: 'json', value: 'Error: Property "todoId" does not match schema., Instance type "null" is invalid. Expected "string".' })
})

test('tool-audit-log: the toolAudit middleware logs every tool call with its duration', async () => {
  model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'Done.' })
  const lines: string[] = []
  const original = services.logger.info
  services.logger.info = (message: unknown) => lines.push(String(message))
  try {
    await ask('alice', 'List', 'alice-audit')
  } finally {
    services.logger.info = original
  }
  assert.ok(lines.some((line) => /^agent called listTodos in \d+ ms$/.test(line)), lines.join('\n'))
})

test('agent-auth-required: todoAssistant has auth: true, so a run without a session is refused with "Authentication required"', async () => {
  await assert.rejects(rpcFor(services).agent.run('todoAssistant', { message: 'Hi', threadId: 'no-session', resourceId: 'x' }), {
    name: 'ForbiddenError',
    message: 'Authentication required',
  })
  assert.equal(model.calls.length, 0)
})

test('agent-name-not-found: a run addressed by the agent\'s name instead of its export name fails with "AI agent not found"', async () => {
  await assert.rejects(
    rpcFor(services, 'alice').agent.run('todo-assistant', { message: 'Hi', threadId: 'by-name', resourceId: 'alice' }),
    { message: 'AI agent not found: todo-assistant' },
  )
})

test('anonymous-owner-per-request: an agent without auth run twice without a session on one threadId is refused the second time', async () => {
  model.answer({ text: JSON.stringify({ summary: 'Nothing.', steps: [] }) })
  await rpcFor(services).agent.run('dayPlanner', { message: 'Plan', threadId: 'anonymous-thread', resourceId: 'someone' })
  await assert.rejects(rpcFor(services).agent.run('dayPlanner', { message: 'Again', threadId: 'anonymous-thread', resourceId: 'someone' }), {
    message: 'Not authorized to access this thread',
  })
  const thread = await storage.getThread('anonymous-thread')
  assert.match(thread.resourceId, /^anon-[0-9a-f-]{36}$/)
})

test('no-run-state-500: without an agentRunState every run fails with "AgentRunStateService not available in singletonServices"', async () => {
  const runState = services.agentRunState
  delete services.agentRunState
  try {
    const response = await ask('alice', 'Hello', 'alice-no-run-state')
    assert.equal(response.status, 500)
    assert.equal((await response.json()).message, 'AgentRunStateService not available in singletonServices')
  } finally {
    services.agentRunState = runState
  }
})

test('no-run-state-streamed: on the streaming route a run without an agentRunState answers 200 and one error event saying only "Internal server error"', async () => {
  const runState = services.agentRunState
  delete services.agentRunState
  try {
    const response = await stream('alice', '/assistant/stream', { message: 'Hello', threadId: 'alice-stream-no-run-state' })
    assert.equal(response.status, 200)
    assert.deepEqual(await sseEvents(response), [{ type: 'error', errorText: 'Internal server error' }, { type: 'done' }])
  } finally {
    services.agentRunState = runState
  }
})

test('no-storage-no-history: without an agentStorage the run still answers, but the next message on the thread starts from nothing', async () => {
  delete services.agentStorage
  try {
    model.answer({ text: 'Noted.' }, { text: 'I do not know.' })
    assert.equal((await (await ask('alice', 'My name is Alice.', 'alice-no-storage')).json()).reply, 'Noted.')
    assert.equal((await (await ask('alice', 'Who am I?', 'alice-no-storage')).json()).reply, 'I do not know.')
    assert.deepEqual(model.calls[1].prompt.map((m: any) => m.content[0].text), ['Who am I?'])
  } finally {
    services.agentStorage = storage
  }
})

test('tool-input-validated: tool arguments that fail the function\'s schema fail the call, and nothing is created', async () => {
  const before = (await services.todoStore.list('alice')).length
  model.answer({ toolCalls: [{ toolName: 'createTodo', args: { title: 42 } }] }, { text: 'That did not work.' })
  const turn = await (await ask('alice', 'Add a to-do called 42', 'alice-invalid')).json()
  assert.equal(turn.reply, 'That did not work.')
  assert.equal((await services.todoStore.list('alice')).length, before)
  const toolMessage: any = model.calls[1].prompt.at(-1)
  assert.deepEqual(toolMessage.content[0].output, { type: 'json', value: 'Error: Tool execution failed' })
})

test('tool-input-unchecked-without-schema: with no schema service among the singleton services, tool arguments that fail the function\'s schema reach the function, and a to-do with a number title is created', async () => {
  const schema = services.schema
  services.schema = undefined
  try {
    const before = (await services.todoStore.list('alice')).length
    model.answer({ toolCalls: [{ toolName: 'createTodo', args: { title: 42 } }] }, { text: 'Added it.' })
    await ask('alice', 'Add a to-do called 42', 'alice-unchecked')
    const todos = await services.todoStore.list('alice')
    assert.equal(todos.length, before + 1)
    assert.ok(todos.some((todo: any) => todo.title === 42))
  } finally {
    services.schema = schema
    for (const todo of await services.todoStore.list('alice')) if ((todo as any).title === 42) await services.todoStore.remove(todo.todoId)
  }
})

test('tool-schema-nullable: the model is offered each optional property as required and nullable, a null it sends is dropped before the function runs, and the process-wide schema is changed in place, so a validator compiled after the run accepts null', async () => {
  // Starts from the generated schema, since any earlier run in this file has already changed the entry. Compiled up
  // front, as compileAllSchemas does when the Express and Node servers start.
  const schemas = pikkuState(null, 'misc', 'schemas') as Map<string, any>
  const generated = () => JSON.parse(readFileSync(new URL('../../.pikku/schemas/schemas/UpdateTodoInput.schema.json', import.meta.url), 'utf8'))
  const fresh = (compile: boolean) => {
    const schema = generated()
    schemas.set('UpdateTodoInput', schema)
    if (compile) services.schema.compileSchema('UpdateTodoInput', schema)
  }
  fresh(true)
  try {
    const todo = await newTodo('alice', 'Keep this title')
    model.answer({ toolCalls: [{ toolName: 'updateTodo', args: { todoId: todo.todoId, title: null, done: true } }] }, { text: 'Done.' })
    assert.equal((await ask('alice', 'Mark it done', 'alice-nullable')).status, 200)
    const offered: any = model.calls[0].tools.find((t) => t.name === 'updateTodo')!.inputSchema
    assert.deepEqual(offered.required, ['todoId', 'title', 'done', 'dueAt'])
    assert.deepEqual(offered.properties.title.type, ['string', 'null'])
    const updated = await services.todoStore.get(todo.todoId)
    assert.equal(updated.title, 'Keep this title')
    assert.equal(updated.done, true)
    assert.deepEqual(schemas.get('UpdateTodoInput').properties.title.type, ['string', 'null'])
    assert.deepEqual(schemas.get('UpdateTodoInput').required, ['todoId'])
    // The validator compiled before the run is unchanged: PATCH /todos/:todoId with a null title still fails.
    assert.equal((await app.call('alice', 'PATCH', `/todos/${todo.todoId}`, { title: null })).status, 422)
    // A validator first compiled after an agent run, as on a runtime that compiles on first use, takes the change.
    fresh(false)
    model.answer({ text: 'Hi.' })
    await ask('alice', 'Hello', 'alice-nullable-2')
    assert.equal((await app.call('alice', 'PATCH', `/todos/${todo.todoId}`, { title: null })).status, 200)
    assert.equal((await services.todoStore.get(todo.todoId)).title, null)
  } finally {
    fresh(true)
  }
})

test('sub-agent-fails-streamed: in a streamed run a failing sub-agent ends the client stream with RUN_ERROR, while the parent goes on with an empty tool result and completes', async () => {
  const plannerDown = () => {
    throw new Error('planner model is down')
  }
  model.answer(
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'p' } }] },
    plannerDown,
    { text: 'The planner could not help.' },
  )
  const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Plan my day', threadId: 'alice-sub-fails-stream' }))
  assert.equal(events.at(-1).type, 'RUN_ERROR')
  assert.equal(events.at(-1).message, 'planner model is down')
  assert.ok(!events.some((e) => e.type === 'RUN_FINISHED'))
  // calls: parent, dayPlanner (throws), parent again, handed the sub-agent's text so far as a normal result
  assert.equal(model.calls.length, 3)
  assert.deepEqual((model.calls[2].prompt.at(-1) as any).content[0].output, { type: 'json', value: '' })
  assert.equal((await services.agentRunState.getRun(events[0].runId)).status, 'completed')

  // A run that is not streamed hands the parent a failed tool call instead.
  model.reset()
  model.answer(
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'p' } }] },
    plannerDown,
    { text: 'The planner could not help.' },
  )
  const turn = await (await ask('alice', 'Plan my day', 'alice-sub-fails')).json()
  assert.equal(turn.reply, 'The planner could not help.')
  assert.deepEqual((model.calls[2].prompt.at(-1) as any).content[0].output, { type: 'json', value: 'Error: Tool execution failed' })
})

test('sub-agent-refused-streamed: in a streamed run a sub-agent that fails before its run is under way, here in its own modifyInput hook, fails the tool call instead: the parent reads "Error: " and the message, and no RUN_ERROR is sent', async () => {
  const planner: any = pikkuState(null, 'agent', 'agents').get('dayPlanner')
  const middleware = planner.agentMiddleware
  planner.agentMiddleware = [
    ...(middleware ?? []),
    {
      modifyInput: async () => {
        throw new Error('planner input refused')
      },
    },
  ]
  try {
    model.answer(
      { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'p' } }] },
      { text: 'The planner could not help.' },
    )
    const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Plan my day', threadId: 'alice-sub-refused-stream' }))
    assert.ok(!events.some((e) => e.type === 'RUN_ERROR'))
    assert.equal(events.at(-1).type, 'RUN_FINISHED')
    // calls: parent, parent again (the sub-agent never reaches the model)
    assert.equal(model.calls.length, 2)
    assert.deepEqual((model.calls[1].prompt.at(-1) as any).content[0].output, { type: 'json', value: 'Error: planner input refused' })
  } finally {
    planner.agentMiddleware = middleware
  }
})

test('approval-policy-not-kept-on-resume: requiresToolApproval passed to stream is not kept for the leg that resume continues, unless resume is passed it too', async () => {
  const { rpc, events } = channelRpc('alice')
  const list = { toolCalls: [{ toolName: 'listTodos', args: {} }] }
  model.answer(list)
  await rpc.agent.stream('todoAssistant', { message: 'What is on my list?', threadId: 'alice-ask-all', resourceId: 'alice' }, { requiresToolApproval: 'all' })
  const request = approvalRequest(events)
  assert.ok(request, 'with requiresToolApproval: all, listTodos waits for approval')
  events.length = 0
  model.answer(list, { text: 'Listed twice.' })
  await rpc.agent.resume(request.value.runId, { toolCallId: request.value.toolCallId, approved: true })
  assert.equal(approvalRequest(events), undefined, 'the second listTodos ran without asking')
  assert.equal(events.filter((e) => e.type === 'TOOL_CALL_RESULT').length, 2)
  assert.equal(events.at(-1).type, 'RUN_FINISHED')
  assert.equal(model.calls.length, 3)

  // Passed to resume as well, the policy holds for the continued leg.
  events.length = 0
  model.reset()
  model.answer(list)
  await rpc.agent.stream('todoAssistant', { message: 'And again?', threadId: 'alice-ask-all-2', resourceId: 'alice' }, { requiresToolApproval: 'all' })
  const first = approvalRequest(events)
  events.length = 0
  model.answer(list)
  await rpc.agent.resume(first.value.runId, { toolCallId: first.value.toolCallId, approved: true }, { requiresToolApproval: 'all' })
  assert.ok(approvalRequest(events), 'the second listTodos waits for approval')
})

test('model-error-streamed-completed: a model call that fails in a streamed run sends RUN_ERROR, yet the run is recorded completed and onError does not run; a run that is not streamed fails and reaches onError', async () => {
  const seen: string[] = []
  const onError = { onError: async (_services: unknown, { error }: { error: Error }) => { seen.push(error.message) } }
  await withAgentFields((agent) => ({ agentMiddleware: [...agent.agentMiddleware, onError] }), async () => {
    model.answer(() => {
      throw new Error('model is down')
    })
    const events = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Hi', threadId: 'alice-model-down' }))
    assert.deepEqual(events.map((e) => e.type), ['RUN_STARTED', 'STEP_STARTED', 'STEP_FINISHED', 'RUN_ERROR'])
    assert.equal(events.at(-1).message, 'model is down')
    const run = await services.agentRunState.getRun(events[0].runId)
    assert.equal(run.status, 'completed')
    assert.equal(run.errorMessage, undefined)
    assert.deepEqual(seen, [])

    model.answer(() => {
      throw new Error('model is down')
    })
    const response = await ask('alice', 'Hi', 'alice-model-down-waiting')
    assert.equal(response.status, 500)
    assert.deepEqual(seen, ['model is down'])
  })
})

test('tool-hooks-order: beforeToolCall hooks run in list order and afterToolCall hooks in reverse, so the first middleware wraps the others', async () => {
  const seen: string[] = []
  const hooks = (name: string) => ({
    beforeToolCall: async () => void seen.push(`before ${name}`),
    afterToolCall: async () => void seen.push(`after ${name}`),
  })
  await withAgentFields((agent) => ({ agentMiddleware: [...agent.agentMiddleware, hooks('A'), hooks('B')] }), async () => {
    model.answer({ toolCalls: [{ toolName: 'listTodos', args: {} }] }, { text: 'Done.' })
    assert.equal((await ask('alice', 'List', 'alice-hook-order')).status, 200)
  })
  assert.deepEqual(seen, ['before A', 'before B', 'after B', 'after A'])
})

test('org-scope-no-org-403: an agent with sessionScope "org" refuses a session without an orgId with 403 before the model is called', async () => {
  await withAgentFields(() => ({ sessionScope: 'org' }), async () => {
    const response = await ask('alice', 'Hi', 'alice-org-scope')
    assert.equal(response.status, 403)
    assert.equal((await response.json()).message, 'This agent is org-scoped but the session has no organization')
    assert.equal(model.calls.length, 0)
  })
})

test('modify-output-stream-warning-once: a middleware with modifyOutput but no modifyOutputStream logs one warning naming the agent on its first streamed run, and none later', async () => {
  const warnings = collectLogs(services, 'warn')
  const upper = { modifyOutput: async (_services: unknown, output: any) => ({ ...output, text: output.text.toUpperCase() }) }
  try {
    await withAgentFields((agent) => ({ agentMiddleware: [...agent.agentMiddleware, upper] }), async () => {
      model.answer({ text: 'quiet' }, { text: 'quiet' }, { text: 'quiet' })
      const first = await sseEvents(await stream('alice', '/assistant/stream', { message: 'Hi', threadId: 'alice-modify-stream-1' }))
      await sseEvents(await stream('alice', '/assistant/stream', { message: 'Hi', threadId: 'alice-modify-stream-2' }))
      assert.equal(first.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'quiet')
      assert.equal((await (await ask('alice', 'Hi', 'alice-modify-run')).json()).reply, 'QUIET')
    })
  } finally {
    warnings.restore()
  }
  const named = warnings.lines.filter((line) => line.includes("Agent 'todoAssistant' has AI middleware with modifyOutput but no modifyOutputStream"))
  assert.equal(named.length, 1, warnings.lines.join('\n'))
})

test('on-error-not-for-refused: a run refused before it starts, here on another user\'s thread, never reaches onError', async () => {
  const seen: string[] = []
  const onError = { onError: async (_services: unknown, { error }: { error: Error }) => void seen.push(error.message) }
  await withAgentFields((agent) => ({ agentMiddleware: [...agent.agentMiddleware, onError] }), async () => {
    model.answer({ text: 'Hi.' })
    await ask('alice', 'Hi', 'alice-on-error-thread')
    assert.equal((await ask('bob', 'Hi', 'alice-on-error-thread')).status, 403)
  })
  assert.deepEqual(seen, [])
})

test('run-context-in-instructions: context in the run input is appended to the instructions of the run and of its sub-agents, but not after an approval', async () => {
  const todo = await newTodo('alice', 'Context todo')
  const rpc = sessionRpc('alice')
  model.answer(
    { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'c' } }] },
    { text: JSON.stringify({ summary: 'Free.', steps: [] }) },
    { toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] },
  )
  const run = await rpc.agent.run('todoAssistant', { message: 'Plan', threadId: 'alice-context', resourceId: 'alice', context: 'Project: Apollo' })
  assert.ok(model.calls[0].system.includes('Project: Apollo'))
  assert.ok(model.calls[1].system.includes('Project: Apollo'), 'the sub-agent gets it')
  model.answer({ text: 'Done.' })
  await rpc.agent.approve(run.runId, [{ toolCallId: run.pendingApprovals[0].toolCallId, approved: true }], 'todoAssistant')
  assert.equal(model.calls.length, 4)
  assert.ok(!model.calls[3].system.includes('Project: Apollo'), 'the continued run does not')
})

test('modify-output-stream-runner-events-only: a modifyOutputStream hook sees the events the model runner streams, but not step starts, sub-agent calls, the sub-agent\'s own text or an approval request, which reach the client unchanged; listed on the sub-agent too, it changes the sub-agent\'s text', async () => {
  const todo = await newTodo('alice', 'Hook scope todo')
  const seen: string[] = []
  const upper = {
    modifyOutputStream: async (_services: unknown, { event }: { event: any }) => {
      seen.push(event.type)
      return event.type === 'text-delta' ? { ...event, text: event.text.toUpperCase() } : event
    },
  }
  await withAgentFields((agent) => ({ agentMiddleware: [...agent.agentMiddleware, upper] }), async () => {
    const { rpc, events } = channelRpc('alice')
    model.answer(
      { toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'h' } }] },
      { text: 'planner words' },
      { toolCalls: [{ toolName: 'deleteTodoWithApproval', args: { todoId: todo.todoId } }] },
    )
    await rpc.agent.stream('todoAssistant', { message: 'Plan, then delete', threadId: 'alice-stream-hook-scope', resourceId: 'alice' })
    const text = events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join('')
    assert.equal(text, 'planner words', 'the sub-agent text passes the parent hook by')
    assert.ok(approvalRequest(events), 'the approval request reaches the client')
    assert.ok(events.some((e) => e.type === 'STEP_STARTED'))
    assert.ok(events.some((e) => e.type === 'CUSTOM' && e.name === 'pikku:agent-call'))
  })
  assert.ok(seen.includes('tool-call') && seen.includes('usage'), seen.join(','))
  for (const type of ['step-start', 'agent-call', 'agent-result', 'approval-request', 'text-delta']) {
    assert.ok(!seen.includes(type), `the hook saw ${type}: ${seen.join(',')}`)
  }

  // Listed on the sub-agent as well, the hook reaches the sub-agent's text.
  const planner: any = pikkuState(null, 'agent', 'agents').get('dayPlanner')
  const plannerMiddleware = planner.agentMiddleware
  planner.agentMiddleware = [...(plannerMiddleware ?? []), upper]
  try {
    const { rpc, events } = channelRpc('alice')
    model.answer({ toolCalls: [{ toolName: 'dayPlanner', args: { message: 'plan', session: 'h' } }] }, { text: 'planner words' }, { text: '' })
    await rpc.agent.stream('todoAssistant', { message: 'Plan', threadId: 'alice-stream-hook-scope-sub', resourceId: 'alice' })
    assert.equal(events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'PLANNER WORDS')
  } finally {
    planner.agentMiddleware = plannerMiddleware
  }
})

test('approval-second-through-resume-runs: of two requests, once approve has finished the run with the first, the second answered through the streaming resume still runs its tool and reopens the finished run', async () => {
  const first = await newTodo('alice', 'First to resume')
  const second = await newTodo('alice', 'Second to resume')
  model.answer({
    toolCalls: [
      { toolName: 'deleteTodoWithApproval', args: { todoId: first.todoId } },
      { toolName: 'deleteTodoWithApproval', args: { todoId: second.todoId } },
    ],
  })
  const turn = await (await ask('alice', 'Delete both', 'alice-approve-then-resume')).json()
  model.answer({ text: 'Done.' })
  assert.equal((await answer('alice', turn.runId, turn.pendingApprovals[0].toolCallId, true)).status, 200)
  assert.equal((await services.agentRunState.getRun(turn.runId)).status, 'completed')
  assert.ok(await services.todoStore.get(second.todoId))

  model.answer({ text: 'Deleted the second too.' })
  const { rpc, events } = channelRpc('alice')
  await rpc.agent.resume(turn.runId, { toolCallId: turn.pendingApprovals[1].toolCallId, approved: true })
  assert.equal(await services.todoStore.get(second.todoId), undefined, 'the second tool ran')
  assert.equal(model.calls.length, 3, 'the finished run went back to the model')
  assert.equal(events.at(-1).type, 'RUN_FINISHED')
  assert.equal((await services.agentRunState.getRun(turn.runId)).status, 'completed')
})
