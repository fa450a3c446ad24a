// MCP behaviour of the to-do app: PikkuMCPServer (@pikku/modelcontextprotocol 0.12.10, core 0.12.90) over streamable
// HTTP, driven by the official MCP SDK client as an agent would: listings, calls, reads, prompts and their errors.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { startMCPServer, type RunningMCP } from './harness/mcp.js'
import { registerProbe } from './harness/core-probes.js'
import { pikkuState } from '@pikku/core/state'
import { ForbiddenError, PikkuError, addError } from '@pikku/core/errors'
import { TodoLimitReachedError } from '../../src/errors.js'
import { withEnv } from './harness/env.js'
import { inspectFiles } from './harness/inspector.js'

let mcp: RunningMCP
let alice: Client
let anonymous: Client
let aliceTodoId: string
let bobTodoId: string

before(async () => {
  mcp = await startMCPServer()
  const { todoStore } = mcp.services
  aliceTodoId = (await todoStore.create({ ownerId: 'alice', title: 'Buy milk', done: false, dueAt: '2020-01-01T00:00:00.000Z' }))
    .todoId
  await todoStore.create({ ownerId: 'alice', title: 'Water plants', done: false })
  await todoStore.create({ ownerId: 'alice', title: 'Old chore', done: true })
  bobTodoId = (await todoStore.create({ ownerId: 'bob', title: 'Bob only', done: false })).todoId
  alice = await mcp.connect(await mcp.tokenFor('alice'))
  anonymous = await mcp.connect()
})
after(() => mcp.stop())

/** The JSON-RPC error object an error result carries as its one text item. */
const errorOf = (result: Awaited<ReturnType<Client['callTool']>>) => {
  assert.equal(result.isError, true)
  const content = result.content as Array<{ type: string; text: string }>
  assert.equal(content.length, 1)
  return JSON.parse(content[0].text) as { code: number; message: string; data?: { message: string } }
}

/** The McpError a request was rejected with. */
const rejection = async (promise: Promise<unknown>): Promise<McpError> => {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof McpError, `expected an McpError, got ${String(error)}`)
    return error
  }
  assert.fail('the request succeeded')
}

const toolText = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text: string }>).map((item) => item.text)

test('tools-listed: tools/list names both tools with their description; titles are not sent', async () => {
  const { tools } = await alice.listTools()
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['countOpenTodos', 'listOpenTodos'],
  )
  const listOpen = tools.find((tool) => tool.name === 'listOpenTodos')!
  assert.equal(listOpen.description, "List the caller's to-dos that are not done yet, with their ids and due dates")
  assert.equal(
    tools.find((tool) => tool.name === 'countOpenTodos')!.description,
    "Count the caller's open to-dos and how many of them are past their due date",
  )
  // Both functions set a title in code; mcp.gen.json (CLI 0.12.113) has no title field, so none reaches the client.
  assert.equal(listOpen.title, undefined)
  assert.equal(tools.find((tool) => tool.name === 'countOpenTodos')!.title, undefined)
  // A tool without input is listed with the bare object schema.
  assert.deepEqual(listOpen.inputSchema, { type: 'object' })
})

test('mcp-true-json-text: a function with mcp: true answers one text item holding its JSON output', async () => {
  const result = await alice.callTool({ name: 'countOpenTodos', arguments: {} })
  assert.equal(result.isError, false)
  assert.deepEqual(result.content, [{ type: 'text', text: '{"open":2,"overdue":1}' }])
})

test('tool-func-content: a pikkuMCPToolFunc answers the content it returns, via rpc.invoke with the caller session', async () => {
  const result = await alice.callTool({ name: 'listOpenTodos', arguments: {} })
  assert.equal(result.isError, false)
  const [text] = toolText(result)
  assert.match(text, /^- .+: Buy milk \(due 2020-01-01T00:00:00\.000Z\)\n- .+: Water plants$/)
  assert.doesNotMatch(text, /Bob only|Old chore/)
})

test('tool-image-needs-mime-type: a tool answering { type: image, data } without a mimeType is refused with -32602; with one it passes', async () => {
  // Two probe tools registered the way the generated metadata registers a pikkuMCPToolFunc (outputSchema MCPToolResponse).
  const toolsMeta = pikkuState(null, 'mcp', 'toolsMeta') as Record<string, unknown>
  const data = Buffer.from('not really a png').toString('base64')
  registerProbe('mcpImageBare', { func: async () => [{ type: 'image', data }] }, { sessionless: true })
  registerProbe('mcpImageTyped', { func: async () => [{ type: 'image', data, mimeType: 'image/png' }] }, { sessionless: true })
  for (const name of ['mcpImageBare', 'mcpImageTyped']) toolsMeta[name] = { pikkuFuncId: name, outputSchema: 'MCPToolResponse' }
  try {
    // The MCP SDK checks the result against its own schema, whose image content requires a mimeType.
    const error = await rejection(anonymous.callTool({ name: 'mcpImageBare', arguments: {} }))
    assert.equal(error.code, -32602)
    assert.match(error.message, /Invalid tools\/call result/)
    const typed = await anonymous.callTool({ name: 'mcpImageTyped', arguments: {} })
    assert.deepEqual(typed.content, [{ type: 'image', data, mimeType: 'image/png' }])
  } finally {
    delete toolsMeta.mcpImageBare
    delete toolsMeta.mcpImageTyped
  }
})

test('tool-void-result-refused: an mcp: true function that returns nothing is refused by the SDK with -32602, not sent as a text item', async () => {
  // The runner wraps output as { type: 'text', text: JSON.stringify(output) }; for undefined that text is undefined.
  const toolsMeta = pikkuState(null, 'mcp', 'toolsMeta') as Record<string, unknown>
  registerProbe('mcpVoidTool', { func: async () => undefined }, { sessionless: true })
  registerProbe('mcpNullTool', { func: async () => null }, { sessionless: true })
  toolsMeta.mcpVoidTool = { pikkuFuncId: 'mcpVoidTool' }
  toolsMeta.mcpNullTool = { pikkuFuncId: 'mcpNullTool' }
  try {
    const error = await rejection(anonymous.callTool({ name: 'mcpVoidTool', arguments: {} }))
    assert.equal(error.code, -32602)
    assert.match(error.message, /Invalid tools\/call result/)
    // null still serializes, as the text "null".
    const nulled = await anonymous.callTool({ name: 'mcpNullTool', arguments: {} })
    assert.deepEqual(nulled.content, [{ type: 'text', text: 'null' }])
  } finally {
    delete toolsMeta.mcpVoidTool
    delete toolsMeta.mcpNullTool
  }
})

test('bearer-per-request: each HTTP request brings its own token; the global authBearer sets the session', async () => {
  const bob = await mcp.connect(await mcp.tokenFor('bob'))
  const result = await bob.callTool({ name: 'countOpenTodos', arguments: {} })
  assert.deepEqual(result.content, [{ type: 'text', text: '{"open":1,"overdue":0}' }])
  // Alice's client on the same server, called after Bob's, still gets her own count.
  const again = await alice.callTool({ name: 'countOpenTodos', arguments: {} })
  assert.deepEqual(again.content, [{ type: 'text', text: '{"open":2,"overdue":1}' }])
})

test('tool-no-session-32603: without a token, a session tool answers isError with -32603 "Internal error"', async () => {
  const error = errorOf(await anonymous.callTool({ name: 'countOpenTodos', arguments: {} }))
  assert.equal(error.code, -32603)
  assert.equal(error.message, 'Internal error')
  // Outside production the original message rides along as data.
  assert.equal(error.data?.message, 'Authentication required')
})

test('tool-wrapper-no-session: listOpenTodos without a token fails the same way, from listTodos behind rpc.invoke', async () => {
  const error = errorOf(await anonymous.callTool({ name: 'listOpenTodos', arguments: {} }))
  assert.equal(error.code, -32603)
  assert.equal(error.data?.message, 'Authentication required')
})

test('http-middleware-skipped: the session cookie, read by the app\'s addHTTPMiddleware(\'*\') group, does not reach MCP', async () => {
  // src/auth.ts reads todo_session with authCookie in the '*' HTTP group; only the global authBearer runs for MCP.
  const client = await mcp.connect(undefined, { cookie: `todo_session=${await mcp.tokenFor('alice')}` })
  const error = errorOf(await client.callTool({ name: 'countOpenTodos', arguments: {} }))
  assert.equal(error.code, -32603)
  assert.equal(error.data?.message, 'Authentication required')
})

test('tool-unknown-32601: an unknown tool name answers isError with NotFoundError code -32601', async () => {
  const error = errorOf(await alice.callTool({ name: 'deleteEverything', arguments: {} }))
  assert.equal(error.code, -32601)
  assert.equal(error.message, 'The server cannot find the requested resource.')
})

test('tool-error-codes: an error registered with an mcpCode answers that code and its registered message, with no data; the app\'s TodoLimitReachedError, registered without one, answers -32603 "Internal error" with its message in data', async () => {
  class ProbeAlreadyDoneError extends PikkuError {}
  addError(ProbeAlreadyDoneError, { status: 409, message: 'This to-do is already done', mcpCode: -32001 })
  const toolsMeta = pikkuState(null, 'mcp', 'toolsMeta') as Record<string, unknown>
  registerProbe('mcpCodedErrorTool', { func: async () => { throw new ProbeAlreadyDoneError('thrown text') } }, { sessionless: true })
  registerProbe('mcpUncodedErrorTool', { func: async () => { throw new TodoLimitReachedError('Limit of 3 reached') } }, { sessionless: true })
  toolsMeta.mcpCodedErrorTool = { pikkuFuncId: 'mcpCodedErrorTool' }
  toolsMeta.mcpUncodedErrorTool = { pikkuFuncId: 'mcpUncodedErrorTool' }
  try {
    const coded = errorOf(await anonymous.callTool({ name: 'mcpCodedErrorTool', arguments: {} }))
    assert.equal(coded.code, -32001)
    assert.equal(coded.message, 'This to-do is already done')
    assert.equal(coded.data, undefined)
    const uncoded = errorOf(await anonymous.callTool({ name: 'mcpUncodedErrorTool', arguments: {} }))
    assert.equal(uncoded.code, -32603)
    assert.equal(uncoded.message, 'Internal error')
    assert.equal(uncoded.data?.message, 'Limit of 3 reached')
  } finally {
    delete toolsMeta.mcpCodedErrorTool
    delete toolsMeta.mcpUncodedErrorTool
    ;(pikkuState(null, 'misc', 'errors') as Map<unknown, unknown>).delete(ProbeAlreadyDoneError)
  }
})

test('tool-bad-token-32603: a token the jwt service cannot decode makes the call fail with -32603', async () => {
  const client = await mcp.connect('not-a-jwt')
  const error = errorOf(await client.callTool({ name: 'countOpenTodos', arguments: {} }))
  assert.equal(error.code, -32603)
  assert.equal(error.message, 'Internal error')
  // The decode error from authBearer's jwt service, not the runner's "Authentication required".
  assert.equal(error.data?.message, 'Invalid Token or Protected Header formatting')
})

test('resource-template-listed: a templated resource is listed under resources/templates/list, not resources/list', async () => {
  const { resources } = await alice.listResources()
  assert.deepEqual(resources, [])
  const { resourceTemplates } = await alice.listResourceTemplates()
  assert.equal(resourceTemplates.length, 1)
  const [template] = resourceTemplates
  assert.equal(template.uriTemplate, 'todos://items/{todoId}')
  assert.equal(template.description, 'Title, status and due date of one of your to-dos')
  // The wiring's title and mimeType are not in mcp.gen.json: the title listed is the URI template, no mimeType.
  assert.equal(template.title, 'todos://items/{todoId}')
  assert.equal(template.mimeType, undefined)
  // Neither generated file keeps the wiring's mimeType ('text/plain' in src/wirings/todos.mcp.ts); the runtime
  // metadata keeps the title, the descriptor does not.
  const mcpJSON = (await import('#pikku/mcp/mcp.gen.json', { with: { type: 'json' } })).default
  const descriptor = mcpJSON.resources.find((resource) => resource.uri === 'todos://items/{todoId}') as Record<string, unknown>
  assert.equal('mimeType' in descriptor, false)
  assert.equal('title' in descriptor, false)
  const meta = (pikkuState(null, 'mcp', 'resourcesMeta') as Record<string, Record<string, unknown>>)['todos://items/{todoId}']
  assert.equal('mimeType' in meta, false)
  assert.equal(meta.title, 'To-do details')
})

test('resource-read: reading a concrete URI fills the template parameter and answers { uri, text } contents', async () => {
  const { contents } = await alice.readResource({ uri: `todos://items/${aliceTodoId}` })
  assert.deepEqual(contents, [
    { uri: `todos://items/${aliceTodoId}`, text: 'Title: Buy milk\nDone: no\nDue: 2020-01-01T00:00:00.000Z' },
  ])
})

test('resource-permission-32603: reading another user to-do is a JSON-RPC error -32603, "Permission denied" in data', async () => {
  const error = await rejection(alice.readResource({ uri: `todos://items/${bobTodoId}` }))
  assert.equal(error.code, -32603)
  assert.equal((error.data as { message: string }).message, 'Permission denied')
})

test('resource-no-session-32603: a resource read without a token is a JSON-RPC error -32603', async () => {
  const error = await rejection(anonymous.readResource({ uri: `todos://items/${aliceTodoId}` }))
  assert.equal(error.code, -32603)
  assert.equal((error.data as { message: string }).message, 'Authentication required')
})

test('resource-unknown-32601: a URI no resource or template matches is a JSON-RPC error -32601', async () => {
  const error = await rejection(alice.readResource({ uri: 'projects://everything' }))
  assert.equal(error.code, -32601)
  // A template parameter cannot hold a '/': todos://items/a/b matches nothing either.
  assert.equal((await rejection(alice.readResource({ uri: 'todos://items/a/b' }))).code, -32601)
})

test('resource-param-not-decoded: a percent-encoded slash matches one template segment and reaches the function still encoded', async () => {
  const { todoStore } = mcp.services
  const get = todoStore.get
  const asked: string[] = []
  todoStore.get = function (this: unknown, todoId: string) {
    asked.push(todoId)
    return get.call(this, todoId)
  }
  try {
    const error = await rejection(alice.readResource({ uri: 'todos://items/a%2Fb' }))
    // The template matched (the NotFoundError is getTodo's), and the id it was given is the encoded text.
    assert.equal(error.code, -32601)
    assert.ok(asked.length > 0)
    assert.ok(asked.every((todoId) => todoId === 'a%2Fb'), asked.join(', '))
  } finally {
    todoStore.get = get
  }
})

test('resource-missing-todo-32601: getTodo\'s NotFoundError, reached through a resource read, is JSON-RPC error -32601', async () => {
  // isTodoOwner lets a missing to-do through, so the NotFoundError comes from getTodo itself, not from the runner.
  const error = await rejection(alice.readResource({ uri: 'todos://items/no-such-todo' }))
  assert.equal(error.code, -32601)
})

test('prompt-listed: prompts/list shows planDay with focus as an optional argument described "focus parameter"', async () => {
  const { prompts } = await alice.listPrompts()
  assert.deepEqual(prompts, [
    {
      name: 'planDay',
      description: 'Draft a plan for the day from your open to-dos',
      arguments: [{ name: 'focus', description: 'focus parameter', required: false }],
    },
  ])
})

test('prompt-get: prompts/get answers the messages the function returns, from the caller list', async () => {
  const { messages } = await alice.getPrompt({ name: 'planDay', arguments: { focus: 'quick-wins' } })
  assert.deepEqual(messages, [
    {
      role: 'user',
      content: {
        type: 'text',
        text: [
          'Help me plan my day. These are my open to-dos:',
          '- Buy milk (due 2020-01-01T00:00:00.000Z)',
          '- Water plants',
          'Start with what I can finish fast.',
        ].join('\n'),
      },
    },
  ])
})

test('prompt-invalid-32603: an argument outside its schema is a JSON-RPC error -32603 "Internal error", with no data', async () => {
  const error = await rejection(alice.getPrompt({ name: 'planDay', arguments: { focus: 'someday' } }))
  assert.equal(error.code, -32603)
  assert.equal(error.message, 'MCP error -32603: Internal error')
  assert.equal(error.data, undefined)
})

test('prompt-unknown-32603: an unknown prompt name is -32603 "Prompt not found", not -32601', async () => {
  const error = await rejection(alice.getPrompt({ name: 'planWeek' }))
  assert.equal(error.code, -32603)
  assert.equal(error.message, 'MCP error -32603: Prompt not found: planWeek')
})

test('prompt-mcp-code-lost: a prompt error registered with an mcpCode (NotFoundError, -32601) still reaches the client as -32603, with the registered message', async () => {
  // Metadata with no wireMCPPrompt registration: the runner throws NotFoundError.
  const promptsMeta = pikkuState(null, 'mcp', 'promptsMeta') as Record<string, unknown>
  promptsMeta.mcpUnwiredPrompt = { pikkuFuncId: 'planDayPrompt', name: 'mcpUnwiredPrompt', description: 'probe', arguments: [] }
  try {
    const error = await rejection(alice.getPrompt({ name: 'mcpUnwiredPrompt' }))
    assert.equal(error.code, -32603)
    assert.equal(error.message, 'MCP error -32603: The server cannot find the requested resource.')
  } finally {
    delete promptsMeta.mcpUnwiredPrompt
  }
})

test('prompt-no-session-32603: planDay without a token is -32603 "Internal error"', async () => {
  const error = await rejection(anonymous.getPrompt({ name: 'planDay' }))
  assert.equal(error.code, -32603)
})

test('prompt-role-and-image-refused: prompts answering a system message, or an image without a mimeType, are refused by the SDK client', async () => {
  // Probe prompts registered the way the generated metadata and wireMCPPrompt register one.
  const promptsMeta = pikkuState(null, 'mcp', 'promptsMeta') as Record<string, unknown>
  const prompts = pikkuState(null, 'mcp', 'prompts') as Map<string, unknown>
  const data = Buffer.from('not really a png').toString('base64')
  const probes: Record<string, unknown[]> = {
    mcpSystemPrompt: [{ role: 'system', content: { type: 'text', text: 'You are a planner.' } }],
    mcpImagePrompt: [{ role: 'user', content: { type: 'image', text: '', data } }],
  }
  for (const [name, messages] of Object.entries(probes)) {
    registerProbe(name, { func: async () => messages }, { sessionless: true })
    promptsMeta[name] = { pikkuFuncId: name, name, description: 'probe', arguments: [] }
    prompts.set(name, { name, description: 'probe', func: { func: async () => messages } })
  }
  const refusal = (name: string) =>
    alice.getPrompt({ name }).then(
      () => assert.fail(`${name} was accepted`),
      (error: unknown) => error as Error,
    )
  try {
    // The server sends the messages as returned; the client checks them against the MCP schema and throws.
    const role = await refusal('mcpSystemPrompt')
    assert.ok(!(role instanceof McpError), `expected a client-side validation error, got ${String(role)}`)
    assert.match(role.message, /"role"/)
    assert.match(role.message, /"user",\s*"assistant"/)
    const image = await refusal('mcpImagePrompt')
    assert.ok(!(image instanceof McpError), `expected a client-side validation error, got ${String(image)}`)
    assert.match(image.message, /"mimeType"/)
  } finally {
    for (const name of Object.keys(probes)) {
      delete promptsMeta[name]
      prompts.delete(name)
    }
  }
})

/** A second PikkuMCPServer with the given capabilities, connected in memory to an SDK client: a connection the
 * server holds for its whole life, as stdio is. */
const heldConnection = async (capabilities: Record<string, object>, clientName: string) => {
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js')
  const { Client: SdkClient } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { PikkuMCPServer } = await import('@pikku/modelcontextprotocol')
  const mcpJSON = (await import('#pikku/mcp/mcp.gen.json', { with: { type: 'json' } })).default
  const server = new PikkuMCPServer(
    { ...(mcp.services.config as object), name: 'todo-app', version: '1.0.0', mcpJSON, capabilities } as never,
    mcp.services.logger,
  )
  await server.init()
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new SdkClient({ name: clientName, version: '1.0.0' })
  await client.connect(clientSide)
  return { server, client: client as Client }
}

// wire.mcp is the object PikkuMCPServer builds with its private createMCPService; no function of the app calls the
// enable* methods, so the test takes the same object the server hands to functions.
const wireMCP = () =>
  (mcp.server as any).createMCPService({
    sendToolListChanged: async () => {},
    sendPromptListChanged: async () => {},
    sendResourceListChanged: async () => {},
  }) as {
    enableTools: (m: Record<string, boolean>) => Promise<boolean>
    enablePrompts: (m: Record<string, boolean>) => Promise<boolean>
    enableResources: (m: Record<string, boolean>) => Promise<boolean>
  }

test('enable-prompts-toggles-tools: enablePrompts switches tools, and leaves prompts listed (0.12.10 defect)', async () => {
  const wire = wireMCP()
  try {
    assert.equal(await wire.enablePrompts({ planDay: false }), false)
    assert.deepEqual(
      (await alice.listPrompts()).prompts.map((prompt) => prompt.name),
      ['planDay'],
    )
    assert.equal(await wire.enablePrompts({ countOpenTodos: false }), true)
    assert.deepEqual(
      (await alice.listTools()).tools.map((tool) => tool.name),
      ['listOpenTodos'],
    )
  } finally {
    await wire.enableTools({ countOpenTodos: true })
  }
})

test('disabled-tool-callable: a tool switched off with enableTools leaves tools/list but still answers tools/call', async () => {
  const wire = wireMCP()
  try {
    assert.equal(await wire.enableTools({ countOpenTodos: false }), true)
    assert.deepEqual(
      (await alice.listTools()).tools.map((tool) => tool.name),
      ['listOpenTodos'],
    )
    const result = await alice.callTool({ name: 'countOpenTodos', arguments: {} })
    assert.equal(result.isError, false)
  } finally {
    await wire.enableTools({ countOpenTodos: true })
  }
})

test('enable-resources-listing-unchanged: enableResources reports a change but the resource stays listed', async () => {
  const wire = wireMCP()
  try {
    assert.equal(await wire.enableResources({ 'todos://items/{todoId}': false }), true)
    const { resourceTemplates } = await alice.listResourceTemplates()
    assert.deepEqual(
      resourceTemplates.map((template) => template.uriTemplate),
      ['todos://items/{todoId}'],
    )
  } finally {
    await wire.enableResources({ 'todos://items/{todoId}': true })
  }
})

// Registers a sessionless probe tool the way the generated metadata registers a pikkuMCPToolFunc; the function it
// returns unregisters the tool's metadata.
const registerToolProbe = (name: string, func: (services: unknown, data: unknown, wire: any) => Promise<unknown>) => {
  const toolsMeta = pikkuState(null, 'mcp', 'toolsMeta') as Record<string, unknown>
  registerProbe(name, { func }, { sessionless: true })
  toolsMeta[name] = { pikkuFuncId: name, outputSchema: 'MCPToolResponse' }
  return () => void delete toolsMeta[name]
}

// Calls a tool that must succeed, then makes two round trips: a notification the server sent during the call has
// reached the client's handlers by the time the second ping answers (messages arrive in the order they were sent).
const callAndSettle = async (client: Client, name: string) => {
  const result = await client.callTool({ name, arguments: {} })
  assert.equal(result.isError, false)
  await client.ping()
  await client.ping()
}

test('resource-updated-http-dropped: sendResourceUpdated from a tool reaches a client over a held connection, never over HTTP', async () => {
  const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
  // A probe tool that calls wire.mcp.
  const removeTool = registerToolProbe('mcpResourceUpdatedProbe', async (_services, _data, { mcp: wireMcp }) => {
    await wireMcp.sendResourceUpdated('todos://items/t_42')
    return [{ type: 'text', text: 'sent' }]
  })
  const updatesOf = async (client: Client) => {
    const uris: string[] = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void uris.push(notification.params.uri))
    await callAndSettle(client, 'mcpResourceUpdatedProbe')
    return uris
  }
  try {
    // Over HTTP the call succeeds, but each request gets a server of its own and the notification goes nowhere.
    const overHTTP = await mcp.connect()
    assert.deepEqual(await updatesOf(overHTTP), [])
    // Over a connection the server holds (as stdio is), the same call notifies the client.
    const { client: held } = await heldConnection({ tools: {}, resources: {} }, 'resource-updated-probe')
    try {
      assert.deepEqual(await updatesOf(held), ['todos://items/t_42'])
    } finally {
      await held.close()
    }
  } finally {
    removeTool()
  }
})

test('http-stateless: connectHTTP answers 404 off its path and issues no MCP session id', async () => {
  const offPath = await fetch(mcp.url.replace(/\/mcp$/, '/other'), { method: 'POST' })
  assert.equal(offPath.status, 404)
  const initialize = await fetch(mcp.url, initializeInit())
  assert.equal(initialize.status, 200)
  assert.equal(initialize.headers.get('mcp-session-id'), null)
  await initialize.body?.cancel()
})

test('runner-jsonrpc-version: runMCPTool refuses a request whose jsonrpc is not "2.0" with BadRequestError, code -32600', async () => {
  const { runMCPTool, MCPError } = await import('@pikku/core/mcp')
  const error = await runMCPTool({ jsonrpc: '1.0', id: 7, params: {} } as never, {}, 'countOpenTodos').catch((e) => e)
  assert.ok(error instanceof MCPError)
  assert.equal(error.error.code, -32600)
  assert.equal(error.error.id, 7)
})

test('runner-unknown-tool: runMCPTool for a name with no tool throws an MCPError with code -32601', async () => {
  const { runMCPTool, MCPError } = await import('@pikku/core/mcp')
  const error = await runMCPTool({ jsonrpc: '2.0', id: 8, params: {} }, {}, 'deleteEverything').catch((e) => e)
  assert.ok(error instanceof MCPError)
  assert.equal(error.error.code, -32601)
})

test('runner-resolves-id-result: runMCPTool resolves with the request id and the tool result', async () => {
  const { runMCPTool } = await import('@pikku/core/mcp')
  // A sessionless probe tool registered the way the generated metadata registers a function with mcp: true.
  const toolsMeta = pikkuState(null, 'mcp', 'toolsMeta') as Record<string, unknown>
  registerProbe('mcpRunnerProbe', { func: async () => ({ ok: true }) }, { sessionless: true })
  toolsMeta.mcpRunnerProbe = { pikkuFuncId: 'mcpRunnerProbe' }
  try {
    const answer = await runMCPTool({ jsonrpc: '2.0', id: 9, params: {} }, {}, 'mcpRunnerProbe')
    assert.deepEqual(answer, { id: 9, result: [{ type: 'text', text: '{"ok":true}' }] })
  } finally {
    delete toolsMeta.mcpRunnerProbe
  }
})

test('runner-needs-singleton-services: before the singleton services exist, runMCPTool throws a plain Error, not an MCPError', async () => {
  const { runMCPTool, MCPError } = await import('@pikku/core/mcp')
  const services = pikkuState(null, 'package', 'singletonServices')
  pikkuState(null, 'package', 'singletonServices', null as never)
  try {
    await assert.rejects(runMCPTool({ jsonrpc: '2.0', id: 1, params: {} }, {}, 'countOpenTodos'), (e: Error) => {
      assert.ok(!(e instanceof MCPError))
      assert.equal(e.message, 'Singleton services not initialized')
      return true
    })
  } finally {
    pikkuState(null, 'package', 'singletonServices', services)
  }
})

test('connect-twice-throws: a second connect() on the same PikkuMCPServer throws "MCP server is already connected"', async () => {
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js')
  const [first] = InMemoryTransport.createLinkedPair()
  const [second] = InMemoryTransport.createLinkedPair()
  await mcp.server.connect(first)
  await assert.rejects(mcp.server.connect(second), { message: 'MCP server is already connected' })
})

test('mcp-logger-needs-logging-capability: createMCPLogger() reaches the client only when logging is among the capabilities; without it each line is dropped, with no error', async () => {
  const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const received = async (capabilities: Record<string, object>) => {
    const { server, client } = await heldConnection(capabilities, 'logging-probe')
    const logs: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data))
    try {
      server.createMCPLogger().warn('probe line')
      // A round trip after the log line: a notification sent before it has arrived by the time the ping answers.
      await client.ping()
      await client.ping()
      return logs
    } finally {
      await client.close()
    }
  }
  assert.deepEqual(await received({ logging: {}, tools: {} }), ['probe line'])
  assert.deepEqual(await received({ tools: {} }), [])
})

/** The real entry file as a child process, as a desktop assistant starts it (no --http: stdio), and an SDK client. */
const stdioClient = async (name: string) => {
  const { Client: StdioClient } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js')
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/runtimes/mcp.ts'],
    cwd: new URL('../../', import.meta.url).pathname,
    stderr: 'pipe',
  })
  return { client: new StdioClient({ name, version: '1.0.0' }), transport }
}

test('stdio-anonymous: src/runtimes/mcp.ts over stdio lists the tools, answers session tools with -32603, logs to the client', async () => {
  const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const { client, transport } = await stdioClient('behaviour-stdio')
  const logs: Array<{ level: string; data: unknown }> = []
  let logged!: () => void
  const warned = new Promise<void>((resolve) => (logged = resolve))
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params)
    if (notification.params.level === 'warning') logged()
  })
  try {
    await client.connect(transport)
    assert.deepEqual(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['countOpenTodos', 'listOpenTodos'],
    )
    const error = errorOf(await client.callTool({ name: 'countOpenTodos', arguments: {} }))
    assert.equal(error.code, -32603)
    assert.equal(error.message, 'Internal error')
    assert.equal(error.data?.message, 'Authentication required')
    // After connectStdio the services' logger is createMCPLogger(): log lines reach the client as notifications.
    await warned
    assert.ok(logs.some((log) => log.level === 'warning' && /Got error without a mapping/.test(String(log.data))))
  } finally {
    await client.close()
  }
})

test('stdio-anonymous-all: over stdio listOpenTodos, a resource read and planDay fail too, with -32603 and "Authentication required" where data is sent', async () => {
  const { client, transport } = await stdioClient('behaviour-stdio-all')
  try {
    await client.connect(transport)
    const tool = errorOf(await client.callTool({ name: 'listOpenTodos', arguments: {} }))
    assert.equal(tool.code, -32603)
    assert.equal(tool.data?.message, 'Authentication required')
    const resource = await rejection(client.readResource({ uri: 'todos://items/t_1' }))
    assert.equal(resource.code, -32603)
    assert.equal((resource.data as { message: string }).message, 'Authentication required')
    const prompt = await rejection(client.getPrompt({ name: 'planDay' }))
    assert.equal(prompt.code, -32603)
  } finally {
    await client.close()
  }
})

test('resource-template-regex: a template is matched as a regular expression, so one with a query string never matches its own URIs', async () => {
  // A probe resource registered the way the generated metadata and wireMCPResource register one.
  const template = 'todos://search?q={q}'
  const resources = pikkuState(null, 'mcp', 'resources') as Map<string, unknown>
  const resourcesMeta = pikkuState(null, 'mcp', 'resourcesMeta') as Record<string, unknown>
  const asked: unknown[] = []
  registerProbe(
    'mcpTemplateRegexProbe',
    {
      func: async (_services: unknown, data: { q: string }) => {
        asked.push(data.q)
        return [{ uri: 'todos://search', text: data.q }]
      },
    },
    { sessionless: true },
  )
  resourcesMeta[template] = { pikkuFuncId: 'mcpTemplateRegexProbe', uri: template }
  resources.set(template, { uri: template, title: 'Search', description: 'Search', func: {} })
  try {
    // The '?' of the template makes the 'h' before it optional instead of matching a '?': the URI the
    // template describes is not found...
    const error = await rejection(alice.readResource({ uri: 'todos://search?q=milk' }))
    assert.equal(error.code, -32601)
    // ...while a URI without the '?' and the 'h' is read through it.
    const { contents } = await alice.readResource({ uri: 'todos://searcq=milk' })
    assert.deepEqual(contents, [{ uri: 'todos://search', text: 'milk' }])
    assert.deepEqual(asked, ['milk'])
  } finally {
    resources.delete(template)
    delete resourcesMeta[template]
  }
})

/** Registers `name` as a sessionless MCP tool whose function throws `Error('database is down')`; returns the tools metadata to delete it from. */
const registerFailingTool = (name: string, fail: () => Error = () => new Error('database is down')) => {
  const toolsMeta = pikkuState(null, 'mcp', 'toolsMeta') as Record<string, unknown>
  registerProbe(
    name,
    {
      func: async () => {
        throw fail()
      },
    },
    { sessionless: true },
  )
  toolsMeta[name] = { pikkuFuncId: name }
  return toolsMeta
}

test('error-log-class-only: the server logs a failed MCP call with the error class only; its message is in data, outside production', async () => {
  const toolsMeta = registerFailingTool('mcpFailingProbe')
  const { logger } = mcp.services
  const error = logger.error
  const logged: unknown[][] = []
  logger.error = (...args: unknown[]) => void logged.push(args)
  try {
    const result = await alice.callTool({ name: 'mcpFailingProbe', arguments: {} })
    const sent = errorOf(result)
    assert.equal(sent.code, -32603)
    assert.equal(sent.data?.message, 'database is down')
    const line = logged.find((args) => String(args[0]).includes('mcpFailingProbe'))
    assert.ok(line, 'the runner logs the failure')
    assert.deepEqual(line, ["Error running MCP tool 'mcpFailingProbe':", Error])
    assert.ok(!JSON.stringify(logged.map((args) => args.map(String))).includes('database is down'))
  } finally {
    logger.error = error
    delete toolsMeta.mcpFailingProbe
  }
})

test('error-log-registered-warning: for a registered error without an mcpCode the runner also warns with the registered message, never the thrown one', async () => {
  const toolsMeta = registerFailingTool('mcpForbiddenProbe', () => new ForbiddenError('secret detail'))
  const { logger } = mcp.services
  const { error, warn } = logger
  const logged: unknown[][] = []
  logger.error = (...args: unknown[]) => void logged.push(args)
  logger.warn = (...args: unknown[]) => void logged.push(args)
  try {
    const sent = errorOf(await alice.callTool({ name: 'mcpForbiddenProbe', arguments: {} }))
    assert.equal(sent.code, -32603)
    assert.equal(sent.data?.message, 'secret detail')
    assert.deepEqual(logged.find((args) => String(args[0]).includes('mcpForbiddenProbe')), ["Error running MCP tool 'mcpForbiddenProbe':", ForbiddenError])
    assert.ok(logged.some((args) => args[0] === 'Got error without a mapping: The client does not have permission to access the requested resource.'))
    assert.ok(!JSON.stringify(logged.map((args) => args.map(String))).includes('secret detail'))
  } finally {
    logger.error = error
    logger.warn = warn
    delete toolsMeta.mcpForbiddenProbe
  }
})

test('tool-error-data-production: with NODE_ENV=production a tool\'s error result keeps its code and message but leaves out data', async () => {
  const toolsMeta = registerFailingTool('mcpProductionProbe')
  try {
    const outside = errorOf(await alice.callTool({ name: 'mcpProductionProbe', arguments: {} }))
    assert.equal(outside.data?.message, 'database is down')
    const sent = await withEnv({ NODE_ENV: 'production' }, async () => errorOf(await alice.callTool({ name: 'mcpProductionProbe', arguments: {} })))
    assert.equal(sent.code, -32603)
    assert.equal(sent.message, outside.message)
    assert.equal('data' in sent, false)
  } finally {
    delete toolsMeta.mcpProductionProbe
  }
})

test('mcp-logger-http-throws: createMCPLogger() on a server started with connectHTTP has no connection to send on, and its first line throws a TypeError', async () => {
  const { PikkuMCPServer } = await import('@pikku/modelcontextprotocol')
  const { freePort } = await import('./harness/services.js')
  const mcpJSON = (await import('#pikku/mcp/mcp.gen.json', { with: { type: 'json' } })).default
  const server = new PikkuMCPServer(
    {
      ...(mcp.services.config as object),
      name: 'todo-app',
      version: '1.0.0',
      mcpJSON,
      capabilities: { logging: {}, tools: {} },
    } as never,
    mcp.services.logger,
  )
  await server.init()
  // The listener only: the returned close() would also stop the singleton services the other tests share.
  const { httpServer } = await server.connectHTTP({ port: await freePort(), path: '/mcp' })
  try {
    const logger = server.createMCPLogger()
    assert.throws(() => logger.info('probe line'), TypeError)
  } finally {
    await new Promise((resolve) => httpServer.close(resolve))
  }
})

/** A second PikkuMCPServer over the app's descriptor and services, initialised but not connected. */
const unconnectedServer = async () => {
  const { PikkuMCPServer } = await import('@pikku/modelcontextprotocol')
  const mcpJSON = (await import('#pikku/mcp/mcp.gen.json', { with: { type: 'json' } })).default
  const server = new PikkuMCPServer(
    { ...(mcp.services.config as object), name: 'todo-app', version: '1.0.0', mcpJSON, capabilities: { logging: {}, tools: {} } } as never,
    mcp.services.logger,
  )
  await server.init()
  return server
}

/** The request options of a raw MCP initialize POST. */
const initializeInit = (): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  }),
})

/** The status of an MCP initialize request posted to the URL. */
const initializeStatus = async (url: string) => {
  const response = await fetch(url, initializeInit())
  await response.body?.cancel()
  return response.status
}

test('mcp-logger-without-held-connection-throws: createMCPLogger() before any connect, or on a server that only hands out createHTTPRequestHandler() and createFetchHandler(), throws a TypeError on its first line, even after each handler has served a request', async () => {
  const { createServer } = await import('node:http')
  const { freePort } = await import('./harness/services.js')
  const server = await unconnectedServer()
  assert.throws(() => server.createMCPLogger().info('before connect'), TypeError)
  // Each handler builds a server for the request it serves and keeps none of them.
  const { handler: fetchHandler } = server.createFetchHandler({ path: '/mcp' })
  const viaFetch = await fetchHandler(new Request('http://localhost/mcp', initializeInit()))
  assert.equal(viaFetch.status, 200)
  await viaFetch.body?.cancel()
  const port = await freePort()
  const httpServer = createServer(server.createHTTPRequestHandler({ path: '/mcp' }).handler)
  await new Promise<void>((resolve) => httpServer.listen(port, '127.0.0.1', resolve))
  try {
    assert.equal(await initializeStatus(`http://127.0.0.1:${port}/mcp`), 200)
  } finally {
    httpServer.closeAllConnections()
    await new Promise((resolve) => httpServer.close(resolve))
  }
  assert.throws(() => server.createMCPLogger().warn('after the handlers'), TypeError)
})

test('http-request-handler-mount: createHTTPRequestHandler({ path }) returns only { handler }, a (req, res) function that serves MCP on that path of a server you run and answers 404 elsewhere', async () => {
  const { createServer } = await import('node:http')
  const { freePort } = await import('./harness/services.js')
  const server = await unconnectedServer()
  const mounted = server.createHTTPRequestHandler({ path: '/agents' })
  assert.deepEqual(Object.keys(mounted), ['handler'])
  assert.equal(mounted.handler.length, 2)
  const port = await freePort()
  const httpServer = createServer(mounted.handler)
  await new Promise<void>((resolve) => httpServer.listen(port, '127.0.0.1', resolve))
  try {
    assert.equal(await initializeStatus(`http://127.0.0.1:${port}/agents`), 200)
    assert.equal(await initializeStatus(`http://127.0.0.1:${port}/mcp`), 404)
  } finally {
    httpServer.closeAllConnections()
    await new Promise((resolve) => httpServer.close(resolve))
  }
})

test('connect-http-defaults: connectHTTP without host or path listens on 127.0.0.1 and serves /mcp, and returns { httpServer, close }', async () => {
  const { freePort } = await import('./harness/services.js')
  const server = await unconnectedServer()
  const port = await freePort()
  const started = await server.connectHTTP({ port })
  // The listener only: the returned close() would also stop the singleton services the other tests share.
  try {
    assert.deepEqual(Object.keys(started).sort(), ['close', 'httpServer'])
    assert.equal((started.httpServer.address() as { address: string }).address, '127.0.0.1')
    assert.equal(await initializeStatus(`http://127.0.0.1:${port}/mcp`), 200)
  } finally {
    started.httpServer.closeAllConnections()
    await new Promise((resolve) => started.httpServer.close(resolve))
  }
})

test('list-changed-notifications: a change made with enableTools or enablePrompts is announced over a held connection, never over HTTP; enablePrompts announces prompts while it changed a tool', async () => {
  const { ToolListChangedNotificationSchema, PromptListChangedNotificationSchema } = await import(
    '@modelcontextprotocol/sdk/types.js'
  )
  // A probe tool that switches countOpenTodos off through enablePrompts (the 0.12.10 defect) and back on through
  // enableTools, so each server's switches end as they started.
  const removeTool = registerToolProbe('mcpListChangedProbe', async (_services, _data, { mcp: wireMcp }) => {
    assert.equal(await wireMcp.enablePrompts({ countOpenTodos: false }), true)
    assert.equal(await wireMcp.enableTools({ countOpenTodos: true }), true)
    return [{ type: 'text', text: 'switched' }]
  })
  const noticesOf = async (client: Client) => {
    const notices: string[] = []
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notices.push('tools'))
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void notices.push('prompts'))
    await callAndSettle(client, 'mcpListChangedProbe')
    return notices
  }
  try {
    assert.deepEqual(await noticesOf(await mcp.connect()), [])
    const { client: held } = await heldConnection({ tools: {}, prompts: {} }, 'list-changed-probe')
    try {
      assert.deepEqual(await noticesOf(held), ['prompts', 'tools'])
    } finally {
      await held.close()
    }
  } finally {
    removeTool()
  }
})

test('string-only-params: a template parameter or prompt argument typed as a number is never accepted: URIs and prompt arguments carry strings, and MCP calls are validated without coercion', async () => {
  // A probe resource and a probe prompt whose input declares a number, registered the way the generated metadata
  // and the wirings register them, with the input's JSON Schema compiled into the app's schema service.
  const schemaName = 'McpNumberProbeInput'
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false }
  const schemas = pikkuState(null, 'misc', 'schemas') as Map<string, unknown>
  const resources = pikkuState(null, 'mcp', 'resources') as Map<string, unknown>
  const resourcesMeta = pikkuState(null, 'mcp', 'resourcesMeta') as Record<string, unknown>
  const prompts = pikkuState(null, 'mcp', 'prompts') as Map<string, unknown>
  const promptsMeta = pikkuState(null, 'mcp', 'promptsMeta') as Record<string, unknown>
  const ran: unknown[] = []
  registerProbe(
    'mcpNumberResourceProbe',
    {
      func: async (_services: unknown, data: { n: number }) => {
        ran.push(data.n)
        return [{ uri: `probe://numbers/${data.n}`, text: String(data.n) }]
      },
    },
    { sessionless: true, inputSchemaName: schemaName },
  )
  registerProbe(
    'mcpNumberPromptProbe',
    {
      func: async (_services: unknown, data: { n: number }) => {
        ran.push(data.n)
        return [{ role: 'user', content: { type: 'text', text: String(data.n) } }]
      },
    },
    { sessionless: true, inputSchemaName: schemaName },
  )
  schemas.set(schemaName, schema)
  // The compiled validator stays in the schema service under this name, which nothing else uses.
  await mcp.services.schema!.compileSchema(schemaName, schema)
  const template = 'probe://numbers/{n}'
  resourcesMeta[template] = { pikkuFuncId: 'mcpNumberResourceProbe', uri: template, inputSchema: schemaName }
  resources.set(template, { uri: template, title: 'Number', description: 'Number', func: {} })
  promptsMeta.mcpNumberPrompt = { pikkuFuncId: 'mcpNumberPromptProbe', name: 'mcpNumberPrompt', arguments: [] }
  prompts.set('mcpNumberPrompt', { name: 'mcpNumberPrompt', description: 'Number', func: {} })
  try {
    // The URI gives n as the string '42', which the schema refuses.
    assert.equal((await rejection(alice.readResource({ uri: 'probe://numbers/42' }))).code, -32603)
    // A prompt argument sent as a string is refused the same way...
    assert.equal((await rejection(alice.getPrompt({ name: 'mcpNumberPrompt', arguments: { n: '3' } }))).code, -32603)
    // ...and one sent as a number is refused by the MCP SDK's request schema before Pikku sees it, also as -32603.
    const error = await rejection(alice.getPrompt({ name: 'mcpNumberPrompt', arguments: { n: 3 } as never }))
    assert.equal(error.code, -32603)
    assert.match(error.message, /expected string, received number/)
    assert.deepEqual(ran, [])
  } finally {
    resources.delete(template)
    delete resourcesMeta[template]
    prompts.delete('mcpNumberPrompt')
    delete promptsMeta.mcpNumberPrompt
    schemas.delete(schemaName)
  }
})

// Runs check on a server made for one test, whose capabilities hold only tools: over HTTP, then over a held connection.
const onToolsOnlyServer = async (clientName: string, check: (client: Client) => Promise<void>) => {
  const { PikkuMCPServer } = await import('@pikku/modelcontextprotocol')
  const { Client: SdkClient } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  const { freePort } = await import('./harness/services.js')
  const mcpJSON = (await import('#pikku/mcp/mcp.gen.json', { with: { type: 'json' } })).default
  const server = new PikkuMCPServer(
    { ...(mcp.services.config as object), name: 'todo-app', version: '1.0.0', mcpJSON, capabilities: { tools: {} } } as never,
    mcp.services.logger,
  )
  await server.init()
  // The listener only: the returned close() would also stop the singleton services the other tests share.
  const port = await freePort()
  const { httpServer } = await server.connectHTTP({ port, path: '/mcp' })
  const overHTTP = new SdkClient({ name: clientName, version: '1.0.0' })
  try {
    await overHTTP.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
    await check(overHTTP as Client)
    const { client: held } = await heldConnection({ tools: {} }, `${clientName}-held`)
    try {
      await check(held)
    } finally {
      await held.close()
    }
  } finally {
    await overHTTP.close()
    httpServer.closeAllConnections()
    await new Promise((resolve) => httpServer.close(resolve))
  }
}

test('resource-updated-needs-capability: on a server without resources among its capabilities, sendResourceUpdated throws and the tool fails with -32603, over HTTP as over a held connection', async () => {
  // A probe tool that calls wire.mcp.
  const removeTool = registerToolProbe('mcpResourceUpdatedToolsOnlyProbe', async (_services, _data, { mcp: wireMcp }) => {
    await wireMcp.sendResourceUpdated('todos://items/t_42')
    return [{ type: 'text', text: 'sent' }]
  })
  const refusal = async (client: Client) => {
    const sent = errorOf(await client.callTool({ name: 'mcpResourceUpdatedToolsOnlyProbe', arguments: {} }))
    assert.equal(sent.code, -32603)
    assert.match(sent.data?.message ?? '', /Server does not support notifying about resources/)
  }
  try {
    await onToolsOnlyServer('tools-only-probe', refusal)
  } finally {
    removeTool()
  }
})

test('list-changed-needs-capability: on a server without prompts among its capabilities, enablePrompts switches the tool and then throws, so the tool fails with -32603, over HTTP as over a held connection', async () => {
  // A probe tool that switches countOpenTodos off through enablePrompts, on servers made for this test only.
  const removeTool = registerToolProbe('mcpPromptsNoticeToolsOnlyProbe', async (_services, _data, { mcp: wireMcp }) => {
    await wireMcp.enablePrompts({ countOpenTodos: false })
    return [{ type: 'text', text: 'switched' }]
  })
  const refusal = async (client: Client) => {
    const sent = errorOf(await client.callTool({ name: 'mcpPromptsNoticeToolsOnlyProbe', arguments: {} }))
    assert.equal(sent.code, -32603)
    assert.match(sent.data?.message ?? '', /Server does not support notifying of prompt list changes/)
    // The switch was made before the notice was refused.
    assert.deepEqual(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['listOpenTodos'],
    )
  }
  try {
    await onToolsOnlyServer('prompts-notice-probe', refusal)
  } finally {
    removeTool()
  }
})

// Last in the file: the inspector holds the event loop for several seconds, long enough for the kept-alive HTTP
// connections of the shared clients to be reset under the tests that follow it.
test('mcp-wiring-object-literal-only: the inspector records a wireMCPResource or wireMCPPrompt call whose argument is an object literal, and skips one given a variable', async () => {
  const { state } = await inspectFiles('mcp-wiring-literal', {
    'probe.ts': [
      "import { pikkuSessionlessFunc, wireMCPPrompt, wireMCPResource } from '@pikku/core'",
      "export const read = pikkuSessionlessFunc<void, { text: string }>({ func: async () => ({ text: 'x' }) })",
      "export const readTwo = pikkuSessionlessFunc<void, { text: string }>({ func: async () => ({ text: 'y' }) })",
      "wireMCPResource({ uri: 'probe://inline', title: 'Inline', description: 'Inline', func: read })",
      "const resource = { uri: 'probe://variable', title: 'Variable', description: 'Variable', func: readTwo }",
      'wireMCPResource(resource)',
      "wireMCPPrompt({ name: 'inlinePrompt', description: 'Inline', func: read })",
      "const prompt = { name: 'variablePrompt', description: 'Variable', func: readTwo }",
      'wireMCPPrompt(prompt)',
    ].join('\n'),
  })
  const endpoints = (state as any).mcpEndpoints
  assert.deepEqual(Object.keys(endpoints.resourcesMeta), ['probe://inline'])
  assert.deepEqual(Object.keys(endpoints.promptsMeta), ['inlinePrompt'])
})
