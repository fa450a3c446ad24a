// Runtime-page audit: statements of the runtime pages that no other file ran. The to-do app's MCP server
// (PikkuMCPServer from @pikku/modelcontextprotocol 0.12.10, core 0.12.90), started as harness/mcp.ts starts it;
// here its fetch-style handler is called directly with Web Request objects, as a fetch-style host would.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startMCPServer, type RunningMCP } from './harness/mcp.js'
import { collectLogs, waitFor } from './harness/app.js'
import express from 'express'
import type { Server } from 'node:http'
import { pikkuExpressMiddleware } from '@pikku/express-middleware'
import { freePort } from './harness/services.js'

let mcp: RunningMCP
let handler: (request: Request) => Promise<Response>

before(async () => {
  mcp = await startMCPServer()
  await mcp.services.todoStore.create({ ownerId: 'carol', title: 'Call the plumber', done: false })
  ;({ handler } = mcp.server.createFetchHandler({ path: '/mcp' }))
})
after(() => mcp.stop())

const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })

/** The JSON-RPC message of a streamable-HTTP answer, sent as JSON or as one server-sent event. */
const messageOf = async (response: Response) => {
  const text = await response.text()
  const data = text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data: '))!.slice(6)
  return JSON.parse(data)
}

test('fetch-handler-404-off-path: createFetchHandler answers 404 to a Request for another path', async () => {
  const response = await handler(new Request('http://127.0.0.1/other', { method: 'POST' }))
  assert.equal(response.status, 404)
  assert.equal(await response.text(), '')
})

test('fetch-handler-stateless: createFetchHandler serves MCP on its path, gives no session id, and each request carries its own token', async () => {
  const initialize = await handler(
    rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'audit', version: '1' } },
    }),
  )
  assert.equal(initialize.status, 200)
  assert.equal(initialize.headers.get('mcp-session-id'), null)
  assert.equal((await messageOf(initialize)).result.serverInfo.name, 'todo-app')
  // No initialize first: a stateless handler takes a tools/call on its own, with the caller's bearer token.
  const token = await mcp.tokenFor('carol')
  const call = await handler(
    rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'countOpenTodos', arguments: {} } }, {
      authorization: `Bearer ${token}`,
    }),
  )
  assert.equal(call.status, 200)
  const { result } = await messageOf(call)
  assert.deepEqual(result.content, [{ type: 'text', text: '{"open":1,"overdue":0}' }])
})

test('in-memory-delayed-rpc-drops-session: InMemorySchedulerService calls the function without the session passed to scheduleRPC', async () => {
  const { InMemorySchedulerService } = await import('@pikku/schedule')
  const scheduler = new InMemorySchedulerService()
  const errors = collectLogs(mcp.services, 'error')
  const logged = waitFor(async () => errors.lines[0], Boolean)
  try {
    // listTodos needs a session. Passed one, the delayed call still runs without it and fails.
    await scheduler.scheduleRPC(5, 'listTodos', {}, { userId: 'carol' } as any)
    assert.match(await logged, /^Failed to execute delayed RPC 'listTodos': ForbiddenError: Authentication required/)
  } finally {
    errors.restore()
    await scheduler.close()
  }
})

test('express-entry-json-limit-100kb: behind express.json() with no options, as src/runtimes/express.ts has it, a JSON body over 100 kB gets Express\'s HTML 413 before Pikku runs, while one just under it reaches Pikku', async () => {
  // The entry file's layout, on the services this file already started: express.json(), then the middleware.
  const server = express()
  server.use(express.json())
  server.use(pikkuExpressMiddleware({ logger: mcp.services.logger }))
  const port = await freePort()
  const listener: Server = await new Promise((resolve) => {
    const s = server.listen(port, '127.0.0.1', () => resolve(s))
  })
  const post = (title: string) =>
    fetch(`http://127.0.0.1:${port}/todos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    })
  try {
    // 100 kB is body-parser's 102,400 bytes. Without a session, Pikku answers a body it read with its JSON 403.
    const under = await post('x'.repeat(102_000))
    assert.equal(under.status, 403)
    assert.equal((await under.json()).name, 'ForbiddenError')
    const over = await post('x'.repeat(103_000))
    assert.equal(over.status, 413)
    assert.match(over.headers.get('content-type') ?? '', /text\/html/)
    await over.text()
  } finally {
    await new Promise<void>((resolve) => listener.close(() => resolve()))
  }
})

test('core-fetch-bubble-errors-rejects: with bubbleErrors, core\'s fetch rejects with the error the runner wrote, a ForbiddenError from a route that needs a session as well as a NotFoundError, and returns no Response', async () => {
  const { fetch: coreFetch } = await import('@pikku/core/http')
  const { ForbiddenError, NotFoundError } = await import('@pikku/core/errors')
  await assert.rejects(coreFetch(new Request('http://localhost/todos'), { bubbleErrors: true }), ForbiddenError)
  await assert.rejects(coreFetch(new Request('http://localhost/no-such-route'), { bubbleErrors: true }), NotFoundError)
  // Without it, the same request resolves with the 403 answer.
  assert.equal((await coreFetch(new Request('http://localhost/todos'))).status, 403)
})

test('core-reader-form-field-limit: core\'s reader takes a form body of up to 256 fields and refuses one of 257 with 422 UnprocessableContentError', async () => {
  const { PikkuFetchHTTPRequest } = await import('@pikku/core/http')
  const { UnprocessableContentError } = await import('@pikku/core/errors')
  const read = (fields: number) => {
    const body = Array.from({ length: fields }, (_, i) => `f${i}=${i}`).join('&')
    const request = new Request('http://localhost/probe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    return new PikkuFetchHTTPRequest(request).data() as Promise<Record<string, string>>
  }
  assert.equal(Object.keys(await read(256)).length, 256)
  await assert.rejects(read(257), (e: unknown) => e instanceof UnprocessableContentError && /Too many form parameters/.test((e as Error).message))
})

test('log-warnings-unlisted-registered-silent: a registered error whose status logWarningsForStatusCodes does not list gets no warning or error in the log; listed, it is logged as a warning', async () => {
  const { fetch: coreFetch } = await import('@pikku/core/http')
  const warned = collectLogs(mcp.services, 'warn')
  const logged = collectLogs(mcp.services, 'error')
  try {
    // GET /todos without a session: the function runner throws ForbiddenError, registered with status 403.
    assert.equal((await coreFetch(new Request('http://localhost/todos'))).status, 403)
    assert.ok(!warned.lines.some((line) => /Authentication required/.test(line)), JSON.stringify(warned.lines))
    assert.ok(!logged.lines.some((line) => /Authentication required/.test(line)), JSON.stringify(logged.lines))
    assert.equal((await coreFetch(new Request('http://localhost/todos'), { logWarningsForStatusCodes: [403] })).status, 403)
    assert.ok(warned.lines.some((line) => /Authentication required/.test(line)), JSON.stringify(warned.lines))
    assert.ok(!logged.lines.some((line) => /Authentication required/.test(line)), JSON.stringify(logged.lines))
  } finally {
    logged.restore()
    warned.restore()
  }
})
