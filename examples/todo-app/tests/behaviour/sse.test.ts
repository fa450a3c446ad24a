// Server-sent events of the to-do app (src/wirings/todos.sse.ts) on @pikku/express-middleware, in the server that
// src/runtimes/ws.ts builds, read with plain fetch and with the generated fetch client's subscribeToSSE.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { get, type IncomingMessage } from 'node:http'
import { PikkuFetchError } from '@pikku/fetch'
import { fetch as coreFetch } from '@pikku/core/http'
import { NotFoundError } from '@pikku/core/errors'
import { pikkuState } from '@pikku/core/state'
import { withProbeRoute } from './harness/core-probes.js'
import { PikkuFetch } from '../../.pikku/pikku-fetch.gen.js'
import { HELD_STREAM_ANSWER, holdHealthStream, waitFor } from './harness/app.js'
import { RawClient, startWsApp, type RunningWsApp } from './harness/channels.js'

let app: RunningWsApp
const sockets: RawClient[] = []
const aborts: AbortController[] = []

before(async () => {
  app = await startWsApp()
})
after(async () => {
  for (const a of aborts) a.abort()
  await Promise.all(sockets.map((s) => s.close()))
  await app.stop()
})

const auth = async (userId: string) => ({ authorization: `Bearer ${await app.token(userId)}` })

const socketFor = async (userId: string) => {
  const s = new RawClient(`${app.wsUrl}/todos/live`, await auth(userId))
  sockets.push(s)
  await s.opened
  return s
}

/** An open SSE response whose `data:` events can be awaited one by one. */
const openStream = async (path: string, headers: Record<string, string> = {}) => {
  const controller = new AbortController()
  aborts.push(controller)
  const response = await fetch(`${app.url}${path}`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal })
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const raw: string[] = []
  let ended = false
  const nextEvent = async (): Promise<any> => {
    for (;;) {
      const sep = buffer.indexOf('\n\n')
      if (sep !== -1) {
        const block = buffer.slice(0, sep)
        buffer = buffer.slice(sep + 2)
        raw.push(block)
        return JSON.parse(block.replace(/^data: /, ''))
      }
      const { done, value } = await reader.read()
      if (done) {
        ended = true
        return undefined
      }
      buffer += value
    }
  }
  return { response, nextEvent, raw, ended: () => ended, abort: () => controller.abort() }
}

test('sse-stream-headers: an sse route answers 200 with text/event-stream and no-cache, and send() writes a data: frame', async () => {
  const stream = await openStream('/todos/changes', await auth('sam'))
  assert.equal(stream.response.status, 200)
  // The runner sets text/event-stream; Express adds the charset.
  assert.equal(stream.response.headers.get('content-type'), 'text/event-stream; charset=utf-8')
  assert.equal(stream.response.headers.get('cache-control'), 'no-cache')
  assert.deepEqual(await stream.nextEvent(), { subscribed: true })
  assert.equal(stream.raw[0], 'data: {"subscribed":true}')
  stream.abort()
})

test('sse-event-hub-delivery: a publish on the subscribed topic is written into the stream as given', async () => {
  const stream = await openStream('/todos/changes', await auth('sue'))
  await stream.nextEvent()
  const socket = await socketFor('sue')
  const todo = await socket.call('createTodo', { title: 'streamed' })
  await socket.call('completeTodo', { todoId: todo.todoId })
  assert.deepEqual(await stream.nextEvent(), { topic: 'todos:sue', data: { ...todo, done: true } })
  stream.abort()
})

test('sse-finite-stream: streamDueToday sends one event per open to-do due today, then end, then the response ends', async () => {
  const socket = await socketFor('dee')
  const today = new Date().toISOString().slice(0, 10)
  const due = await socket.call('createTodo', { title: 'due today', dueAt: `${today}T17:00:00.000Z` })
  const done = await socket.call('createTodo', { title: 'done already', dueAt: `${today}T09:00:00.000Z` })
  await socket.call('updateTodo', { todoId: done.todoId, done: true })
  await socket.call('createTodo', { title: 'no date' })
  const stream = await openStream('/todos/due-today', await auth('dee'))
  // `due` is the channel reply, which is the stored to-do itself with `action` merged in (see channels#reply-key-sticks).
  assert.deepEqual(await stream.nextEvent(), { type: 'due', todo: due })
  assert.deepEqual(await stream.nextEvent(), { type: 'end', count: 1 })
  // The function's return value ({ type: 'end', count: 1 } again) is not written: the next read is the end.
  assert.equal(await stream.nextEvent(), undefined)
  assert.equal(stream.ended(), true)
})

const UNPROCESSABLE_MESSAGE =
  'The server understood the content type of the request content, and the syntax of the request content was correct, but it was unable to process the contained instructions..'

/** Asserts a stream that answered 200 with one error event carrying errorText, then a done event, then ended. */
const assertErrorStream = async (stream: Awaited<ReturnType<typeof openStream>>, errorText: string) => {
  assert.equal(stream.response.status, 200)
  assert.deepEqual(await stream.nextEvent(), { type: 'error', errorText })
  assert.deepEqual(await stream.nextEvent(), { type: 'done' })
  assert.equal(await stream.nextEvent(), undefined)
}

test('sse-no-session-error-events: without a session the stream answers 200 with an error event and a done event, then ends', async () => {
  const stream = await openStream('/todos/changes')
  assert.equal(stream.response.headers.get('content-type'), 'text/event-stream; charset=utf-8')
  // The error class's public message (ForbiddenError), not the runner's 'Authentication required'.
  await assertErrorStream(stream, 'The client does not have permission to access the requested resource.')
})

test('subscribe-to-sse-client: subscribeToSSE sends the bearer token, parses events, and reports an ended stream through onError', async () => {
  const client = new PikkuFetch()
  client.setServerUrl(app.url)
  client.setAuthorizationJWT(await app.token('cal'))
  const events: unknown[] = []
  const ended = new Promise<Error>((resolve) => {
    client.subscribeToSSE('/todos/due-today', (event) => events.push(event), (err) => resolve(err as Error))
  })
  const error = await ended
  assert.equal(error.message, 'SSE stream closed unexpectedly')
  assert.deepEqual(events, [{ type: 'end', count: 0 }])
})

test('subscribe-to-sse-malformed-get-only: subscribeToSSE skips an event that is not JSON, returns a handle with close(), and opens the stream with a GET, so a POST-only sse route answers it 404', async () => {
  let method: string | undefined
  const func = {
    auth: false,
    func: async (_services: unknown, _data: unknown, wire: any) => {
      method = wire.http.request.method()
      wire.channel.sendBinary('not json')
      wire.channel.send({ n: 1 })
      wire.channel.close()
    },
  }
  await withProbeRoute('sseMalformedProbe', '/probe-sse-malformed', func, { sse: true }, async () => {
    const client = new PikkuFetch()
    client.setServerUrl(app.url)
    const events: unknown[] = []
    let handle: { close: () => void } | undefined
    const error = await new Promise<Error>((resolve) => {
      handle = client.subscribeToSSE('/probe-sse-malformed', (event) => events.push(event), (err) => resolve(err as Error))
    })
    assert.equal(typeof handle?.close, 'function')
    assert.deepEqual(events, [{ n: 1 }])
    assert.equal(error.message, 'SSE stream closed unexpectedly')
    assert.equal(method, 'get')
    handle!.close()
  })
  // POST /assistant/stream is the app's POST sse route: subscribeToSSE asks for it with a GET.
  const client = new PikkuFetch()
  client.setServerUrl(app.url)
  client.setAuthorizationJWT(await app.token('pat'))
  const error = await new Promise<unknown>((resolve) => void client.subscribeToSSE('/assistant/stream', () => {}, resolve))
  assert.equal((error as Error).message, 'SSE request failed: 404')
})

test('typed-call-on-sse-undefined: a typed call through the fetch client\'s api, which post and so rpc.agent.stream use, resolves undefined on an sse route, its events dropped', async () => {
  const token = await app.token('cat')
  // The route did send an event: read raw, its body holds a data: frame.
  const raw = await fetch(`${app.url}/todos/due-today`, { headers: { authorization: `Bearer ${token}` } })
  assert.match(await raw.text(), /^data: \{"type":"end","count":0\}/)
  const client = new PikkuFetch()
  client.setServerUrl(app.url)
  client.setAuthorizationJWT(token)
  // api waits for the whole stream, fails to parse it as JSON, and resolves undefined instead of rejecting.
  assert.equal(await client.api('/todos/due-today', 'GET', {}), undefined)
})

test('subscribe-to-sse-handler-throws: a handler that throws ends delivery and goes to onError, while the request stays open until close()', async () => {
  const client = new PikkuFetch()
  client.setServerUrl(app.url)
  client.setAuthorizationJWT(await app.token('hal'))
  let calls = 0
  let stream: { close: () => void } | undefined
  const failed = new Promise<Error>((resolve) => {
    stream = client.subscribeToSSE(
      '/todos/changes',
      () => {
        calls++
        throw new Error('bug in the handler')
      },
      (err) => resolve(err as Error),
    )
  })
  assert.equal((await failed).message, 'bug in the handler')
  assert.equal(calls, 1)
  // Nothing aborted the request: the server still holds the stream's connection, which close() then drops.
  const held = await app.connections()
  stream!.close()
  await waitFor(async () => app.connections(), (n) => n < held, 10_000)
})

test('subscribe-to-sse-status-error: a stream request answered with an error status reaches onError as a plain Error naming the status, not a PikkuFetchError', async () => {
  const client = new PikkuFetch()
  client.setServerUrl(app.url)
  const error = await new Promise<unknown>((resolve) => {
    client.subscribeToSSE('/no-such-stream', () => {}, resolve)
  })
  assert.ok(error instanceof Error)
  assert.ok(!(error instanceof PikkuFetchError))
  assert.equal(error.message, 'SSE request failed: 404')
})

test('sse-client-gone-stays-subscribed: a stream whose client went away stays registered and subscribed; publishing to it does no harm', async () => {
  // A connection of its own (no keep-alive pool), so that destroying the request closes the stream's TCP connection.
  const before = await app.connections()
  const request = get(`${app.url}/todos/changes`, { agent: false, headers: await auth('gus') })
  const response = await new Promise<IncomingMessage>((resolve) => request.once('response', resolve))
  await new Promise((resolve) => response.once('data', resolve))
  request.destroy()
  // Wait until the server has seen the client go: its connection is gone.
  const deadline = Date.now() + 3000
  while ((await app.connections()) > before) {
    if (Date.now() > deadline) throw new Error('the server still holds the stream connection')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const socket = await socketFor('gus')
  // Nothing tells the hub the client left (only channel.close() does): the stream's subscription is still there.
  const subscriptions = (app.services.eventHub as any).subscriptions as Map<string, Set<string>>
  assert.equal(subscriptions.get('todos:gus')?.size, 1)
  // The stream is still registered on the hub too (onChannelOpened), so publishes are still written to it.
  const [streamId] = subscriptions.get('todos:gus')!
  assert.ok(((app.services.eventHub as any).channels as Map<string, unknown>).has(streamId))
  const todo = await socket.call('createTodo', { title: 'nobody listens' })
  const reply = await socket.call('completeTodo', { todoId: todo.todoId })
  assert.equal(reply.done, true)
  // The write to the gone stream does not throw, so the publish does not drop the subscription either.
  assert.equal(subscriptions.get('todos:gus')?.size, 1)
  const health = await fetch(`${app.url}/health`)
  assert.equal(health.status, 200)
})

test('sse-bad-token-error-event: a bearer token the jwt service cannot decode answers an SSE route with 200 and an "Internal server error" event, not a 500', async () => {
  await assertErrorStream(await openStream('/todos/changes', { authorization: 'Bearer not-a-jwt' }), 'Internal server error')
})

test('sse-bad-scheme-error-event: an Authorization header that is not a Bearer token answers an SSE route with 200 and the registered InvalidSessionError message, not a 401', async () => {
  const stream = await openStream('/todos/changes', { authorization: 'Basic dXNlcjpwYXNz' })
  await assertErrorStream(stream, 'The session provided is not valid.')
})

test('sse-bad-cookie-and-key-error-event: an undecodable todo_session cookie or x-api-key answers an SSE route with 200 and an "Internal server error" event, not a 500', async () => {
  const attempts: Record<string, string>[] = [{ cookie: 'todo_session=not-a-jwt' }, { 'x-api-key': 'not-a-jwt' }]
  for (const headers of attempts) {
    await assertErrorStream(await openStream('/todos/changes', headers), 'Internal server error')
  }
})

test('sse-channel-methods: on Express, an sse route\'s sendBinary writes a string as it is and JSON-encodes an object; state is open until close(), which ends the response; remote returns a promise that rejects with a ChannelRPCError whose reason (not kind) is unsupported', async () => {
  const seen: { before?: string; after?: string; pending?: unknown; error?: any } = {}
  const func = {
    auth: false,
    func: async (_services: unknown, _data: unknown, wire: any) => {
      const channel = wire.channel
      seen.before = channel.state
      const pending = channel.remote('anything')
      seen.pending = pending
      seen.error = await pending.catch((error: unknown) => error)
      channel.sendBinary('plain text')
      channel.sendBinary({ n: 1 })
      channel.close()
      seen.after = channel.state
    },
  }
  await withProbeRoute('sseChannelProbe', '/probe-sse-channel', func, { sse: true }, async () => {
    const response = await fetch(`${app.url}/probe-sse-channel`, { headers: { accept: 'text/event-stream' } })
    assert.equal(response.status, 200)
    // text() resolves only once the response has ended.
    assert.equal(await response.text(), 'data: plain text\n\ndata: {"n":1}\n\n')
    assert.equal(seen.before, 'open')
    assert.equal(seen.after, 'closed')
    assert.ok(seen.pending instanceof Promise)
    assert.equal(seen.error?.name, 'ChannelRPCError')
    assert.equal(seen.error?.reason, 'unsupported')
    assert.equal(seen.error?.kind, undefined)
  })
})

test('sse-runner-errors-as-events: on an sse route, failed input validation and a NotFoundError are written as error and done events with the registered message, a plain Error as "Internal server error"; with core fetch and bubbleErrors on, nothing is rethrown', async () => {
  let toThrow: Error = new NotFoundError('todo 7 is gone')
  const func = { auth: false, func: async () => { throw toThrow } }
  await withProbeRoute('sseErrorProbe', '/probe-sse-error', func, { sse: true }, async () => {
    await assertErrorStream(await openStream('/probe-sse-error'), 'The server cannot find the requested resource.')
    toThrow = new Error('plain failure')
    await assertErrorStream(await openStream('/probe-sse-error'), 'Internal server error')
    // Nothing is rethrown through core fetch either, even with bubbleErrors on: the events are the answer.
    const response = await coreFetch(new Request('http://localhost/probe-sse-error'), { bubbleErrors: true } as never)
    assert.equal(response.status, 200)
    // Core fetch's stream opens with a ':' comment line.
    assert.equal(await response.text(), ':\n\ndata: {"type":"error","errorText":"Internal server error"}\n\ndata: {"type":"done"}\n\n')
    // Input validation runs inside the function runner, so it is an event too; CreateTodoInput needs a title.
    const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, any>
    functionMeta.sseErrorProbe.inputSchemaName = 'CreateTodoInput'
    await assertErrorStream(await openStream('/probe-sse-error?priority=high'), UNPROCESSABLE_MESSAGE)
  })
})

test('sse-headers-schema-json-error: a route\'s headers schema is checked before the stream starts, so a request that fails it gets the ordinary JSON 422, not events', async () => {
  const schemas = pikkuState(null, 'misc', 'schemas')
  schemas.set('ProbeSseHeaders', { type: 'object', properties: { 'x-probe': { type: 'string' } }, required: ['x-probe'] })
  const func = { auth: false, func: async (_services: unknown, _data: unknown, wire: any) => wire.channel.close() }
  try {
    ;(app.services as any).schema.compileSchema('ProbeSseHeaders', schemas.get('ProbeSseHeaders'))
    await withProbeRoute('sseHeadersProbe', '/probe-sse-headers', func, { sse: true }, async () => {
      ;(pikkuState(null, 'http', 'meta') as any).get['/probe-sse-headers'].headersSchemaName = 'ProbeSseHeaders'
      const refused = await fetch(`${app.url}/probe-sse-headers`, { headers: { accept: 'text/event-stream' } })
      assert.equal(refused.status, 422)
      assert.match(refused.headers.get('content-type') ?? '', /^application\/json/)
      assert.equal((await refused.json()).name, 'UnprocessableContentError')
      const accepted = await fetch(`${app.url}/probe-sse-headers`, { headers: { accept: 'text/event-stream', 'x-probe': 'yes' } })
      assert.equal(accepted.status, 200)
      assert.match(accepted.headers.get('content-type') ?? '', /^text\/event-stream/)
      await accepted.text()
    })
  } finally {
    schemas.delete('ProbeSseHeaders')
  }
})

test('sse-pg-event-hub-inner: PgEventHubService writes a publish into an SSE stream only when it has no inner hub', async () => {
  const { PgEventHubService } = await import('@pikku/kysely-postgres')
  const { LocalEventHubService } = await import('@pikku/core/channel/local')
  const services = app.services as { eventHub?: unknown }
  const saved = services.eventHub
  try {
    // No init(): nothing is relayed through PostgreSQL, and publish delivers in this process only.
    const plain = new PgEventHubService<Record<string, unknown>>('postgres://unused')
    services.eventHub = plain
    const first = await openStream('/todos/changes', await auth('pia'))
    assert.deepEqual(await first.nextEvent(), { subscribed: true })
    await plain.publish('todos:pia', null, { n: 1 })
    assert.deepEqual(await first.nextEvent(), { n: 1 })
    first.abort()

    const withInner = new PgEventHubService<Record<string, unknown>>('postgres://unused', new LocalEventHubService())
    services.eventHub = withInner
    const second = await openStream('/todos/changes', await auth('pia'))
    assert.deepEqual(await second.nextEvent(), { subscribed: true })
    await withInner.publish('todos:pia', null, { n: 2 })
    // The stream is registered on the wrapper's own hub; the subscription and the publish go to the inner one.
    const next = await Promise.race([second.nextEvent(), new Promise((resolve) => setTimeout(() => resolve('nothing'), 300))])
    assert.equal(next, 'nothing')
    second.abort()
  } finally {
    services.eventHub = saved
  }
})

test('sse-bun-event-hub-not-delivered: with BunEventHubService as the eventHub, a stream\'s subscription finds no socket, a publish goes to Bun\'s server only, and the stream stays in the hub after it closes', async () => {
  const { BunEventHubService } = await import('@pikku/bun-server')
  const services = app.services as { eventHub?: unknown }
  const saved = services.eventHub
  try {
    const hub = new BunEventHubService<Record<string, unknown>>()
    const published: unknown[][] = []
    hub.setServer({ publish: (...args: unknown[]) => published.push(args) } as never)
    services.eventHub = hub
    const stream = await openStream('/todos/changes', await auth('bea'))
    assert.deepEqual(await stream.nextEvent(), { subscribed: true })
    // The runner called onChannelOpened(handler): the handler became the map's key, with no socket under it.
    const sockets = (hub as any).sockets as Map<unknown, unknown>
    assert.equal(sockets.size, 1)
    const [[handler, socket]] = [...sockets.entries()] as [any, unknown][]
    assert.equal(typeof handler, 'object')
    assert.equal(socket, undefined)
    await hub.publish('todos:bea', null, { n: 1 })
    assert.deepEqual(published, [['todos:bea', '{"n":1}', false]])
    // A frame written straight to the stream arrives next: the publish before it wrote nothing.
    handler.send({ marker: true })
    assert.deepEqual(await stream.nextEvent(), { marker: true })
    // channel.close() ends the stream and calls onChannelClosed(channelId), which removes nothing.
    handler.getChannel().close()
    assert.equal(await stream.nextEvent(), undefined)
    assert.equal(sockets.size, 1)
  } finally {
    services.eventHub = saved
  }
})

test('sse-conflicting-keys-express-html: on Express a conflicting key on an sse route keeps the 422 status but not Pikku\'s JSON body', async () => {
  // POST /assistant/stream is an sse route (src/agents/assistant.http.ts). `message` in the query and in the body
  // with different values fails while the runner reads the stream's openingData, after the stream headers are set.
  const response = await fetch(`${app.url}/assistant/stream?message=a`, {
    method: 'POST',
    headers: { ...(await auth('cora')), 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: 'b' }),
  })
  assert.equal(response.status, 422)
  // The error handler's JSON reply meets a response already in stream mode: writing its second Content-Type
  // throws in Express, whose own error page answers instead.
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/)
  assert.doesNotMatch(await response.text(), /Conflicting values/)
})

test('sse-opening-data-error-core-fetch: with core fetch, a conflicting key on an sse route answers 422 with the error body as a data: frame, and the stream stays open', async () => {
  // The same request as above, through core's fetch rather than Express: the error reaches PikkuFetchHTTPResponse
  // after setMode('stream'), so json() writes it into the stream.
  const response = await coreFetch(new Request('http://localhost/assistant/stream?message=a', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'b' }),
  }))
  assert.equal(response.status, 422)
  assert.equal(response.headers.get('content-type'), 'text/event-stream')
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('data: ')) {
    const { value, done } = await reader.read()
    assert.equal(done, false, text)
    text += decoder.decode(value)
  }
  const frame = JSON.parse(text.slice(text.indexOf('data: ') + 6).trim())
  assert.equal(frame.name, 'UnprocessableContentError')
  assert.match(frame.message, /^Conflicting values for key "message"/)
  assert.ok(frame.errorId)
  // fetch has resolved, so the runner is done; the stream is still not closed once pending callbacks have run.
  let ended = false
  const next = reader.read().then(({ done }) => void (ended = done))
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve))
  assert.equal(ended, false)
  await reader.cancel()
  await next
})

/** Reads a core fetch stream until its first data: frame and returns that frame parsed, leaving the stream open. */
const firstCoreFrame = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('data: ') || !text.slice(text.indexOf('data: ')).includes('\n\n')) {
    const { value, done } = await reader.read()
    assert.equal(done, false, text)
    text += decoder.decode(value)
  }
  const frame = text.slice(text.indexOf('data: ') + 6)
  return JSON.parse(frame.slice(0, frame.indexOf('\n\n')))
}

test('sse-opening-data-core-fetch-body-and-bubble: with core fetch, an sse POST whose body has a content type it cannot read gets the same 422 data: frame, a DELETE body is not read at all, and with bubbleErrors on an opening-data error is rethrown', async () => {
  const func = { auth: false, func: async (_services: unknown, data: unknown, wire: any) => { wire.channel.send({ got: data }); wire.channel.close() } }
  await withProbeRoute('sseBodyPostProbe', '/probe-sse-body', func, { sse: true, method: 'post' }, async () => {
    await withProbeRoute('sseBodyDeleteProbe', '/probe-sse-body', func, { sse: true, method: 'delete' }, async () => {
      const init = { headers: { 'content-type': 'application/x-probe' }, body: 'opaque' }
      const refused = await coreFetch(new Request('http://localhost/probe-sse-body', { method: 'POST', ...init }))
      assert.equal(refused.status, 422)
      assert.equal(refused.headers.get('content-type'), 'text/event-stream')
      const reader = refused.body!.getReader()
      const frame = await firstCoreFrame(reader)
      assert.equal(frame.name, 'UnprocessableContentError')
      assert.match(frame.message, /Unsupported content type application\/x-probe/)
      await reader.cancel()
      const deleted = await coreFetch(new Request('http://localhost/probe-sse-body', { method: 'DELETE', ...init }))
      assert.equal(deleted.status, 200)
      assert.equal(await deleted.text(), ':\n\ndata: {"got":{}}\n\n')
    })
  })
  // The conflicting key of sse-opening-data-error-core-fetch, with bubbleErrors on: fetch rejects with the 422.
  const conflicting = new Request('http://localhost/assistant/stream?message=a', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'b' }),
  })
  await assert.rejects(coreFetch(conflicting, { bubbleErrors: true } as never), (error: unknown) => {
    assert.equal((error as Error).name, 'UnprocessableContentError')
    assert.match((error as Error).message, /^Conflicting values for key "message"/)
    return true
  })
})

test('sse-core-fetch-cancel-stays-subscribed: with core fetch, a client that cancels the stream closes nothing: the stream stays registered and subscribed in the hub', async () => {
  const response = await coreFetch(new Request('http://localhost/todos/changes', { headers: await auth('cy') }))
  assert.equal(response.status, 200)
  const reader = response.body!.getReader()
  assert.deepEqual(await firstCoreFrame(reader), { subscribed: true })
  const hub = app.services.eventHub as any
  const subscriptions = hub.subscriptions as Map<string, Set<string>>
  const [streamId] = subscriptions.get('todos:cy')!
  try {
    // cancel() settles only after the stream's own cancel handler, if it had one, has finished.
    await reader.cancel()
    assert.equal(subscriptions.get('todos:cy')?.size, 1)
    assert.ok((hub.channels as Map<string, unknown>).has(streamId))
  } finally {
    // Take the abandoned stream out of the file's shared hub again.
    hub.onChannelClosed(streamId)
  }
})

/** The app's services also served by @pikku/node-http-server, the server pikku dev and pikku serve run, on a free port. */
const startNodeServer = async () => {
  const { PikkuNodeHTTPServer } = await import('@pikku/node-http-server')
  const { freePort } = await import('./harness/services.js')
  const services = app.services as any
  const port = await freePort()
  const nodeServer = new PikkuNodeHTTPServer({ ...services.config, port, hostname: '127.0.0.1' }, services.logger)
  await nodeServer.init()
  await nodeServer.start()
  return { nodeServer, port }
}
const stopNodeServer = async (nodeServer: { server: import('node:http').Server }) => {
  nodeServer.server.closeAllConnections()
  await new Promise((resolve) => nodeServer.server.close(resolve))
}

test('sse-held-until-return-node-http-server: on @pikku/node-http-server, which pikku dev and pikku serve run, an sse route\'s response starts only once its function returns, while on Express its first event arrives as it is sent', async () => {
  const { nodeServer, port } = await startNodeServer()
  // For this test only, GET /health becomes a stream whose function waits between two events; put back below.
  const held = await holdHealthStream()
  try {
    // Express: the response, and its first event, arrive while the function still waits.
    const onExpress = await openStream('/health')
    await held.firstSent
    assert.deepEqual(await onExpress.nextEvent(), { n: 1 })
    held.release()
    assert.deepEqual(await onExpress.nextEvent(), { n: 2 })

    // @pikku/node-http-server: nothing answers until the function has returned, then both events come together.
    // The server's own response object shows it: no header is written yet when the first event has been sent.
    held.arm()
    let serverResponse: import('node:http').ServerResponse | undefined
    nodeServer.server.once('request', (_request, response) => (serverResponse = response))
    const pending = fetch(`http://127.0.0.1:${port}/health`, { headers: { accept: 'text/event-stream' } })
    await held.firstSent
    assert.equal(serverResponse?.headersSent, false)
    assert.deepEqual(await held.releaseAndRead(pending), HELD_STREAM_ANSWER)
  } finally {
    held.restore()
    await stopNodeServer(nodeServer)
  }
})

test('sse-client-gone-stays-subscribed-node-http-server: on @pikku/node-http-server, which pikku dev and pikku serve run, a stream whose client went away also stays registered and subscribed', async () => {
  const { nodeServer, port } = await startNodeServer()
  const hub = app.services.eventHub as any
  const subscriptions = hub.subscriptions as Map<string, Set<string>>
  const connections = () =>
    new Promise<number>((resolve, reject) => nodeServer.server.getConnections((error, count) => (error ? reject(error) : resolve(count))))
  let streamId: string | undefined
  try {
    const request = get(`http://127.0.0.1:${port}/todos/changes`, { agent: false, headers: await auth('hana') })
    const response = await new Promise<IncomingMessage>((resolve) => request.once('response', resolve))
    await new Promise((resolve) => response.once('data', resolve))
    ;[streamId] = subscriptions.get('todos:hana') ?? []
    assert.ok(streamId)
    request.destroy()
    // Wait until the server has seen the client go: it holds no connection any more.
    await waitFor(connections, (count) => count === 0)
    // The server does not listen for the request closing, so the hub still has the stream.
    assert.equal(subscriptions.get('todos:hana')?.size, 1)
    assert.ok((hub.channels as Map<string, unknown>).has(streamId))
  } finally {
    // Drops the leftover stream from the shared hub, so no later test publishes into it.
    if (streamId) hub.onChannelClosed(streamId)
    await stopNodeServer(nodeServer)
  }
})
