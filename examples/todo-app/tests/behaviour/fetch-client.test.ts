// The generated PikkuFetch (.pikku/pikku-fetch.gen.ts) and its base CorePikkuFetch (@pikku/fetch) against a small
// node:http server that records each request it gets and answers as the test tells it, for what
// docs/http/fetch-client.mdx says about the requests the client sends and how it reads the answers. No app runs.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { CorePikkuFetch, PikkuFetchError } from '@pikku/fetch'
import { ConsoleLogger } from '@pikku/core/services'
import { LocalContent } from '@pikku/core/services/local-content'
import { PikkuFetch } from '../../.pikku/pikku-fetch.gen.js'
import { PikkuRPC } from '../../.pikku/pikku-rpc.gen.js'
import { createTestJWT } from './harness/http.js'

interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}
/** What the next requests are answered with: a status, a JSON body (or raw text) and a content type. */
let answer: { status: number; body: string; contentType: string } = { status: 200, body: '{"ok":true}', contentType: 'application/json' }
const seen: Seen[] = []
let server: Server
let url: string

before(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(answer.body) })
      res.end(answer.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
after(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Runs `call` with the server answering `with`, and returns the requests it made; restores the default answer. */
const recording = async <T>(call: () => Promise<T>, with_: Partial<typeof answer> = {}) => {
  const previous = answer
  answer = { ...answer, ...with_ }
  seen.length = 0
  try {
    const result = await call()
    return { result, requests: [...seen] }
  } finally {
    answer = previous
  }
}

const client = () => {
  const fetchClient = new PikkuFetch()
  fetchClient.setServerUrl(url)
  fetchClient.setAuthorizationJWT('a-token')
  return fetchClient
}

test('fetch-client-typed-routes: the typed methods accept only routes wired for that method and inputs of the wired function, and are typed with its output', async () => {
  const fetchClient = client()
  const { result } = await recording(() =>
    fetchClient.patch('/todos/:todoId', { todoId: 't1', title: 'Renamed' }),
    { body: '{"todoId":"t1","title":"Renamed","done":false,"ownerId":"alice"}' },
  )
  const title: string = result.title
  assert.equal(title, 'Renamed')
  await recording(async () => {
    // @ts-expect-error '/todos/:todoId' is not wired for POST
    await fetchClient.post('/todos/:todoId', { todoId: 't1' })
    // @ts-expect-error a route that is not wired at all
    await fetchClient.get('/todo', {})
    // @ts-expect-error the input names todoId, not id
    await fetchClient.patch('/todos/:todoId', { id: 't1', title: 'Renamed' })
  })
})

test('fetch-client-path-and-body: patch moves todoId into the path and sends the other fields as the JSON body; a plain-object header in options is sent, a Headers instance is not', async () => {
  const fetchClient = client()
  const { requests } = await recording(async () => {
    await fetchClient.patch('/todos/:todoId', { todoId: 't1', done: true }, { headers: { 'x-extra': 'plain' } })
    await fetchClient.patch('/todos/:todoId', { todoId: 't2', done: true }, { headers: new Headers({ 'x-extra': 'instance' }) })
  })
  assert.deepEqual(
    requests.map(({ method, url, body, headers }) => [method, url, body, headers['x-extra'], headers.authorization]),
    [
      ['PATCH', '/todos/t1', '{"done":true}', 'plain', 'Bearer a-token'],
      ['PATCH', '/todos/t2', '{"done":true}', undefined, 'Bearer a-token'],
    ],
  )
})

test('fetch-client-head-undefined: head resolves undefined though the answer says JSON, since a HEAD answer has no body', async () => {
  // The generated head() calls api(route, 'HEAD', …), as CorePikkuFetch's head does; the app wires no HEAD route.
  const fetchClient = new CorePikkuFetch({ serverUrl: url })
  const { result, requests } = await recording(() => fetchClient.head('/health', undefined))
  assert.equal(result, undefined)
  assert.deepEqual(requests.map(({ method, url }) => [method, url]), [['HEAD', '/health']])
  // The same route read with GET gives the body, so it is the method, not the answer, that loses it.
  assert.deepEqual((await recording(() => fetchClient.get('/health', undefined))).result, { ok: true })
})

test('fetch-client-status-400-throws: every status from 400 up makes the typed methods and api throw PikkuFetchError; 399 does not, and fetch returns the Response whatever the status', async () => {
  const fetchClient = client()
  for (const status of [400, 418, 503]) {
    const { result } = await recording(async () => {
      const typed = await fetchClient.get('/todos', {}).catch((e: unknown) => e)
      const api = await fetchClient.api('/any/path', 'GET', undefined).catch((e: unknown) => e)
      const raw = await fetchClient.fetch('/todos', 'GET', {})
      return { typed, api, raw }
    }, { status, body: '{"message":"no"}' })
    assert.ok(result.typed instanceof PikkuFetchError && result.typed.status === status, `typed get at ${status}`)
    assert.ok(result.api instanceof PikkuFetchError && result.api.status === status, `api at ${status}`)
    assert.equal(result.raw.status, status)
  }
  const { result } = await recording(() => fetchClient.api('/any/path', 'GET', undefined), { status: 399, body: '{"n":1}' })
  assert.deepEqual(result, { n: 1 })
})

test('fetch-client-upload-file-bare: uploadFile uses the URL as given with only uploadHeaders, no server URL and none of the client\'s headers; a relative URL from LocalContent is refused by Node.js', async () => {
  const fetchClient = new PikkuFetch()
  fetchClient.setServerUrl(`${url}/base`)
  fetchClient.setAuthorizationJWT('a-token')
  fetchClient.setAPIKey('a-key')
  fetchClient.setHeader('x-custom', 'yes')
  const { result, requests } = await recording(() =>
    fetchClient.uploadFile({ uploadUrl: `${url}/uploads/a.txt`, assetKey: 'a.txt', uploadHeaders: { 'x-upload': '1' } }, new Blob(['hi']), 'text/plain'),
  )
  assert.equal(result.assetKey, 'a.txt')
  assert.deepEqual(requests.map(({ method, url, body }) => [method, url, body]), [['PUT', '/uploads/a.txt', 'hi']])
  const { headers } = requests[0]!
  assert.deepEqual([headers['x-upload'], headers['content-type'], headers.authorization, headers['x-api-key'], headers['x-custom']], ['1', 'text/plain', undefined, undefined, undefined])
  // LocalContent with a relative uploadUrlPrefix hands out a relative URL, server option or not.
  const content = new LocalContent(
    { localFileUploadPath: '/tmp/unused-content-root', uploadUrlPrefix: '/uploads', assetUrlPrefix: '/assets', server: url },
    new ConsoleLogger(),
    await createTestJWT(),
  )
  const uploadInfo = await content.getUploadURL({ bucket: 'attachments', fileKey: 'a.txt', contentType: 'text/plain' })
  assert.match(uploadInfo.uploadUrl, /^\/uploads\/attachments\/a\.txt\?/)
  const { result: refused, requests: none } = await recording(() => fetchClient.uploadFile(uploadInfo, new Blob(['hi'])).catch((e: unknown) => e))
  assert.ok(refused instanceof TypeError)
  assert.match(String((refused as TypeError).message), /Failed to parse URL/)
  assert.equal(none.length, 0)
})

test('fetch-client-sse-get: subscribeToSSE sends a GET with no body, asking for text/event-stream, and hands each data: event to the handler', async () => {
  const fetchClient = client()
  const events: unknown[] = []
  let handle: { close: () => void } | undefined
  const { requests } = await recording(
    async () => {
      await new Promise<void>((resolve, reject) => {
        handle = fetchClient.subscribeToSSE('/todos/stream', (event) => {
          events.push(event)
          if (events.length === 2) resolve()
        }, reject)
      })
      handle!.close()
    },
    { contentType: 'text/event-stream', body: 'data: {"n":1}\n\ndata: {"n":2}\n\n' },
  )
  assert.deepEqual(events, [{ n: 1 }, { n: 2 }])
  assert.deepEqual(requests.map(({ method, url, body, headers }) => [method, url, body, headers.accept]), [['GET', '/todos/stream', '', 'text/event-stream']])
})

test('rpc-client-agent-paths: the generated PikkuRPC posts agent.run, agent.stream and agent.approve to /rpc/agent/<name>[/stream|/approve] through the fetch client, so agent.stream resolves undefined on an event stream; its subscribeToSSE is a bodiless GET', async () => {
  const rpc = new PikkuRPC()
  rpc.setServerUrl(url)
  const input = { message: 'hello', threadId: 't', resourceId: 'r' }
  const { result, requests } = await recording(
    async () => {
      const streamed = await rpc.agent.stream('helper', input)
      const approved = await rpc.agent.approve('helper', { runId: 'run-1', approvals: [] })
      const ran = await rpc.agent.run('helper' as never, input as never)
      return { streamed, approved, ran }
    },
    { contentType: 'text/event-stream', body: 'data: {"n":1}\n\n' },
  )
  // The event-stream body is not JSON, so each post resolves undefined without an error.
  assert.deepEqual(result, { streamed: undefined, approved: undefined, ran: undefined })
  assert.deepEqual(
    requests.map(({ method, url, body }) => [method, url, JSON.parse(body)]),
    [
      ['POST', '/rpc/agent/helper/stream', input],
      ['POST', '/rpc/agent/helper/approve', { runId: 'run-1', approvals: [] }],
      ['POST', '/rpc/agent/helper', input],
    ],
  )
  const events: unknown[] = []
  let handle: { close: () => void } | undefined
  const { requests: sse } = await recording(
    () =>
      new Promise<void>((resolve, reject) => {
        handle = rpc.subscribeToSSE('/todos/stream', (event) => (events.push(event), resolve()), reject)
      }).finally(() => handle?.close()),
    { contentType: 'text/event-stream', body: 'data: {"n":1}\n\n' },
  )
  assert.deepEqual(events, [{ n: 1 }])
  assert.deepEqual(sse.map(({ method, body }) => [method, body]), [['GET', '']])
})
