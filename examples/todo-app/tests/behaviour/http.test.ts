// HTTP behaviour of the to-do app on @pikku/express: status codes, bodies, validation, CORS and the generated
// fetch client. Sessions come from the app's own jwt service (src/jwt-service.ts) through authBearer (src/auth.ts).
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import type { JWTService } from '@pikku/core/services'
import { CorePikkuFetch, PikkuFetchError } from '@pikku/fetch'
import * as errors from '@pikku/core/errors'
import { getAllPackageStates, pikkuState } from '@pikku/core/state'
import { TodoLimitReachedError } from '../../src/errors.js'
import { assertLoggerStartupOnly, assertStopWaitsForStream, collectLogs, startExpressApp, waitFor, type RunningApp } from './harness/app.js'
import { bearer, createTestJWT } from './harness/http.js'
import { PikkuFetch } from '../../.pikku/pikku-fetch.gen.js'
import express from 'express'
import Fastify from 'fastify'
import pikkuFastifyPlugin from '@pikku/fastify-plugin'
import cors from 'cors'
import { get as getRaw, request as httpRequest, type Server } from 'node:http'
import { pikkuExpressMiddleware } from '@pikku/express-middleware'
import { PikkuExpressServer } from '@pikku/express'
import { cors as pikkuCors } from '@pikku/core/middleware'
import {
  defineHTTPRoutes as coreDefineHTTPRoutes,
  fetch as coreFetch,
  fetchData as coreFetchData,
  httpRouter,
  PikkuFetchHTTPRequest,
  PikkuFetchHTTPResponse,
  wireHTTP as coreWireHTTP,
  wireHTTPRoutes as coreWireHTTPRoutes,
} from '@pikku/core/http'
import { freePort } from './harness/services.js'
import { runTempDir } from './harness/temp.js'
import { codes, inspectFiles } from './harness/inspector.js'
import { recordingLogger, registerProbe, withProbeRoute, withRawBytesRoute } from './harness/core-probes.js'
import { withEnv } from './harness/env.js'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { APP_DIR } from './harness/node-process.js'
import { LocalContent } from '@pikku/core/services/local-content'
import type { HTTPWiringsMeta } from '@pikku/core/http'
import type { FunctionsMeta } from '@pikku/core/services'
import { generateOpenAPISpec, openAPIDocumentOf } from './harness/openapi.js'

let app: RunningApp
let jwt: JWTService
let alice: Record<string, string>
let bob: Record<string, string>
before(async () => {
  jwt = await createTestJWT()
  app = await startExpressApp({ jwt })
  alice = await bearer(jwt, 'alice')
  bob = await bearer(jwt, 'bob')
})
after(() => app.stop())

const json = { 'content-type': 'application/json' }
const createTodo = async (headers: Record<string, string>, title: string) => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...headers, ...json },
    body: JSON.stringify({ title }),
  })
  assert.equal(response.status, 200)
  return (await response.json()) as { todoId: string; ownerId: string; title: string; done: boolean }
}

test('health-sessionless: GET /health answers 200 without any credential', async () => {
  const response = await fetch(`${app.url}/health`)
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { status: 'ok' })
})

test('unknown-route-404: a path no wiring matches answers 404', async () => {
  const response = await fetch(`${app.url}/no-such-route`)
  assert.equal(response.status, 404)
})

test('unknown-route-body: the 404 for an unknown path is a NotFoundError body with the registered message', async () => {
  const response = await fetch(`${app.url}/no-such-route`)
  const body = await response.json()
  assert.equal(body.name, 'NotFoundError')
  assert.equal(body.message, 'The server cannot find the requested resource.')
  assert.equal(typeof body.errorId, 'string')
  assert.deepEqual(Object.keys(body).sort(), ['errorId', 'message', 'name'])
})

test('session-required-403: a session function called without a credential answers 403', async () => {
  const response = await fetch(`${app.url}/todos`)
  // The function runner throws ForbiddenError('Authentication required'), which maps to 403, not 401.
  assert.equal(response.status, 403)
})

test('session-required-body: the 403 for a missing session is ForbiddenError "Authentication required"', async () => {
  const response = await fetch(`${app.url}/todos`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'x' }) })
  assert.equal(response.status, 403)
  const body = await response.json()
  assert.equal(body.name, 'ForbiddenError')
  assert.equal(body.message, 'Authentication required')
})

test('method-mismatch-404: a wired path called with an unwired method answers 404, not 405', async () => {
  const todo = await createTodo(alice, 'Method check')
  const put = await fetch(`${app.url}/todos/${todo.todoId}`, { method: 'PUT', headers: { ...alice, ...json }, body: '{}' })
  assert.equal(put.status, 404)
  assert.equal((await put.json()).name, 'NotFoundError')
  const postHealth = await fetch(`${app.url}/health`, { method: 'POST' })
  assert.equal(postHealth.status, 404)
})

test('bearer-session-200: with a bearer token from the jwt service, GET /todos answers 200 with the caller\'s list', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: await bearer(jwt, 'carol') })
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { todos: [] })
})

test('malformed-authorization-401: an Authorization header that is not "Bearer <token>" answers 401 InvalidSessionError', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: 'Basic abc' } })
  assert.equal(response.status, 401)
  const body = await response.json()
  assert.equal(body.name, 'InvalidSessionError')
  assert.equal(body.message, 'The session provided is not valid.')
})

test('undecodable-bearer-500: a bearer token the jwt service cannot decode answers 500, as an unregistered error', async () => {
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: 'Bearer not-a-jwt' } })
  assert.equal(response.status, 500)
  const body = await response.json()
  assert.equal(body.name, undefined)
  assert.equal(typeof body.errorId, 'string')
})

test('create-200: POST /todos answers 200 (not 201) with the created to-do', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'Water the plants' }),
  })
  assert.equal(response.status, 200)
  const todo = await response.json()
  assert.equal(todo.title, 'Water the plants')
  assert.equal(todo.ownerId, 'alice')
  assert.equal(todo.done, false)
})

test('not-found-body: a NotFoundError thrown by getTodo answers 404 with name, message and errorId, and no payload key', async () => {
  const response = await fetch(`${app.url}/todos/t_42`, { headers: alice })
  assert.equal(response.status, 404)
  const body = await response.json()
  assert.equal(body.name, 'NotFoundError')
  assert.equal(body.message, 'No to-do with id t_42')
  assert.equal(typeof body.errorId, 'string')
  assert.equal('payload' in body, false)
})

test('request-id-is-error-id: the x-request-id header sent by the client comes back as the errorId', async () => {
  const response = await fetch(`${app.url}/todos/t_42`, { headers: { ...alice, 'x-request-id': 'req-123' } })
  assert.equal((await response.json()).errorId, 'req-123')
})

test('cloudflare-run-fetch-trace-and-errors: @pikku/cloudflare\'s runFetch uses the cf-ray header as the request ID, before x-request-id, and hides an unregistered error\'s message outside production unless its own exposeErrors option is on', async () => {
  await import('./harness/core-cloudflare.js')
  const { runFetch } = await import('@pikku/cloudflare')
  const traced = await runFetch(new Request('http://localhost/no-such-route', { headers: { 'cf-ray': 'ray-1', 'x-request-id': 'req-1' } }))
  assert.equal(traced.status, 404)
  assert.equal((await traced.json()).errorId, 'ray-1')
  assert.equal((await (await runFetch(new Request('http://localhost/no-such-route', { headers: { 'x-request-id': 'req-1' } }))).json()).errorId, 'req-1')
  await withEnv({ BACKUP_DIR: '/dev/null/backups', NODE_ENV: 'test' }, async () => {
    const backup = () => new Request('http://localhost/todos/backup', { method: 'POST', headers: { ...alice, ...json }, body: '{}' })
    const hidden = await runFetch(backup())
    assert.equal(hidden.status, 500)
    assert.deepEqual(Object.keys(await hidden.json()), ['errorId'])
    const shown = await runFetch(backup(), undefined, { exposeErrors: true })
    assert.match((await shown.json()).message, /ENOTDIR/)
    // core's own fetch, in the same environment, shows it by default.
    assert.match((await (await coreFetch(backup())).json()).message, /ENOTDIR/)
  })
})

test('permission-denied-403: another user\'s to-do answers 403 ForbiddenError "Permission denied"', async () => {
  const todo = await createTodo(alice, 'Private')
  const response = await fetch(`${app.url}/todos/${todo.todoId}`, { headers: bob })
  assert.equal(response.status, 403)
  const body = await response.json()
  assert.equal(body.name, 'ForbiddenError')
  assert.equal(body.message, 'Permission denied')
})

test('delete-204: a function that returns nothing answers 204 with an empty body; deleting again answers 404', async () => {
  const todo = await createTodo(alice, 'Short-lived')
  const response = await fetch(`${app.url}/todos/${todo.todoId}`, { method: 'DELETE', headers: alice })
  assert.equal(response.status, 204)
  assert.equal(await response.text(), '')
  const again = await fetch(`${app.url}/todos/${todo.todoId}`, { method: 'DELETE', headers: alice })
  assert.equal(again.status, 404)
})

test('empty-result-status: a function returning null answers 204, one that set another status and returns nothing keeps it, and a value is JSON with 200 or the status it set; header, cookie and redirect (302 unless given) reach the client', async () => {
  const route = '/probe-status'
  let act: (response: any) => unknown = () => null
  const func = { auth: false, func: async (_services: unknown, _data: unknown, { http }: any) => act(http.response) }
  await withProbeRoute('probeStatus', route, func, {}, async () => {
    const call = () => fetch(`${app.url}${route}`, { redirect: 'manual' })
    const nothing = await call()
    assert.equal(nothing.status, 204)
    assert.equal(await nothing.text(), '')
    act = (response) => void response.status(202)
    const accepted = await call()
    assert.equal(accepted.status, 202)
    assert.equal(await accepted.text(), '')
    act = () => ({ ok: true })
    const value = await call()
    assert.equal(value.status, 200)
    assert.match(value.headers.get('content-type') ?? '', /^application\/json/)
    assert.deepEqual(await value.json(), { ok: true })
    act = (response) => (response.status(201).header('x-probe', 'set').cookie('probe', 'v', { path: '/' }), { ok: 1 })
    const created = await call()
    assert.equal(created.status, 201)
    assert.equal(created.headers.get('x-probe'), 'set')
    assert.match(created.headers.get('set-cookie') ?? '', /^probe=v; Path=\//)
    assert.deepEqual(await created.json(), { ok: 1 })
    act = (response) => void response.redirect('/todos', 307)
    const redirected = await call()
    assert.equal(redirected.status, 307)
    assert.equal(redirected.headers.get('location'), '/todos')
  })
})

test('fetch-data-null-and-starting-status-204: fetchData answers a null result with 204, and a function that sets the starting status 200 and returns nothing still gets 204', async () => {
  const route = '/probe-null-status'
  let act: (response: any) => unknown = () => null
  const func = { auth: false, func: async (_services: unknown, _data: unknown, { http }: any) => act(http.response) }
  await withProbeRoute('probeNullStatus', route, func, {}, async () => {
    const response = new PikkuFetchHTTPResponse()
    await coreFetchData(new Request(`http://localhost${route}`), response)
    assert.equal(response.toResponse().status, 204)
    act = (response) => void response.status(200)
    const same = await coreFetch(new Request(`http://localhost${route}`))
    assert.equal(same.status, 204)
    assert.equal(await same.text(), '')
  })
})

test('route-timeout-content-type-ignored: a route wired with timeout: 1 and contentType: \'xml\' still runs a function that takes longer, reads a JSON body as JSON and answers JSON, on Express and core\'s fetch', async () => {
  const route = '/probe-timeout'
  const func = { auth: false, func: async (_services: unknown, data: unknown) => {
    await new Promise((resolve) => setTimeout(resolve, 50))
    return { got: data }
  } }
  await withProbeRoute('probeTimeout', route, func, { method: 'post', timeout: 1, contentType: 'xml' }, async () => {
    const init = { method: 'POST', headers: json, body: '{"a":1}' }
    for (const response of [await fetch(`${app.url}${route}`, init), await coreFetch(new Request(`http://localhost${route}`, init))]) {
      assert.equal(response.status, 200)
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
      assert.deepEqual(await response.json(), { got: { a: 1 } })
    }
  })
})

test('update-missing-404: PATCH on a to-do id the store does not hold answers 404 NotFoundError, since the store\'s update returns undefined', async () => {
  const response = await fetch(`${app.url}/todos/t_no_such_todo`, {
    method: 'PATCH',
    headers: { ...alice, ...json },
    body: JSON.stringify({ done: true }),
  })
  assert.equal(response.status, 404)
  assert.equal((await response.json()).name, 'NotFoundError')
})

test('delete-body-ignored: a DELETE request is read without its body, so a body whose todoId conflicts with the path, plus an unknown key, is not refused and the to-do is deleted', async () => {
  const todo = await createTodo(alice, 'Body ignored')
  const response = await fetch(`${app.url}/todos/${todo.todoId}`, {
    method: 'DELETE',
    headers: { ...alice, ...json },
    body: JSON.stringify({ todoId: 'another-id', unexpected: true }),
  })
  assert.equal(response.status, 204)
  const gone = await fetch(`${app.url}/todos/${todo.todoId}`, { headers: alice })
  assert.equal(gone.status, 404)
})

test('conflicting-keys-422: the same key in the path and the body with different values answers 422', async () => {
  const todo = await createTodo(alice, 'Conflict')
  const response = await fetch(`${app.url}/todos/${todo.todoId}`, {
    method: 'PATCH',
    headers: { ...alice, ...json },
    body: JSON.stringify({ todoId: 'another-id', done: true }),
  })
  assert.equal(response.status, 422)
  const body = await response.json()
  assert.equal(body.name, 'UnprocessableContentError')
  assert.match(body.message, /^Conflicting values for key "todoId"/)
})

test('invalid-body-422: a body that does not match the input type answers 422 UnprocessableContentError naming the field', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 42 }),
  })
  assert.equal(response.status, 422)
  const body = await response.json()
  assert.equal(body.name, 'UnprocessableContentError')
  assert.equal(body.message, 'Property "title" does not match schema., Instance type "number" is invalid. Expected "string".')
})

test('core-reader-coerced-compare: core\'s reader compares a key sent twice after reading "true", "false" and numeric strings as booleans and numbers, and keeps the first value', async () => {
  const read = (query: string, body: Record<string, unknown>) => {
    const request = new PikkuFetchHTTPRequest(new Request(`http://localhost/probe?${query}`, { method: 'POST', headers: json, body: JSON.stringify(body) }))
    request.setParams({ id: '42' })
    return request.data()
  }
  assert.deepEqual(await read('done=true&off=false', { id: 42, done: true, off: false }), { id: '42', done: 'true', off: 'false' })
  await assert.rejects(read('done=true', { done: false }), errors.UnprocessableContentError)
  await assert.rejects(read('', { id: 43 }), errors.UnprocessableContentError)
})

test('inherited-key-conflict-422: a key named after an inherited object member, such as toString or valueOf, fails as a conflicting value from one source only, on Express and in core\'s reader', async () => {
  const response = await fetch(`${app.url}/todos?toString=1`, { headers: alice })
  assert.equal(response.status, 422)
  const body = await response.json()
  assert.equal(body.name, 'UnprocessableContentError')
  assert.match(body.message, /^Conflicting values for key "toString"/)
  // Core's reader, as Cloudflare and Lambda use it: one query key, no path params and no body.
  const request = new PikkuFetchHTTPRequest(new Request('http://localhost/probe?valueOf=1'))
  await assert.rejects(request.data(), (e: unknown) => e instanceof errors.UnprocessableContentError && /^Conflicting values for key "valueOf"/.test(e.message))
  // An ordinary key from the same single source is accepted.
  assert.deepEqual(await new PikkuFetchHTTPRequest(new Request('http://localhost/probe?title=1')).data(), { title: '1' })
})

test('reserved-keys-express: on Express a body key "constructor" fails as a conflicting value, and "prototype" is kept and refused by the schema as an unknown key', async () => {
  const post = (body: Record<string, unknown>) =>
    fetch(`${app.url}/todos`, { method: 'POST', headers: { ...alice, ...json }, body: JSON.stringify(body) })
  const withConstructor = await post({ title: 'x', constructor: 'y' })
  assert.equal(withConstructor.status, 422)
  assert.match((await withConstructor.json()).message, /^Conflicting values for key "constructor"/)
  const withPrototype = await post({ title: 'x', prototype: 'y' })
  assert.equal(withPrototype.status, 422)
  assert.match((await withPrototype.json()).message, /Property "prototype" does not match additional properties schema/)
})

/** A Fastify instance with the real @pikku/fastify-plugin over this file's app, answered in-process through inject. */
const withFastifyPlugin = async (options: Record<string, unknown>, body: (server: ReturnType<typeof Fastify>) => Promise<void>) => {
  const server = Fastify()
  await server.register(pikkuFastifyPlugin, { pikku: { logger: app.services.logger, ...options } } as never)
  await server.ready()
  try {
    await body(server)
  } finally {
    await server.close()
  }
}

test('fastify-reader-reserved-keys: the Fastify plugin\'s reader keeps the body keys constructor and prototype, so POST /todos fails with 422 on either, as a conflicting value and as an unknown key', async () => {
  await withFastifyPlugin({}, async (server) => {
    const post = (body: Record<string, unknown>) =>
      server.inject({ method: 'POST', url: '/todos', headers: { ...alice, ...json }, payload: JSON.stringify(body) })
    const withConstructor = await post({ title: 'reserved', constructor: 'c' })
    assert.equal(withConstructor.statusCode, 422)
    assert.match(withConstructor.json().message, /Conflicting values for key "constructor"/)
    const withPrototype = await post({ title: 'reserved', prototype: 'p' })
    assert.equal(withPrototype.statusCode, 422)
    assert.doesNotMatch(withPrototype.json().message, /Conflicting/)
    assert.equal((await post({ title: 'reserved' })).statusCode, 200)
  })
})

test('unknown-key-422: a key the input type does not declare answers 422 (additionalProperties is false)', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'x', priority: 'high' }),
  })
  assert.equal(response.status, 422)
  assert.match((await response.json()).message, /Property "priority" does not match additional properties schema/)
})

test('query-boolean-422: ?done=false against done?: boolean answers 422; query values are not coerced to booleans', async () => {
  for (const value of ['false', 'true']) {
    const response = await fetch(`${app.url}/todos?done=${value}`, { headers: alice })
    assert.equal(response.status, 422)
    const body = await response.json()
    assert.equal(body.name, 'UnprocessableContentError')
    assert.equal(body.message, 'Property "done" does not match schema., Instance type "string" is invalid. Expected "boolean".')
  }
})

test('coerce-array-split-only: before validation a comma-separated query value is split for an array field, but a numeric one stays a string and fails a number field with 422; without a schema service the input is not checked at all', async () => {
  const route = '/probe-coerce'
  const schemaName = 'ProbeCoerceInput'
  const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, n: { type: 'number' } }, additionalProperties: false }
  const schemas = pikkuState(null, 'misc', 'schemas') as Map<string, unknown>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, { inputSchemaName: string | null }>
  const main = getAllPackageStates().get('__main__')!.package as { singletonServices: { schema?: unknown } }
  const call = async (query: string, options = {}) => {
    const response = await coreFetch(new Request(`http://localhost${route}?${query}`), options)
    return { status: response.status, body: response.status === 200 ? await response.json() : (await response.json()).name }
  }
  const func = { auth: false, func: async (_services: unknown, data: unknown) => ({ data }) }
  schemas.set(schemaName, schema)
  try {
    await withProbeRoute('probeCoerce', route, func, {}, async () => {
      functionMeta.probeCoerce!.inputSchemaName = schemaName
      assert.deepEqual(await call('tags=home,garden'), { status: 200, body: { data: { tags: ['home', 'garden'] } } })
      assert.deepEqual(await call('n=5'), { status: 422, body: 'UnprocessableContentError' })
      assert.deepEqual(await call('tags=home,garden', { coerceDataFromSchema: false }), { status: 422, body: 'UnprocessableContentError' })
      const saved = main.singletonServices.schema
      main.singletonServices.schema = undefined
      try {
        assert.deepEqual(await call('n=5&extra=x'), { status: 200, body: { data: { n: '5', extra: 'x' } } })
      } finally {
        main.singletonServices.schema = saved
      }
    })
  } finally {
    schemas.delete(schemaName)
  }
})

test('core-query-repeated-key-last: core\'s reader for a Web Request keeps only the last value of a repeated query key', async () => {
  const request = new PikkuFetchHTTPRequest(new Request('http://localhost/todos?tags=home&tags=garden&list=home,garden'))
  assert.deepEqual(await request.data(), { tags: 'garden', list: 'home,garden' })
})

test('core-fetch-body-by-content-type: core\'s reader turns text/* into { data: text }, octet-stream into { data: ArrayBuffer }, a form into strings keeping a repeated key\'s last value, and refuses a form of more than 256 parameters with 422', async () => {
  const read = (type: string, body: BodyInit) =>
    new PikkuFetchHTTPRequest(new Request('http://localhost/probe', { method: 'POST', headers: { 'content-type': type }, body })).data()
  assert.deepEqual(await read('text/plain', 'hello'), { data: 'hello' })
  const bytes = (await read('application/octet-stream', new Uint8Array([1, 2, 3]))) as { data: unknown }
  assert.ok(bytes.data instanceof ArrayBuffer)
  assert.deepEqual([...new Uint8Array(bytes.data)], [1, 2, 3])
  assert.deepEqual(await read('application/x-www-form-urlencoded', 'a=1&b=x&a=2'), { a: '2', b: 'x' })
  const form = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join('&')
  assert.equal(Object.keys((await read('application/x-www-form-urlencoded', form(256))) as Record<string, string>).length, 256)
  await assert.rejects(read('application/x-www-form-urlencoded', form(257)), (e: unknown) =>
    e instanceof errors.UnprocessableContentError && /Too many form parameters/.test(e.message))
})

test('core-reader-refusals: core\'s reader refuses a form type with a charset suffix, multipart/form-data and JSON that does not parse with 422, and reads no body for GET, HEAD, OPTIONS and DELETE', async () => {
  const read = (method: string, type: string, body: string) => {
    const request = new Request('http://localhost/probe?q=1', { method: 'POST', headers: { 'content-type': type }, body })
    // A Request refuses a body for GET and HEAD, so the method is shadowed after construction.
    Object.defineProperty(request, 'method', { value: method })
    return new PikkuFetchHTTPRequest(request).data()
  }
  for (const [type, body] of [['application/x-www-form-urlencoded; charset=utf-8', 'a=1'], ['multipart/form-data; boundary=x', '--x--\r\n'], ['application/json', '{bad']]) {
    await assert.rejects(read('POST', type!, body!), (e: unknown) => e instanceof errors.UnprocessableContentError, type)
  }
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'DELETE']) {
    assert.deepEqual(await read(method, 'application/json', '{"a":2}'), { q: '1' }, method)
  }
  assert.deepEqual(await read('POST', 'application/json', '{"a":2}'), { q: '1', a: 2 })
})

test('core-fetch-default-body-limit-413: core\'s fetch refuses a body over 10 MiB (DEFAULT_MAX_BODY_SIZE) with 413 PayloadTooLargeError', async () => {
  const { DEFAULT_MAX_BODY_SIZE } = await import('@pikku/core/http')
  assert.equal(DEFAULT_MAX_BODY_SIZE, 10 * 1024 * 1024)
  // The padding is a key createTodo does not declare, so a body that is read is refused by the schema instead.
  const post = (size: number) => {
    const pad = 'x'.repeat(size - '{"title":"t","pad":""}'.length)
    return coreFetch(new Request('http://localhost/todos', { method: 'POST', headers: { ...alice, ...json }, body: JSON.stringify({ title: 't', pad }) }))
  }
  const refused = await post(DEFAULT_MAX_BODY_SIZE + 1)
  assert.equal(refused.status, 413)
  assert.equal((await refused.json()).name, 'PayloadTooLargeError')
  assert.equal((await post(DEFAULT_MAX_BODY_SIZE)).status, 422)
})

test('wire-http-one-route: a wireHTTP call adds one route, under its own method and path', async () => {
  const routes = pikkuState(null, 'http', 'routes') as Map<string, Map<string, unknown>>
  const count = () => [...routes.values()].reduce((total, byPath) => total + byPath.size, 0)
  const before = count()
  await withProbeRoute('probeOneRoute', '/probe-one-route', { func: async () => undefined }, { method: 'patch' }, async () => {
    assert.equal(count(), before + 1)
    assert.ok(routes.get('patch')!.has('/probe-one-route'))
  })
  assert.equal(count(), before)
})

test('route-leading-slash-added: a route wired without a leading "/" is matched as if it had one', async () => {
  const func = { auth: false, func: async () => ({ matched: true }) }
  await withProbeRoute('probeNoSlash', 'probe-no-slash/:id', func, {}, async () => {
    const response = await coreFetch(new Request('http://localhost/probe-no-slash/1'))
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { matched: true })
  })
})

test('path-case: a path with a parameter matches whatever the case; a path without one must match exactly', async () => {
  const todo = await createTodo(alice, 'Case')
  const upper = await fetch(`${app.url}/TODOS/${todo.todoId}`, { headers: alice })
  assert.equal(upper.status, 200)
  assert.equal((await upper.json()).todoId, todo.todoId)
  const health = await fetch(`${app.url}/HEALTH`)
  assert.equal(health.status, 404)
})

test('path-trailing-slash: a path with a parameter also matches with a trailing slash; a path without one does not', async () => {
  const todo = await createTodo(alice, 'Trailing slash')
  const slashed = await fetch(`${app.url}/todos/${todo.todoId}/`, { headers: alice })
  assert.equal(slashed.status, 200)
  assert.equal((await slashed.json()).todoId, todo.todoId)
  const health = await fetch(`${app.url}/health/`)
  assert.equal(health.status, 404)
})

test('malformed-escape-500: a bad percent escape in a path with a parameter makes the router throw a URIError; Express answers 500, core\'s fetch rejects', async () => {
  const express500 = await fetch(`${app.url}/todos/%E0%A4%A`, { headers: alice })
  assert.equal(express500.status, 500)
  assert.doesNotMatch(await express500.text(), /errorId/)
  await assert.rejects(coreFetch(new Request('http://localhost/todos/%E0%A4%A')), URIError)
  // A path without a parameter is compared undecoded, so the same escape there is an ordinary 404.
  const staticPath = await coreFetch(new Request('http://localhost/health%E0%A4%A'))
  assert.equal(staticPath.status, 404)
})

test('channel-path-nothing-written: a plain GET on the channel\'s path makes fetchData reject before the runner\'s error handling, so the response it was given is left untouched', async () => {
  const response = new PikkuFetchHTTPResponse()
  await assert.rejects(coreFetchData(new Request('http://localhost/todos/live'), response), TypeError)
  const untouched = response.toResponse()
  assert.equal(untouched.status, 200)
  assert.equal(untouched.headers.get('content-type'), null)
  assert.equal(await untouched.text(), '')
})

test('lambda-v2-channel-path-500: @pikku/lambda\'s runFetchV2 catches the rejection of a plain GET on the channel\'s path and answers 500', async () => {
  const { runFetchV2 } = await import('@pikku/lambda/http')
  const event = (rawPath: string) => ({
    rawPath,
    rawQueryString: '',
    headers: { host: 'localhost' },
    requestContext: { http: { method: 'GET' } },
    isBase64Encoded: false,
  }) as never
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  try {
    const result = (await runFetchV2(event('/todos/live'))) as { statusCode: number; body: string }
    assert.equal(result.statusCode, 500)
    assert.deepEqual(JSON.parse(result.body), { error: 'Internal Server Error' })
    assert.equal(errors.length, 1)
  } finally {
    console.error = original
  }
  assert.equal(((await runFetchV2(event('/health'))) as { statusCode: number }).statusCode, 200)
})

test('content-type-twice-express-500: a function that sets Content-Type and returns a value answers 500 on Express; core\'s fetch replaces its type; a returned Response keeps it', async () => {
  const route = '/probe-csv'
  const func = {
    auth: false,
    func: async (_services: unknown, _data: unknown, { http }: any) => {
      http.response.header('Content-Type', 'text/csv')
      return 'title,done\nWater the plants,false'
    },
  }
  await withProbeRoute('probeCsv', route, func, {}, async () => {
    const onExpress = await fetch(`${app.url}${route}`)
    assert.equal(onExpress.status, 500)
    // The runner's json() adds a second Content-Type to the one the function set, which Express refuses to write.
    assert.match(await onExpress.text(), /Content-Type cannot be set to an Array/)
    const onFetch = await coreFetch(new Request(`http://localhost${route}`))
    assert.equal(onFetch.status, 200)
    assert.equal(onFetch.headers.get('content-type'), 'application/json')
    assert.equal(await onFetch.json(), 'title,done\nWater the plants,false')
    // Returning a Web Response instead keeps the type: the runner copies its headers and sends its body as it is.
    const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
    functions.set('probeCsv', {
      auth: false,
      func: async () => new Response('title,done\nWater the plants,false', { headers: { 'Content-Type': 'text/csv' } }),
    })
    const asResponse = await fetch(`${app.url}${route}`)
    assert.equal(asResponse.status, 200)
    assert.match(asResponse.headers.get('content-type') ?? '', /^text\/csv/)
    assert.equal(await asResponse.text(), 'title,done\nWater the plants,false')
  })
})

test('returns-json-false-arraybuffer-express: on a returnsJSON: false route, Express sends an ArrayBuffer result as {} and a Uint8Array as its bytes; core\'s fetch sends both', async () => {
  await withRawBytesRoute(async (route, asUint8Array) => {
    const arrayBuffer = await fetch(`${app.url}${route}`)
    assert.equal(arrayBuffer.status, 200)
    assert.equal(await arrayBuffer.text(), '{}')
    assert.equal(await (await coreFetch(new Request(`http://localhost${route}`))).text(), 'raw bytes')
    asUint8Array()
    const view = await fetch(`${app.url}${route}`)
    assert.equal(await view.text(), 'raw bytes')
    assert.equal(await (await coreFetch(new Request(`http://localhost${route}`))).text(), 'raw bytes')
  })
})

test('fetch-client-raw-body-undefined: on a returnsJSON: false route the fetch client\'s api (what the typed methods call) resolves undefined; fetch returns the bytes', async () => {
  const route = '/probe-raw-client'
  const func = { auth: false, func: async () => new TextEncoder().encode('raw bytes') }
  await withProbeRoute('probeRawClient', route, func, { returnsJSON: false }, async () => {
    const client = new CorePikkuFetch({ serverUrl: app.url })
    assert.equal(await client.api(route, 'GET', null), undefined)
    const response = await client.fetch(route, 'GET', null)
    assert.equal(response.status, 200)
    assert.equal(await response.text(), 'raw bytes')
  })
})

test('unregistered-error-500: an error with no mapping answers 500; message and stack only outside production', async () => {
  // backupTodos writes under BACKUP_DIR; a folder below /dev/null cannot be made, so mkdir throws a plain Error.
  await withEnv({ BACKUP_DIR: '/dev/null/backups', NODE_ENV: 'test' }, async () => {
    const dev = await fetch(`${app.url}/todos/backup`, { method: 'POST', headers: alice })
    assert.equal(dev.status, 500)
    const devBody = await dev.json()
    assert.deepEqual(Object.keys(devBody).sort(), ['errorId', 'message', 'stack'])
    assert.match(devBody.message, /ENOTDIR/)
    process.env.NODE_ENV = 'production'
    const prod = await fetch(`${app.url}/todos/backup`, { method: 'POST', headers: alice })
    assert.equal(prod.status, 500)
    assert.deepEqual(Object.keys(await prod.json()), ['errorId'])
  })
})

test('skip-user-session-500: skipUserSession makes core\'s fetch throw a plain Error on a route that requires a session (500) and changes nothing on a sessionless one', async () => {
  const refused = await coreFetch(new Request('http://localhost/todos', { headers: alice }), { skipUserSession: true, exposeErrors: true })
  assert.equal(refused.status, 500)
  assert.match((await refused.json()).message, /Can't skip trying to get user session/)
  assert.equal((await coreFetch(new Request('http://localhost/health'), { skipUserSession: true })).status, 200)
})

test('skip-user-session-resolves: with skipUserSession a sessionless route\'s middleware still sets the session the function receives', async () => {
  const route = '/probe-skip-session'
  const setter = async (_services: unknown, wire: any, next: () => Promise<void>) => {
    wire.setSession?.({ userId: 'probe-user' })
    await next()
  }
  const func = { auth: false, func: async (_services: unknown, _data: unknown, wire: any) => ({ userId: wire.session?.userId ?? null }) }
  await withProbeRoute('probeSkipSession', route, func, { middleware: [setter] }, async () => {
    for (const skipUserSession of [true, false]) {
      const response = await coreFetch(new Request(`http://localhost${route}`), { skipUserSession })
      assert.deepEqual(await response.json(), { userId: 'probe-user' }, String(skipUserSession))
    }
  })
})

test('not-found-not-bubbled: with bubbleErrors a NotFoundError is rethrown, but with respondWith404 false as well it is neither written nor rethrown', async () => {
  const request = () => new Request('http://localhost/no-such-route')
  await assert.rejects(coreFetch(request(), { bubbleErrors: true }), errors.NotFoundError)
  const quiet = await coreFetch(request(), { bubbleErrors: true, respondWith404: false })
  assert.equal(quiet.status, 200)
  assert.equal(await quiet.text(), '')
})

test('express-health-check: PikkuExpressServer answers GET /health-check itself with 200 {"status":"ok"}', async () => {
  const response = await fetch(`${app.url}/health-check`)
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { status: 'ok' })
})

test('express-body-limit-413: PikkuExpressServer\'s JSON parser refuses a body over 1 MiB with 413 before Pikku runs', async () => {
  // Just under 1 MiB passes, so the limit is not express.json()'s own 100 kB default.
  const underLimit = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'x'.repeat(1_000_000) }),
  })
  assert.equal(underLimit.status, 200)
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, ...json },
    body: JSON.stringify({ title: 'x'.repeat(1_100_000) }),
  })
  assert.equal(response.status, 413)
  // Express's own error page, not a Pikku JSON error body.
  assert.match(response.headers.get('content-type') ?? '', /text\/html/)
})

test('express-server-json-limit-options: PikkuExpressServer\'s JSON parser limit is replaced by the maxBodySize given to init(), and limits.json replaces both; limits.xml and limits.urlencoded leave it at 1 MiB', async () => {
  const post = (port: number, size: number) =>
    fetch(`http://127.0.0.1:${port}/todos`, { method: 'POST', headers: { ...alice, ...json }, body: JSON.stringify({ title: 'x'.repeat(size) }) })
  const cases = [
    { limits: undefined, maxBodySize: 2 * 1024 * 1024, size: 1_500_000, status: 200 },
    { limits: { json: '100kb' }, maxBodySize: 2 * 1024 * 1024, size: 200_000, status: 413 },
    { limits: { xml: '10mb', urlencoded: '10mb' }, maxBodySize: undefined, size: 1_100_000, status: 413 },
  ]
  for (const { limits, maxBodySize, size, status } of cases) {
    const port = await freePort()
    const server = new PikkuExpressServer({ port, hostname: '127.0.0.1', ...(limits ? { limits } : {}) }, app.services.logger)
    await server.init(maxBodySize ? { maxBodySize } : {})
    await server.start()
    try {
      const response = await post(port, size)
      assert.equal(response.status, status, JSON.stringify({ limits, maxBodySize }))
      if (status === 413) assert.match(response.headers.get('content-type') ?? '', /text\/html/)
    } finally {
      await server.stop()
    }
  }
})

test('express-server-parser-limits-per-parser: PikkuExpressServer gives maxBodySize to each parser that has no limits entry of its own: with limits.json set, a 1.5 MB form body passes under maxBodySize 2 MiB while a JSON body over limits.json gets 413', async () => {
  const port = await freePort()
  const server = new PikkuExpressServer({ port, hostname: '127.0.0.1', limits: { json: '100kb' } }, app.services.logger)
  await server.init({ maxBodySize: 2 * 1024 * 1024 })
  await server.start()
  try {
    const url = `http://127.0.0.1:${port}/todos`
    const form = await fetch(url, {
      method: 'POST',
      headers: { ...alice, 'content-type': 'application/x-www-form-urlencoded' },
      body: `title=${'x'.repeat(1_500_000)}`,
    })
    assert.equal(form.status, 200)
    const tooBig = await fetch(url, { method: 'POST', headers: { ...alice, ...json }, body: JSON.stringify({ title: 'x'.repeat(200_000) }) })
    assert.equal(tooBig.status, 413)
  } finally {
    await server.stop()
  }
})

test('cors-listed-origin: a listed Origin is reflected, with credentials and Vary: Origin', async () => {
  const response = await fetch(`${app.url}/health`, { headers: { origin: 'http://localhost:5173' } })
  assert.equal(response.status, 200)
  assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  assert.equal(response.headers.get('access-control-allow-credentials'), 'true')
  assert.equal(response.headers.get('vary'), 'Origin')
  assert.equal(response.headers.get('access-control-allow-methods'), 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
  assert.equal(response.headers.get('access-control-allow-headers'), 'Content-Type, Authorization, x-api-key')
})

test('cors-unlisted-origin: an Origin not in the list gets no Access-Control-Allow-Origin and no Allow-Credentials', async () => {
  const response = await fetch(`${app.url}/health`, { headers: { origin: 'https://elsewhere.example' } })
  assert.equal(response.status, 200)
  assert.equal(response.headers.get('access-control-allow-origin'), null)
  assert.equal(response.headers.get('access-control-allow-credentials'), null)
})

test('cors-unknown-route-no-headers: the 404 for a path no wiring matches carries no CORS headers', async () => {
  const response = await fetch(`${app.url}/no-such-route`, { headers: { origin: 'http://localhost:5173' } })
  assert.equal(response.status, 404)
  assert.equal(response.headers.get('access-control-allow-origin'), null)
})

test('cors-global-middleware-error-no-headers: an error thrown by the global authBearer, which runs before the "*" group\'s cors(), carries no CORS headers; a refusal by the runner does', async () => {
  const origin = { origin: 'http://localhost:5173' }
  const wrongScheme = await fetch(`${app.url}/todos`, { headers: { ...origin, authorization: 'Basic abc' } })
  assert.equal(wrongScheme.status, 401)
  assert.equal(wrongScheme.headers.get('access-control-allow-origin'), null)
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, { userId: 'alice', role: 'member' })
  const badToken = await fetch(`${app.url}/todos`, { headers: { ...origin, authorization: `Bearer ${expired}` } })
  assert.equal(badToken.status, 500)
  assert.equal(badToken.headers.get('access-control-allow-origin'), null)
  // No session at all: cors() has run before the runner refuses the call, so the 403 carries the headers.
  const noSession = await fetch(`${app.url}/todos`, { headers: origin })
  assert.equal(noSession.status, 403)
  assert.equal(noSession.headers.get('access-control-allow-origin'), 'http://localhost:5173')
})

test('cors-cookie-error-no-headers: authCookie runs before cors() in the "*" group, so its 500 for a cookie that does not verify carries no CORS headers', async () => {
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, { userId: 'alice', role: 'member' })
  const response = await fetch(`${app.url}/todos`, {
    headers: { origin: 'http://localhost:5173', cookie: `todo_session=${expired}` },
  })
  assert.equal(response.status, 500)
  assert.equal(response.headers.get('access-control-allow-origin'), null)
})

test('cors-api-key-error-no-headers: authAPIKey also runs before cors() in the "*" group, so its 500 for a key that does not verify carries no CORS headers', async () => {
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, { userId: 'alice', role: 'member' })
  const response = await fetch(`${app.url}/todos`, { headers: { origin: 'http://localhost:5173', 'x-api-key': expired } })
  assert.equal(response.status, 500)
  assert.equal(response.headers.get('access-control-allow-origin'), null)
})

test('cors-preflight-express-500: on @pikku/express 0.12.14, and on @pikku/express-middleware 0.12.8 mounted in a plain Express app, a preflight for a path with no OPTIONS route answers 500', async () => {
  const todo = await createTodo(alice, 'Preflight')
  const preflight = { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' } }
  const response = await fetch(`${app.url}/todos/${todo.todoId}`, preflight)
  // cors() answers 204 and the runner then answers 204 again: the response holds two Content-Type headers,
  // which Express refuses when it writes them ("Content-Type cannot be set to an Array").
  assert.equal(response.status, 500)
  assert.match(await response.text(), /Content-Type cannot be set to an Array/)
  // The middleware alone, laid out as src/runtimes/express.ts lays it out, fails the same way.
  const mounted = await mount((server) => usePikku(server))
  try {
    const bare = await fetch(`${mounted.url}/todos/${todo.todoId}`, preflight)
    assert.equal(bare.status, 500)
    assert.match(await bare.text(), /Content-Type cannot be set to an Array/)
  } finally {
    await mounted.close()
  }
})

test('fetch-client-roundtrip: the generated PikkuFetch creates, updates and lists with a JWT set', async () => {
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'dora', role: 'member' }))
  const created = await client.post('/todos', { title: 'From the client' })
  const updated = await client.patch('/todos/:todoId', { todoId: created.todoId, done: true })
  assert.equal(updated.done, true)
  const { todos } = await client.get('/todos', {})
  assert.deepEqual(todos.map((t) => t.todoId), [created.todoId])
})

test('fetch-client-path-key-prefix: the client fills a path placeholder by the first match of a colon and a data key, in the data\'s key order, so a key that starts a longer parameter name (todo against :todoId) corrupts the path and the call fails', async () => {
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'dora', role: 'member' }))
  const created = await client.post('/todos', { title: 'Prefix keys' })
  const urls: string[] = []
  const realFetch = globalThis.fetch
  globalThis.fetch = ((url: string, init?: RequestInit) => {
    urls.push(String(url))
    return realFetch(url, init)
  }) as typeof fetch
  try {
    // todoId alone: its placeholder is filled.
    await client.api('/todos/:todoId', 'GET', { todoId: created.todoId })
    // todo first: ':todo' matches the start of ':todoId', so the path becomes /todos/xId.
    await assert.rejects(client.api('/todos/:todoId', 'GET', { todo: 'x', todoId: created.todoId }), (error: unknown) => {
      assert.ok(error instanceof PikkuFetchError)
      // The path now says todoId is 'xId' and the query string names the real id: the runner refuses the clash.
      assert.equal(error.status, 422)
      assert.match(error.message, /Conflicting values for key "todoId": "xId"/)
      return true
    })
  } finally {
    globalThis.fetch = realFetch
  }
  assert.equal(urls[0], `${app.url}/todos/${created.todoId}?`)
  assert.equal(urls[1], `${app.url}/todos/xId?todoId=${created.todoId}`)
})

test('fetch-client-errors: an error status throws PikkuFetchError with status, the server\'s name and message, and the body', async () => {
  const client = new PikkuFetch({ serverUrl: app.url })
  await assert.rejects(client.get('/todos', {}), (error: unknown) => {
    assert.ok(error instanceof PikkuFetchError)
    assert.equal(error.status, 403)
    assert.equal(error.name, 'ForbiddenError')
    assert.equal(error.message, 'Authentication required')
    return true
  })
  client.setAuthorizationJWT(await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'dora', role: 'member' }))
  await assert.rejects(client.get('/todos/:todoId', { todoId: 't_42' }), (error: unknown) => {
    assert.ok(error instanceof PikkuFetchError)
    assert.equal(error.status, 404)
    assert.equal(error.name, 'NotFoundError')
    assert.equal(typeof (error.body as { errorId?: unknown }).errorId, 'string')
    return true
  })
})

test('fetch-client-post-no-data-core-422: a post() without data sends no body and no Content-Type, which core\'s reader for a Web Request refuses with 422; Express runs the function', async () => {
  const client = new PikkuFetch({ serverUrl: 'http://pikku.test' })
  client.setAuthorizationJWT(await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'erin', role: 'admin' }))
  const realFetch = globalThis.fetch
  // The client calls the global fetch; hand its requests to core's fetch, as a Web Request host would.
  globalThis.fetch = ((url: string, init?: RequestInit) => coreFetch(new Request(url, init))) as typeof fetch
  try {
    await assert.rejects(client.post('/session/act-as-member'), (error: unknown) => {
      assert.ok(error instanceof PikkuFetchError)
      assert.equal(error.status, 422)
      assert.match(error.message, /Unsupported content type/)
      return true
    })
    // The typed post() refuses {} for a void input; the untyped api() sends it as a JSON body, which passes.
    assert.deepEqual(await client.api('/session/act-as-member', 'POST', {}), { role: 'member' })
  } finally {
    globalThis.fetch = realFetch
  }
  const express = new PikkuFetch({ serverUrl: app.url })
  express.setAuthorizationJWT(await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'erin', role: 'admin' }))
  assert.deepEqual(await express.post('/session/act-as-member'), { role: 'member' })
})

test('fetch-client-unregistered-500: an error with no registered status throws PikkuFetchError named PikkuFetchError: the body carries errorId but no name', async () => {
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(await jwt.encode({ value: -1, unit: 'hour' }, { userId: 'dora', role: 'member' }))
  await assert.rejects(client.get('/todos', {}), (error: unknown) => {
    assert.ok(error instanceof PikkuFetchError)
    assert.equal(error.status, 500)
    assert.equal(error.name, 'PikkuFetchError')
    const body = error.body as { name?: unknown; errorId?: unknown }
    assert.equal(body.name, undefined)
    assert.equal(typeof body.errorId, 'string')
    return true
  })
})

test('fetch-client-boolean-query-422: get(\'/todos\', { done: false }) sends ?done=false and is refused with 422', async () => {
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'dora', role: 'member' }))
  await assert.rejects(client.get('/todos', { done: false }), (error: unknown) => {
    assert.ok(error instanceof PikkuFetchError)
    assert.equal(error.status, 422)
    assert.equal(error.name, 'UnprocessableContentError')
    return true
  })
})

test('void-input-ignores-query: a function with a void input (health) runs with query data it does not expect', async () => {
  const response = await fetch(`${app.url}/health?probe=1`)
  assert.equal(response.status, 200)
})

test('error-status-table: the statuses core registers for its error classes', () => {
  const registry = pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number; mcpCode?: number }>
  const expected: Array<[unknown, number, number?]> = [
    [errors.BadRequestError, 400, -32600], [errors.UnauthorizedError, 401], [errors.MissingSessionError, 401],
    [errors.InvalidSessionError, 401], [errors.AIProviderAuthError, 401], [errors.PaymentRequiredError, 402],
    [errors.ForbiddenError, 403], [errors.LocalEnvironmentOnlyError, 403], [errors.MissingCredentialError, 403],
    [errors.MissingScopeError, 403], [errors.ReadonlySessionError, 403], [errors.InvalidOriginError, 403],
    [errors.NotFoundError, 404, -32601], [errors.MethodNotAllowedError, 405], [errors.NotAcceptableError, 406],
    [errors.ProxyAuthenticationRequiredError, 407], [errors.RequestTimeoutError, 408], [errors.ConflictError, 409],
    [errors.SystemRoleImmutableError, 409], [errors.SystemRoleShadowedError, 409], [errors.GoneError, 410],
    [errors.LengthRequiredError, 411], [errors.PreconditionFailedError, 412], [errors.PayloadTooLargeError, 413],
    [errors.URITooLongError, 414], [errors.UnsupportedMediaTypeError, 415], [errors.RangeNotSatisfiableError, 416],
    [errors.ExpectationFailedError, 417], [errors.UnprocessableContentError, 422], [errors.LockedError, 423],
    [errors.TooManyRequestsError, 429], [errors.InternalServerError, 500], [errors.InvalidMiddlewareWireError, 500],
    [errors.PikkuMissingMetaError, 500], [errors.MissingServiceError, 500], [errors.MissingSchemaError, 500],
    [errors.WeakKeyMaterialError, 500], [errors.NotImplementedError, 501], [errors.BadGatewayError, 502],
    [errors.ServiceUnavailableError, 503], [errors.AIProviderNotConfiguredError, 503], [errors.GatewayTimeoutError, 504],
    [errors.HTTPVersionNotSupportedError, 505], [errors.MaxComputeTimeReachedError, 524],
  ]
  for (const [errorClass, status, mcpCode] of expected) {
    const details = registry.get(errorClass)
    assert.ok(details, `${(errorClass as { name: string }).name} is registered`)
    assert.equal(details.status, status, (errorClass as { name: string }).name)
    assert.equal(details.mcpCode, mcpCode, (errorClass as { name: string }).name)
  }
  // The app's own error, registered by src/errors.ts as soon as a module imports it: here this test file does, since
  // nothing in the app's src imports it yet.
  assert.equal(registry.get(TodoLimitReachedError)?.status, 409)
})


test('error-status-bodies: each built-in class thrown from a function answers its status; below 500 with the thrown message and payload, from 500 with the registered message unless exposeErrors is on outside production', async () => {
  const registry = pikkuState(null, 'misc', 'errors') as Map<unknown, { status: number; message: string }>
  const thrown = 'thrown by the probe'
  const cases: Array<[() => Error, number, Record<string, unknown>?]> = [
    [() => new errors.BadRequestError(thrown), 400], [() => new errors.UnauthorizedError(thrown), 401],
    [() => new errors.MissingSessionError(thrown), 401], [() => new errors.InvalidSessionError(thrown), 401],
    [() => new errors.AIProviderAuthError(thrown), 401], [() => new errors.PaymentRequiredError(thrown), 402],
    [() => new errors.ForbiddenError(thrown), 403], [() => new errors.LocalEnvironmentOnlyError(thrown), 403],
    [() => new errors.MissingCredentialError('github', 'oauth2', 'https://example.test/connect'), 403,
      { error: 'missing_credential', credentialName: 'github', credentialType: 'oauth2', connectUrl: 'https://example.test/connect' }],
    [() => new errors.MissingScopeError('todos:write'), 403, { error: 'missing_scope', scope: 'todos:write' }],
    [() => new errors.ReadonlySessionError(thrown), 403], [() => new errors.InvalidOriginError(thrown), 403],
    [() => new errors.NotFoundError(thrown), 404], [() => new errors.MethodNotAllowedError(thrown), 405],
    [() => new errors.NotAcceptableError(thrown), 406], [() => new errors.ProxyAuthenticationRequiredError(thrown), 407],
    [() => new errors.RequestTimeoutError(thrown), 408], [() => new errors.ConflictError(thrown), 409],
    [() => new errors.SystemRoleImmutableError('admin', 'rename'), 409, { error: 'system_role_immutable', role: 'admin', operation: 'rename' }],
    [() => new errors.SystemRoleShadowedError('admin'), 409, { error: 'system_role_shadowed', role: 'admin' }],
    [() => new errors.GoneError(thrown), 410], [() => new errors.LengthRequiredError(thrown), 411],
    [() => new errors.PreconditionFailedError(thrown), 412], [() => new errors.PayloadTooLargeError(thrown), 413],
    [() => new errors.URITooLongError(thrown), 414], [() => new errors.UnsupportedMediaTypeError(thrown), 415],
    [() => new errors.RangeNotSatisfiableError(thrown), 416], [() => new errors.ExpectationFailedError(thrown), 417],
    [() => new errors.UnprocessableContentError(thrown), 422], [() => new errors.LockedError(thrown), 423],
    [() => new errors.TooManyRequestsError(thrown), 429], [() => new errors.InternalServerError(thrown), 500],
    [() => new errors.InvalidMiddlewareWireError(thrown), 500], [() => new errors.PikkuMissingMetaError(thrown), 500],
    [() => new errors.MissingServiceError(thrown), 500], [() => new errors.MissingSchemaError(thrown), 500],
    [() => new errors.WeakKeyMaterialError('JWT_SECRET', 32, 8), 500], [() => new errors.NotImplementedError(thrown), 501],
    [() => new errors.BadGatewayError(thrown), 502], [() => new errors.ServiceUnavailableError(thrown), 503],
    [() => new errors.AIProviderNotConfiguredError(), 503], [() => new errors.GatewayTimeoutError(thrown), 504],
    [() => new errors.HTTPVersionNotSupportedError(thrown), 505], [() => new errors.MaxComputeTimeReachedError(thrown), 524],
  ]
  assert.equal(cases.length, 44)
  let current: Error = new Error('unset')
  const route = '/probe-error-status'
  await withProbeRoute('probeErrorStatus', route, { func: async () => { throw current } }, {}, async () => {
    for (const nodeEnv of ['production', 'test']) {
      await withEnv({ NODE_ENV: nodeEnv }, async () => {
        for (const [make, status, payload] of cases) {
          current = make()
          const label = `${current.name} (${nodeEnv})`
          // node:http, not fetch: a fetch client never shows a 407 (see below).
          const response = await new Promise<{ status?: number; text: string }>((resolve, reject) => {
            getRaw(`${app.url}${route}`, { headers: { 'x-request-id': 'req-status' } }, (res) => {
              let text = ''
              res.setEncoding('utf8')
              res.on('data', (chunk) => (text += chunk))
              res.on('end', () => resolve({ status: res.statusCode, text }))
            }).on('error', reject)
          })
          const body = JSON.parse(response.text)
          assert.equal(response.status, status, label)
          assert.equal(body.name, current.name, label)
          assert.equal(body.errorId, 'req-status', label)
          const shown = status < 500 || nodeEnv !== 'production'
          assert.equal(body.message, shown ? current.message : registry.get(current.constructor)?.message, label)
          assert.deepEqual(body.payload, shown ? payload : undefined, label)
        }
      })
    }
    // A 5xx error that carries a payload: the payload reaches the client only where the thrown message does.
    const withPayload = () => Object.assign(new errors.ServiceUnavailableError(thrown), { payload: { retryAfter: 5 } })
    for (const nodeEnv of ['production', 'test']) {
      await withEnv({ NODE_ENV: nodeEnv }, async () => {
        current = withPayload()
        const body = await (await fetch(`${app.url}${route}`)).json()
        assert.equal(body.message, nodeEnv === 'test' ? thrown : registry.get(errors.ServiceUnavailableError)?.message, nodeEnv)
        assert.deepEqual(body.payload, nodeEnv === 'test' ? { retryAfter: 5 } : undefined, nodeEnv)
      })
    }
    // Outside production with exposeErrors turned off (core's fetch runner, same error handling): the registered
    // message and no payload, while below 500 the thrown message and payload still come through.
    await withEnv({ NODE_ENV: 'test' }, async () => {
      current = withPayload()
      const hidden = await coreFetch(new Request(`http://localhost${route}`), { exposeErrors: false })
      assert.equal(hidden.status, 503)
      const hiddenBody = await hidden.json()
      assert.equal(hiddenBody.message, registry.get(errors.ServiceUnavailableError)?.message)
      assert.equal(hiddenBody.payload, undefined)
      current = new errors.MissingScopeError('todos:write')
      const below = await (await coreFetch(new Request(`http://localhost${route}`), { exposeErrors: false })).json()
      assert.deepEqual(below.payload, { error: 'missing_scope', scope: 'todos:write' })
    })
    // The Fetch standard makes a 407 a network error, so Node's fetch (undici), like a browser's, rejects instead of
    // handing over the status and the body.
    current = new errors.ProxyAuthenticationRequiredError(thrown)
    await assert.rejects(fetch(`${app.url}${route}`), { name: 'TypeError', message: 'fetch failed' })
  })
})

test('no-content-type-express-422: on Express a POST body without Content-Type is not parsed, so createTodo finds no title: 422; behind express.json() alone a form body fares the same', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: alice,
    body: new TextEncoder().encode(JSON.stringify({ title: 'x' })),
  })
  assert.equal(response.status, 422)
  assert.match((await response.json()).message, /required property "title"/)
  // src/runtimes/express.ts's layout: express.json() is the only parser, so a form body reaches Pikku empty.
  const mounted = await mount((server) => usePikku(server))
  try {
    const form = await fetch(`${mounted.url}/todos`, {
      method: 'POST',
      headers: { ...alice, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=From+a+form',
    })
    assert.equal(form.status, 422)
    assert.match((await form.json()).message, /required property "title"/)
  } finally {
    await mounted.close()
  }
})

test('form-body-express-200: PikkuExpressServer parses a form-encoded body into the input', async () => {
  const response = await fetch(`${app.url}/todos`, {
    method: 'POST',
    headers: { ...alice, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'title=From+a+form',
  })
  assert.equal(response.status, 200)
  assert.equal((await response.json()).title, 'From a form')
})

/** A second listener on the same services: an Express app that mounts Pikku, the way src/runtimes/express.ts does. */
const mount = async (setup: (server: express.Express) => void): Promise<{ url: string; close: () => Promise<void> }> => {
  const server = express()
  setup(server)
  const port = await freePort()
  const listener: Server = await new Promise((resolve) => {
    const s = server.listen(port, '127.0.0.1', () => resolve(s))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => listener.close(() => resolve())),
  }
}

/** src/runtimes/express.ts's layout on a server: express.json() (with these options), then pikkuExpressMiddleware. */
const usePikku = (
  server: express.Express,
  options: Partial<Parameters<typeof pikkuExpressMiddleware>[0]> = {},
  json?: Parameters<typeof express.json>[0],
) => {
  server.use(express.json(json))
  server.use(pikkuExpressMiddleware({ logger: app.services.logger, ...options }))
}

test('middleware-own-route-first: with Express routes before pikkuExpressMiddleware, both answer', async () => {
  const mounted = await mount((server) => {
    server.get('/legacy/ping', (_req, res) => {
      res.send('pong')
    })
    usePikku(server)
  })
  try {
    assert.equal(await (await fetch(`${mounted.url}/legacy/ping`)).text(), 'pong')
    const health = await fetch(`${mounted.url}/health`)
    assert.equal(health.status, 200)
    assert.deepEqual(await health.json(), { status: 'ok' })
    assert.equal((await fetch(`${mounted.url}/todos`)).status, 403)
    const unknown = await fetch(`${mounted.url}/no-such-route`)
    assert.equal(unknown.status, 404)
    assert.match(unknown.headers.get('content-type') ?? '', /application\/json/)
    assert.equal((await unknown.json()).name, 'NotFoundError')
  } finally {
    await mounted.close()
  }
})

test('middleware-own-route-after: an Express route registered after pikkuExpressMiddleware still runs, but the client gets Pikku\'s 404 and the route\'s own reply fails with ERR_HTTP_HEADERS_SENT; a path Pikku serves goes on to the route the same way', async () => {
  let ran = 0
  let replyError: string | undefined
  let ranKnown = 0
  let knownReplyError: string | undefined
  const mounted = await mount((server) => {
    usePikku(server)
    server.get('/legacy/ping', (_req, res) => {
      ran++
      try {
        res.send('pong')
      } catch (error) {
        replyError = (error as { code?: string }).code
      }
    })
    // A path Pikku knows: Pikku answers it, then the Express route behind it runs as well.
    server.get('/health', (_req, res) => {
      ranKnown++
      try {
        res.send('shadowed')
      } catch (error) {
        knownReplyError = (error as { code?: string }).code
      }
    })
  })
  try {
    const response = await fetch(`${mounted.url}/legacy/ping`)
    assert.equal(response.status, 404)
    assert.equal((await response.json()).name, 'NotFoundError')
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(ran, 1)
    assert.equal(replyError, 'ERR_HTTP_HEADERS_SENT')
    const health = await fetch(`${mounted.url}/health`)
    assert.deepEqual(await health.json(), { status: 'ok' })
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(ranKnown, 1)
    assert.equal(knownReplyError, 'ERR_HTTP_HEADERS_SENT')
  } finally {
    await mounted.close()
  }
})

test('middleware-no-body-parser: without a body parser before the middleware, req.body is unset and Pikku reads an empty body: createTodo answers 422 for the missing title, and updateTodo, whose body fields are all optional, runs with none of them', async () => {
  const todo = await createTodo(alice, 'Before')
  const mounted = await mount((server) => {
    server.use(pikkuExpressMiddleware({ logger: app.services.logger }))
  })
  try {
    const created = await fetch(`${mounted.url}/todos`, { method: 'POST', headers: { ...alice, ...json }, body: JSON.stringify({ title: 'x' }) })
    assert.equal(created.status, 422)
    assert.match((await created.json()).message, /required property "title"/)
    const updated = await fetch(`${mounted.url}/todos/${todo.todoId}`, {
      method: 'PATCH',
      headers: { ...alice, ...json },
      body: JSON.stringify({ title: 'After', done: true }),
    })
    assert.equal(updated.status, 200)
    const body = await updated.json()
    assert.equal(body.title, 'Before')
    assert.equal(body.done, false)
  } finally {
    await mounted.close()
  }
})

/** Sends `body` chunked, with no Content-Length, using node:http, which, unlike fetch, allows a body on any method. */
const sendChunked = (url: string, method: string, headers: Record<string, string>, body?: string) =>
  new Promise<number>((resolve, reject) => {
    const framing = body === undefined ? {} : { 'transfer-encoding': 'chunked' }
    const req = httpRequest(url, { method, headers: { ...headers, ...framing } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })

test('middleware-body-limit-text-and-methods: behind express.text() or express.raw(), a chunked body larger than maxBodySize gets Pikku\'s 413 from its own size; on GET, HEAD, OPTIONS and DELETE no body is checked', async () => {
  const mounted = await mount((server) => {
    server.use(express.text())
    server.use(express.raw())
    server.use(pikkuExpressMiddleware({ logger: app.services.logger, maxBodySize: 16 }))
  })
  try {
    const text = { ...alice, 'content-type': 'text/plain' }
    const big = 'x'.repeat(64)
    assert.equal(await sendChunked(`${mounted.url}/todos`, 'POST', text, big), 413)
    assert.equal(await sendChunked(`${mounted.url}/todos`, 'POST', { ...alice, 'content-type': 'application/octet-stream' }, big), 413)
    for (const [method, path] of [['GET', '/health'], ['HEAD', '/health'], ['OPTIONS', '/health'], ['DELETE', '/todos/t_missing']]) {
      const without = await sendChunked(`${mounted.url}${path}`, method, alice)
      assert.notEqual(without, 413)
      assert.equal(await sendChunked(`${mounted.url}${path}`, method, text, big), without, `${method} ${path}`)
    }
  } finally {
    await mounted.close()
  }
})

test('middleware-respond-404-false: with respondWith404 false an unknown path and a thrown NotFoundError both end as an empty 200', async () => {
  let afterwards: string | undefined
  const mounted = await mount((server) => {
    usePikku(server, { respondWith404: false })
    // A 404 handler placed after the middleware: it is still called, on a response that has already been sent.
    server.use((_req, res) => {
      try {
        res.status(404).send('not here')
      } catch (error) {
        afterwards = (error as { code?: string }).code
      }
    })
  })
  try {
    const unknown = await fetch(`${mounted.url}/no-such-route`)
    assert.equal(unknown.status, 200)
    assert.equal(await unknown.text(), '')
    assert.equal(afterwards, 'ERR_HTTP_HEADERS_SENT')
    const missing = await fetch(`${mounted.url}/todos/t_42`, { headers: alice })
    assert.equal(missing.status, 200)
    assert.equal(await missing.text(), '')
  } finally {
    await mounted.close()
  }
})

test('middleware-body-limit-declared-only: behind express.json({ limit: \'16mb\' }), a JSON body over 10 MiB gets Pikku\'s 413 when it declares its Content-Length, and passes when it is sent chunked', async () => {
  const mounted = await mount((server) => usePikku(server, {}, { limit: '16mb' }))
  try {
    const body = JSON.stringify({ title: 'x'.repeat(11_000_000) })
    const declared = await fetch(`${mounted.url}/todos`, { method: 'POST', headers: { ...alice, ...json }, body })
    assert.equal(declared.status, 413)
    assert.equal((await declared.json()).name, 'PayloadTooLargeError')
    // A stream body goes out with Transfer-Encoding: chunked and no Content-Length; express.json() parses it into an object.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { ...alice, ...json },
      body: new Blob([body]).stream(),
      duplex: 'half',
    }
    const chunked = await fetch(`${mounted.url}/todos`, init)
    assert.equal(chunked.status, 200)
    assert.equal((await chunked.json()).title.length, 11_000_000)
  } finally {
    await mounted.close()
  }
})

test('cors-preflight-express-workaround: Express\'s cors package answering OPTIONS before Pikku gives the browser its 204', async () => {
  const allowed = { origin: ['http://localhost:5173'], credentials: true }
  const mounted = await mount((server) => {
    // Only OPTIONS goes to the cors package; every other method still gets its headers from the app's cors().
    server.options(/.*/, cors(allowed))
    usePikku(server)
  })
  try {
    const preflight = await fetch(`${mounted.url}/todos/t1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' },
    })
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173')
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true')
    const get = await fetch(`${mounted.url}/health`, { headers: { origin: 'http://localhost:5173' } })
    assert.equal(get.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  } finally {
    await mounted.close()
  }
})

test('express-bad-json-400: malformed JSON is answered by Express\'s parser with 400, before Pikku runs', async () => {
  const response = await fetch(`${app.url}/todos`, { method: 'POST', headers: { ...alice, ...json }, body: '{bad' })
  assert.equal(response.status, 400)
  assert.match(response.headers.get('content-type') ?? '', /text\/html/)
})

test('cors-preflight-express-server-workaround: on PikkuExpressServer, server.app.options(...) with the cors package before init() answers preflights 204', async () => {
  const port = await freePort()
  const server = new PikkuExpressServer({ port, hostname: '127.0.0.1' }, app.services.logger)
  server.app.options(/.*/, cors({ origin: ['http://localhost:5173'], credentials: true }))
  await server.init()
  await server.start()
  try {
    const preflight = await fetch(`http://127.0.0.1:${port}/todos/t1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' },
    })
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  } finally {
    await server.stop()
  }
})

test('express-start-port-in-use: PikkuExpressServer.start() resolves and logs "listening" when its port is already taken', async () => {
  // The behaviour app already listens on this port. Express 5's app.listen passes the listen error to its
  // callback, and start() resolves from that callback without looking at it.
  const port = Number(new URL(app.url).port)
  const { lines, logger } = recordingLogger()
  const server = new PikkuExpressServer({ port, hostname: '127.0.0.1' }, logger)
  await server.init()
  await server.start()
  try {
    assert.ok(lines.some((line) => line.text === `listening on port ${port} and host: 127.0.0.1`))
    assert.equal(server.getHttpServer().listening, false)
  } finally {
    // stop() resolves too: close() reports that the server is not running, and stop() ignores that as well.
    await server.stop()
  }
})

test('express-stop-waits-for-stream: PikkuExpressServer.stop(), which enableExitOnSigInt awaits before it exits, refuses new connections at once but resolves only once an open SSE stream has ended', async () => {
  const port = await freePort()
  const server = new PikkuExpressServer({ port, hostname: '127.0.0.1' }, app.services.logger)
  await server.init()
  await server.start()
  await assertStopWaitsForStream(port, server.getHttpServer(), () => server.stop())
})

test('express-enable-cors-order: PikkuExpressServer.enableCors() adds its headers when called before init(), and none when called after', async () => {
  const origin = { origin: 'https://other.example' }
  for (const before of [true, false]) {
    const port = await freePort()
    const server = new PikkuExpressServer({ port, hostname: '127.0.0.1' }, app.services.logger)
    if (before) server.enableCors(origin)
    await server.init()
    if (!before) server.enableCors(origin)
    await server.start()
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`, { headers: { origin: 'https://other.example' } })
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('access-control-allow-origin'), before ? 'https://other.example' : null)
    } finally {
      await server.stop()
    }
  }
})

test('express-enable-cors-with-middleware-twice: with PikkuExpressServer.enableCors() and the app\'s cors() both allowing an origin, the response carries Access-Control-Allow-Origin twice', async () => {
  const origin = 'http://localhost:5173'
  const port = await freePort()
  const server = new PikkuExpressServer({ port, hostname: '127.0.0.1' }, app.services.logger)
  server.enableCors({ origin, credentials: true })
  await server.init()
  await server.start()
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { headers: { origin } })
    assert.equal(response.status, 200)
    // The package sets the header, then Pikku's Express response appends its own copy.
    assert.equal(response.headers.get('access-control-allow-origin'), `${origin}, ${origin}`)
  } finally {
    await server.stop()
  }
})

test('express-static-assets-order: PikkuExpressServer.enableStaticAssets() serves its route when called before init(), and Pikku answers 404 when it is called after', async () => {
  const content = { localFileUploadPath: '/tmp/pikku-express-assets-order', uploadUrlPrefix: '/reaper', assetUrlPrefix: '/assets' }
  for (const before of [true, false]) {
    const port = await freePort()
    const server = new PikkuExpressServer({ port, hostname: '127.0.0.1', content }, app.services.logger)
    // Called after init(), the asset route still runs once Pikku has answered, and its own reply then fails
    // with "write after end" on the response; record that instead of letting it escape the test.
    const writeErrors: string[] = []
    server.app.use((_req, res, next) => {
      res.on('error', (e: NodeJS.ErrnoException) => writeErrors.push(e.code ?? e.message))
      next()
    })
    if (before) server.enableStaticAssets()
    await server.init()
    if (!before) server.enableStaticAssets()
    await server.start()
    try {
      const response = await fetch(`http://127.0.0.1:${port}/assets/notes/a.txt`)
      if (before) {
        // The asset route's own refusal of an unsigned link.
        assert.equal(response.status, 403)
        assert.equal(await response.text(), 'Signed URL required')
      } else {
        assert.equal(response.status, 404)
        assert.equal((await response.json()).name, 'NotFoundError')
        // The asset route's reply fails after the client has its answer: wait for that error, not for a time.
        await waitFor(async () => writeErrors, (errors) => errors.length > 0)
        assert.deepEqual(writeErrors, ['ERR_STREAM_WRITE_AFTER_END'])
      }
    } finally {
      await server.stop()
    }
  }
})

test('express-reaper-charset: PikkuExpressServer.enableReaper() writes a text body sent with a charset as latin1, one byte per character', async () => {
  const root = runTempDir('reaper')
  const content = { localFileUploadPath: root, uploadUrlPrefix: '/reaper', assetUrlPrefix: '/assets' }
  // The reaper verifies with the jwt service registered with Pikku; sign with the same one.
  const signer = new LocalContent(content, app.services.logger, pikkuState(null, 'package', 'singletonServices')!.jwt!)
  const port = await freePort()
  const server = new PikkuExpressServer({ port, hostname: '127.0.0.1', content }, app.services.logger)
  server.enableReaper()
  await server.init()
  await server.start()
  try {
    const upload = async (fileKey: string, headers: Record<string, string>) => {
      const { uploadUrl } = await signer.getUploadURL({ bucket: 'notes', fileKey, contentType: 'text/plain' })
      return fetch(new URL(uploadUrl, `http://127.0.0.1:${port}`), { method: 'PUT', headers, body: Buffer.from('café', 'utf8') })
    }
    // Without a charset the bytes are stored as sent.
    assert.equal((await upload('plain', { 'content-type': 'text/plain' })).status, 200)
    assert.equal(readFileSync(join(root, 'notes/plain'), 'utf8'), 'café')
    // With one, raw-body decodes the text and writeFile(..., 'binary') stores one byte per character.
    assert.equal((await upload('utf8', { 'content-type': 'text/plain; charset=utf-8' })).status, 200)
    assert.deepEqual([...readFileSync(join(root, 'notes/utf8'))], [0x63, 0x61, 0x66, 0xe9])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})

test('express-reaper-order: PikkuExpressServer.enableReaper() serves its PUT route when called before init(); called after, the upload gets Pikku\'s 404', async () => {
  const root = runTempDir('reaper-order')
  const content = { localFileUploadPath: root, uploadUrlPrefix: '/reaper', assetUrlPrefix: '/assets' }
  const signer = new LocalContent(content, app.services.logger, pikkuState(null, 'package', 'singletonServices')!.jwt!)
  try {
    for (const before of [true, false]) {
      const port = await freePort()
      const server = new PikkuExpressServer({ port, hostname: '127.0.0.1', content }, app.services.logger)
      if (before) server.enableReaper()
      await server.init()
      if (!before) server.enableReaper()
      await server.start()
      try {
        const { uploadUrl } = await signer.getUploadURL({ bucket: 'notes', fileKey: `order-${before}`, contentType: 'text/plain' })
        const response = await fetch(new URL(uploadUrl, `http://127.0.0.1:${port}`), {
          method: 'PUT',
          headers: { 'content-type': 'text/plain' },
          body: 'note',
        })
        if (before) {
          assert.equal(response.status, 200)
        } else {
          assert.equal(response.status, 404)
          assert.equal((await response.json()).name, 'NotFoundError')
        }
      } finally {
        await server.stop()
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

test('cors-wildcard-credentials-throws: cors({ credentials: true }) with the default origin throws when called', () => {
  assert.throws(() => pikkuCors({ credentials: true }), /wildcard origin \(\*\) cannot be used with credentials: true/)
  // Spelled out, as the http skill writes it, the wildcard is refused the same way.
  assert.throws(() => pikkuCors({ origin: '*', credentials: true }), /wildcard origin \(\*\) cannot be used with credentials: true/)
})

/** cors() with these options run on its own, on a fetch request to /health with these headers: the response headers. */
const runCors = async (options: Parameters<typeof pikkuCors>[0], requestHeaders: Record<string, string>) => {
  const middleware = pikkuCors(options)
  const { logger } = recordingLogger()
  const request = new PikkuFetchHTTPRequest(new Request('http://localhost/health', { headers: requestHeaders }))
  const response = new PikkuFetchHTTPResponse()
  let nextCalled = false
  await middleware({ logger } as never, { http: { request, response } } as never, async () => {
    nextCalled = true
  })
  return { headers: response.toResponse().headers, nextCalled }
}

test('cors-origin-list-literal: entries of an origin list are exact strings, so "*" or a "*." pattern in the list matches no real Origin, and ["*"] with credentials is not refused', async () => {
  const allowOriginFor = async (origin: string[], requestOrigin: string) => {
    const { headers, nextCalled } = await runCors({ origin, credentials: true }, { origin: requestOrigin })
    assert.equal(nextCalled, true)
    return headers.get('access-control-allow-origin')
  }
  // An exact entry is reflected, so the probe can tell a match from a miss.
  assert.equal(await allowOriginFor(['https://app.example.com'], 'https://app.example.com'), 'https://app.example.com')
  // ['*'] does not throw with credentials: true (only the string '*' does), and reflects nothing.
  assert.equal(await allowOriginFor(['*'], 'https://app.example.com'), null)
  assert.equal(await allowOriginFor(['https://*.example.com'], 'https://app.example.com'), null)
})

test('cors-reflect-no-origin-wildcard-credentials: cors({ origin: true, credentials: true }) answers a request without an Origin header with Access-Control-Allow-Origin * and Access-Control-Allow-Credentials true', async () => {
  const headersFor = async (requestHeaders: Record<string, string>) =>
    (await runCors({ origin: true, credentials: true }, requestHeaders)).headers
  // With an Origin, it is reflected.
  const withOrigin = await headersFor({ origin: 'https://app.example.com' })
  assert.equal(withOrigin.get('access-control-allow-origin'), 'https://app.example.com')
  assert.equal(withOrigin.get('access-control-allow-credentials'), 'true')
  // Without one, the wildcard goes out together with credentials, the pair cors() refuses at setup for origin: '*'.
  const withoutOrigin = await headersFor({})
  assert.equal(withoutOrigin.get('access-control-allow-origin'), '*')
  assert.equal(withoutOrigin.get('access-control-allow-credentials'), 'true')
})

test('cors-options-route-never-runs: a route wired with method "options" that the "*" group covers gets cors()\'s 204 and its function never runs; without the group it runs', async () => {
  let calls = 0
  const func = { func: async () => ((calls += 1), { ran: true }) }
  const preflight = { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' } }
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  // Covered by the '*' group, as codegen writes the meta of every wireHTTP route (see /health in the generated meta).
  const covered = '/probe-options-covered'
  await withProbeRoute('probeOptionsCovered', covered, func, { method: 'options' }, async () => {
    httpMeta.options[covered].middleware = [{ type: 'http', route: '*' }]
    const response = await fetch(`${app.url}${covered}`, preflight)
    assert.equal(response.status, 204)
    assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:5173')
    assert.equal(response.headers.get('access-control-max-age'), '86400')
    assert.equal(calls, 0)
  })
  // The same route with no '*' group: the function runs and its body comes back.
  const bare = '/probe-options-bare'
  await withProbeRoute('probeOptionsBare', bare, func, { method: 'options' }, async () => {
    const response = await fetch(`${app.url}${bare}`, preflight)
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { ran: true })
    assert.equal(calls, 1)
  })
})

test('check-order: the session is checked before the input, and the input before permissions', async () => {
  // No session and a bad body: 403, the input is never looked at.
  const anonymous = await fetch(`${app.url}/todos`, { method: 'POST', headers: json, body: JSON.stringify({ title: 42 }) })
  assert.equal(anonymous.status, 403)
  // Bob, an unexpected query key, on Alice's to-do: 422 from validation before isTodoOwner can refuse him.
  const todo = await createTodo(alice, 'Order')
  const invalid = await fetch(`${app.url}/todos/${todo.todoId}?extra=1`, { headers: bob })
  assert.equal(invalid.status, 422)
  const valid = await fetch(`${app.url}/todos/${todo.todoId}`, { headers: bob })
  assert.equal(valid.status, 403)
})

test('meta-without-middleware-no-star-group: a route whose generated meta lists no middleware, as codegen writes for a route mounted from a refHTTP contract, runs none of the app\'s \'*\' group (no CORS header), while /health does', async () => {
  // registerHTTPRouteMeta in the inspector's add-http-route.ts records a contract route without a middleware field;
  // combineMiddleware takes pattern and tag groups only from that field, so the probe's meta carries none either.
  const route = '/probe-ref-mount'
  await withProbeRoute('probeRefMount', route, { func: async () => ({ ok: true }) }, {}, async () => {
    const probe = await fetch(`${app.url}${route}`, { headers: { origin: 'http://localhost:5173' } })
    assert.equal(probe.status, 200)
    assert.equal(probe.headers.get('access-control-allow-origin'), null)
    const health = await fetch(`${app.url}/health`, { headers: { origin: 'http://localhost:5173' } })
    assert.equal(health.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  })
})

test('contract-mount-package-globals: a route whose meta carries an addon packageName, as codegen writes for a route mounted from a refHTTP contract, runs the middleware its wiring passes but none of the app\'s global middleware', async () => {
  // registerHTTPRouteMeta in the inspector's add-http-route.ts copies the contract func's packageName onto the route meta;
  // the runner hands it to combineMiddleware, which reads global middleware from that package's state.
  const packageName = 'probe-contract-addon'
  const route = '/probe-contract-mount'
  const name = 'probeContractMount'
  const ran: string[] = []
  const appGlobal = async (_services: unknown, _wire: unknown, next: () => Promise<void>) => (ran.push('app global'), next())
  const groupMiddleware = async (_services: unknown, _wire: unknown, next: () => Promise<void>) => (ran.push('group'), next())
  const globals = pikkuState(null, 'middleware', 'global') as unknown as unknown[]
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const routes = pikkuState(null, 'http', 'routes') as Map<string, Map<string, unknown>>
  const func = { auth: false, func: async () => ({ ok: true }) }
  ;(pikkuState(packageName, 'function', 'meta') as Record<string, unknown>)[name] = {
    pikkuFuncId: name, functionType: 'user', name, sessionless: true, inputSchemaName: null, outputSchemaName: null, inputs: [], outputs: [],
  }
  httpMeta.get[route] = { pikkuFuncId: name, packageName, route, method: 'get', auth: false }
  globals.push(appGlobal)
  try {
    // The same wiring without a packageName runs the app's global middleware.
    await withProbeRoute('probeContractMain', '/probe-contract-main', func, { middleware: [groupMiddleware] }, async () => {
      assert.equal((await fetch(`${app.url}/probe-contract-main`)).status, 200)
    })
    assert.deepEqual(ran, ['app global', 'group'])
    ran.length = 0
    coreWireHTTP({ method: 'get', route, auth: false, middleware: [groupMiddleware], func } as never)
    httpRouter.reset()
    const response = await fetch(`${app.url}${route}`)
    assert.equal(response.status, 200)
    assert.deepEqual(ran, ['group'])
  } finally {
    globals.splice(globals.indexOf(appGlobal), 1)
    routes.get('get')?.delete(route)
    delete httpMeta.get[route]
    getAllPackageStates().delete(packageName)
    httpRouter.reset()
  }
})

test('missing-metadata-skipped: a wiring whose route codegen never saw is skipped with a warning, and its path answers 404', async () => {
  const warnings: string[] = []
  const warn = console.warn
  console.warn = (message: string) => warnings.push(message)
  try {
    coreWireHTTP({ method: 'get', route: '/not-generated', func: { func: async () => ({}) } } as never)
  } finally {
    console.warn = warn
  }
  assert.match(warnings.join('\n'), /Skipping HTTP route 'GET \/not-generated' — metadata not found/)
  assert.equal((await fetch(`${app.url}/not-generated`)).status, 404)
})

// What the inspector (the analysis `pikku all` runs) records for wirings it cannot read as written.
const inspectedRoutes = async (name: string, wiring: string) => {
  const head = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "import { wireHTTP, wireHTTPRoutes, defineHTTPRoutes } from '#pikku/http'",
    'export const getItem = pikkuSessionlessFunc<{ itemId: string }, void>({ func: async () => {} })',
    'export const addItem = pikkuSessionlessFunc<{ title: string; page?: string }, void>({ func: async () => {} })',
    '',
  ].join('\n')
  const { reported, state } = await inspectFiles(name, { 'probe.ts': head + wiring })
  const meta = (state as any).http.meta as Record<string, Record<string, { tags?: string[] }>>
  const routes = Object.entries(meta).flatMap(([method, byRoute]) => Object.keys(byRoute).map((route) => `${method} ${route}`))
  return { codes: codes(reported), routes, meta }
}

test('inspector-unreadable-wirings: a constant method or query list makes the inspector throw a TypeError; a constant route is recorded as its name, and a variable argument, a shorthand, spread or array-variable group entry is passed over, all without a diagnostic', async () => {
  await assert.rejects(
    inspectedRoutes('http-method-const', "const METHOD = 'get'\nwireHTTP({ method: METHOD, route: '/items/:itemId', func: getItem, auth: false })\n"),
    (e: unknown) => e instanceof TypeError && /^Cannot set properties of undefined \(setting '\/items\/:itemId'\)/.test(e.message),
  )
  await assert.rejects(
    inspectedRoutes('http-query-const', "const Q = ['page'] as const\nwireHTTP({ method: 'post', route: '/items', func: addItem, auth: false, query: Q })\n"),
    (e: unknown) => e instanceof TypeError && e.message === 'query.filter is not a function',
  )
  const { codes: reported, routes } = await inspectedRoutes('http-unreadable', [
    "const ROUTE = '/items/:itemId'",
    "wireHTTP({ method: 'get', route: ROUTE, func: getItem, auth: false })",
    "const variable = { method: 'post', route: '/variable', func: addItem, auth: false } as const",
    'wireHTTP(variable)',
    "const group = { basePath: '/group', auth: false, routes: { one: { method: 'post', route: '/one', func: addItem } } } as const",
    'wireHTTPRoutes(group)',
    "const BASE = '/base'",
    "wireHTTPRoutes({ basePath: BASE, auth: false, routes: { one: { method: 'post', route: '/one', func: addItem } } })",
    "wireHTTPRoutes({ basePath: `${BASE}/t`, auth: false, routes: { one: { method: 'post', route: '/one', func: addItem } } })",
    "const shorthand = defineHTTPRoutes({ auth: false, routes: { one: { method: 'post', route: '/shorthand', func: addItem } } })",
    "const spread = defineHTTPRoutes({ auth: false, routes: { one: { method: 'post', route: '/spread', func: addItem } } })",
    "const listRoute = { method: 'post', route: '/listed', func: addItem } as const",
    "wireHTTPRoutes({ auth: false, routes: { shorthand } })",
    "wireHTTPRoutes({ auth: false, routes: { ...spread.routes } })",
    "wireHTTPRoutes({ auth: false, routes: [listRoute] })",
    '',
  ].join('\n'))
  assert.deepEqual(reported, [])
  assert.deepEqual(routes.sort(), ['get ROUTE', 'post BASE/one', 'post `${BASE}/t`/one'])
})

test('inspector-group-tags-letters: a group\'s tags held in a constant, or written as an array with as const, are recorded one character per tag, with no diagnostic', async () => {
  const spelled = await inspectedRoutes('http-tags-const', "const TAGS = ['items']\nwireHTTPRoutes({ basePath: '/api', tags: TAGS, auth: false, routes: { one: { method: 'get', route: '/items/:itemId', func: getItem } } })\n")
  assert.deepEqual(spelled.codes, [])
  assert.deepEqual(spelled.meta.get!['/api/items/:itemId']!.tags, ['T', 'A', 'G', 'S'])
  // `as const` makes the value something other than a bare array literal, so its source text is spelled out too.
  const asConst = await inspectedRoutes('http-tags-as-const', "wireHTTPRoutes({ basePath: '/api', tags: ['items'] as const, auth: false, routes: { one: { method: 'get', route: '/items/:itemId', func: getItem } } })\n")
  assert.deepEqual(asConst.codes, [])
  assert.deepEqual(asConst.meta.get!['/api/items/:itemId']!.tags, [..."['items'] as const"])
})

test('compile-all-schemas-needs-service: compileAllSchemas with no schema service, given or among the registered singleton services, throws; with the app\'s CFWorkerSchemaService it compiles', async () => {
  const { compileAllSchemas } = await import('@pikku/core/schema')
  const main = getAllPackageStates().get('__main__')!.package as { singletonServices?: unknown }
  const saved = main.singletonServices
  try {
    main.singletonServices = undefined
    assert.throws(() => compileAllSchemas(app.services.logger), { message: 'SchemaService needs to be defined to load schemas' })
    main.singletonServices = { ...(saved as object), schema: undefined }
    assert.throws(() => compileAllSchemas(app.services.logger), { message: 'SchemaService needs to be defined to load schemas' })
  } finally {
    main.singletonServices = saved
  }
  compileAllSchemas(app.services.logger, app.services.schema)
})

test('inspector-headers-inline-skipped: codegen records a headers schema held in a variable on its route, and none for one written inline in the wiring', async () => {
  const schema = "import { z } from 'zod'\nconst ItemHeaders = z.object({ 'x-key': z.string() })\n"
  const wiring = (headers: string) => `wireHTTP({ method: 'get', route: '/items/:itemId', func: getItem, auth: false, headers: ${headers} })\n`
  const named = await inspectedRoutes('http-headers-named', schema + wiring('ItemHeaders'))
  assert.equal((named.meta.get!['/items/:itemId'] as any).headersSchemaName, 'GET_items__itemId_Headers')
  const inline = await inspectedRoutes('http-headers-inline', schema + wiring("z.object({ 'x-key': z.string() })"))
  assert.deepEqual(inline.codes, [])
  assert.equal((inline.meta.get!['/items/:itemId'] as any).headersSchemaName, undefined)
})

test('inspector-group-param-mismatch: codegen reports a route inside a group whose path parameter the function\'s input lacks as PKU571, as it does for wireHTTP', async () => {
  const group = await inspectedRoutes('http-group-param', "wireHTTPRoutes({ basePath: '/api', auth: false, routes: { one: { method: 'get', route: '/items/:id', func: getItem } } })\n")
  assert.deepEqual(group.codes, ['PKU571 critical'])
  const single = await inspectedRoutes('http-single-param', "wireHTTP({ method: 'get', route: '/items/:id', func: getItem, auth: false })\n")
  assert.deepEqual(single.codes, ['PKU571 critical'])
})

test('inspector-auth-false-unexported-func: codegen reports an exported pikkuFunc behind auth: false as PKU573, and one kept unexported with an override too; an inline or unexported pikkuFunc without one is not reported and is recorded as sessionless', async () => {
  const func = 'pikkuFunc<{ itemId: string }, void>'
  const wire = (f: string) => `wireHTTP({ method: 'get', route: '/items/:itemId', func: ${f}, auth: false })\n`
  const header = "import { pikkuFunc } from '#pikku/function'\nimport { wireHTTP } from '#pikku/http'\n"
  // Each case inspected on its own, so that each code belongs to its case.
  const inspectCase = (name: string, declaration: string, f: string) =>
    inspectFiles(`pku573-${name}`, { 'probe.ts': `${header}${declaration}\n${wire(f)}` })
  const cases = {
    exported: await inspectCase('exported', `export const item = ${func}({ func: async () => {} })`, 'item'),
    overridden: await inspectCase('overridden', `const item = ${func}({ override: 'item', func: async () => {} })`, 'item'),
    plain: await inspectCase('plain', `const item = ${func}({ func: async () => {} })`, 'item'),
    inline: await inspectCase('inline', '', `${func}({ func: async () => {} })`),
  }
  assert.deepEqual(
    Object.fromEntries(Object.entries(cases).map(([name, { reported }]) => [name, codes(reported)])),
    { exported: ['PKU573 critical'], overridden: ['PKU573 critical'], plain: [], inline: [] },
  )
  for (const name of ['plain', 'inline'] as const) {
    const state = cases[name].state as any
    assert.equal(state.functions.meta[state.http.meta.get['/items/:itemId'].pikkuFuncId].sessionless, true, name)
  }
})

test('fetch-client-dates: date-like strings in responses become Date objects unless transformDate is false', async () => {
  const token = await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'erin', role: 'member' })
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(token)
  const created = await client.post('/todos', { title: 'Dated', dueAt: '2026-12-01T09:00:00.000Z' })
  assert.ok((created.dueAt as unknown) instanceof Date)
  const raw = new PikkuFetch({ serverUrl: app.url, transformDate: false })
  raw.setAuthorizationJWT(token)
  const again = await raw.get('/todos/:todoId', { todoId: created.todoId })
  assert.equal(again.dueAt, '2026-12-01T09:00:00.000Z')
})

test('fetch-client-dates-prefix: any string that starts with a YYYY-MM-DD date becomes a Date, a title included', async () => {
  const token = await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'erin', role: 'member' })
  const client = new PikkuFetch({ serverUrl: app.url })
  client.setAuthorizationJWT(token)
  const created = await client.post('/todos', { title: '2026-12-01 dentist' })
  assert.ok((created.title as unknown) instanceof Date)
  const raw = new PikkuFetch({ serverUrl: app.url, transformDate: false })
  raw.setAuthorizationJWT(token)
  assert.equal((await raw.get('/todos/:todoId', { todoId: created.todoId })).title, '2026-12-01 dentist')
})

test('fetch-client-no-server-url: a request before setServerUrl rejects with "Server url is not set"', async () => {
  await assert.rejects(new PikkuFetch().get('/todos', {}), /Server url is not set/)
})

test('expired-bearer-500: an expired token answers 500, not 403 or 401: the jwt service\'s error is unregistered', async () => {
  const expired = await jwt.encode({ value: -1, unit: 'hour' }, { userId: 'alice', role: 'member' })
  const response = await fetch(`${app.url}/todos`, { headers: { authorization: `Bearer ${expired}` } })
  assert.equal(response.status, 500)
})

test('fastify-respond-404-false-thrown: registered with respondWith404 false, the Fastify plugin answers a NotFoundError thrown by getTodo with status 200 and no body', async () => {
  await withFastifyPlugin({ respondWith404: false }, async (server) => {
    const missing = await server.inject({ method: 'GET', url: '/todos/no-such-todo', headers: alice })
    assert.equal(missing.statusCode, 200)
    assert.equal(missing.body, '')
    assert.equal((await server.inject({ method: 'GET', url: '/health' })).statusCode, 200)
  })
  await withFastifyPlugin({}, async (server) => {
    assert.equal((await server.inject({ method: 'GET', url: '/todos/no-such-todo', headers: alice })).statusCode, 404)
  })
})

test('middleware-bubble-errors: with bubbleErrors the error reaches Express\'s error handler, which answers instead of Pikku', async () => {
  const mounted = await mount((server) => {
    usePikku(server, { bubbleErrors: true })
    server.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(409).json({ caught: error.name })
    })
  })
  try {
    const response = await fetch(`${mounted.url}/todos/t_42`, { headers: alice })
    assert.equal(response.status, 409)
    assert.deepEqual(await response.json(), { caught: 'NotFoundError' })
  } finally {
    await mounted.close()
  }
})

test('middleware-logger-startup-only: the middleware\'s logger option gets the route list and the schema report at creation, but a failing request is logged on the singleton logger, not on it', async () => {
  await assertLoggerStartupOnly(app.services, async (logger, run) => {
    const mounted = await mount((server) => usePikku(server, { logger, logRoutes: true, loadSchemas: true }))
    try {
      await run(async (route) => (await fetch(`${mounted.url}${route}`)).status)
    } finally {
      await mounted.close()
    }
  })
})

test('middleware-mount-path-stripped: mounted with app.use(\'/api\', ...), the middleware matches the path below the mount point, so /api/health is GET /health, and /health never reaches it', async () => {
  const mounted = await mount((server) => {
    server.use('/api', express.json(), pikkuExpressMiddleware({ logger: app.services.logger }))
  })
  try {
    const prefixed = await fetch(`${mounted.url}/api/health`)
    assert.equal(prefixed.status, 200)
    assert.deepEqual(await prefixed.json(), { status: 'ok' })
    const bare = await fetch(`${mounted.url}/health`)
    assert.equal(bare.status, 404)
    assert.match(await bare.text(), /Cannot GET \/health/)
  } finally {
    await mounted.close()
  }
})

test('redirect-location-checked: http.response.redirect() with a location that starts with "/" answers 302 with it; one that does not start with "/", "http://" or "https://" throws, and the call answers 500', async () => {
  const route = '/probe-redirect'
  let location = '/todos'
  const func = {
    auth: false,
    func: async (_services: unknown, _data: unknown, { http }: any) => {
      http.response.redirect(location)
    },
  }
  await withProbeRoute('probeRedirect', route, func, {}, async () => {
    const relative = await fetch(`${app.url}${route}`, { redirect: 'manual' })
    assert.equal(relative.status, 302)
    assert.equal(relative.headers.get('location'), '/todos')
    location = 'todos'
    const refused = await fetch(`${app.url}${route}`, { redirect: 'manual' })
    assert.equal(refused.status, 500)
    assert.equal(refused.headers.get('location'), null)
    assert.match((await refused.json()).message, /Invalid redirect location/)
  })
})

test('exported-session-func-auth-false-warns: a route with auth: false in front of an exported pikkuFunc logs a warning and still answers 403 without a session', async () => {
  const route = pikkuState(null, 'http', 'routes').get('get')!.get('/todos/:todoId')! as { auth?: boolean }
  const before = route.auth
  const warnings = collectLogs(app.services, 'warn')
  route.auth = false
  try {
    const response = await fetch(`${app.url}/todos/t1`)
    assert.equal(response.status, 403)
    assert.equal((await response.json()).message, 'Authentication required')
    assert.ok(
      warnings.lines.some((line) => line.startsWith("Function 'getTodo' requires a session but auth was explicitly disabled")),
      JSON.stringify(warnings.lines)
    )
  } finally {
    route.auth = before
    warnings.restore()
  }
})

test('sessionless-func-auth-true-403: a route with auth: false in front of a sessionless function whose own config sets auth: true answers 403 without a session', async () => {
  const route = '/probe-sessionless-auth'
  await withProbeRoute('probeSessionlessAuth', route, { auth: true, func: async () => ({ ran: true }) } as never, {}, async () => {
    const refused = await coreFetch(new Request(`http://localhost${route}`))
    assert.equal(refused.status, 403)
    assert.equal((await refused.json()).message, 'Authentication required')
  })
  await withProbeRoute('probeSessionlessAuth', route, { auth: false, func: async () => ({ ran: true }) } as never, {}, async () => {
    assert.equal((await coreFetch(new Request(`http://localhost${route}`))).status, 200)
  })
})

test('second-wiring-replaces-route: a second wireHTTP on a wired method and path replaces the first, with no error or warning', async () => {
  const routes = pikkuState(null, 'http', 'routes').get('get')!
  const functions = pikkuState(null, 'function', 'functions')
  const funcId = pikkuState(null, 'http', 'meta').get['/health']!.pikkuFuncId
  const originalRoute = routes.get('/health')!
  const originalFunc = functions.get(funcId)!
  const warnings: unknown[] = []
  const warn = console.warn
  console.warn = (...args: unknown[]) => warnings.push(args)
  try {
    coreWireHTTP({ method: 'get', route: '/health', auth: false, func: { func: async () => ({ status: 'replaced' }) } } as never)
    httpRouter.reset()
    assert.deepEqual(warnings, [])
    assert.deepEqual(await (await fetch(`${app.url}/health`)).json(), { status: 'replaced' })
  } finally {
    console.warn = warn
    routes.set('/health', originalRoute)
    functions.set(funcId, originalFunc)
    httpRouter.reset()
  }
  assert.deepEqual(await (await fetch(`${app.url}/health`)).json(), { status: 'ok' })
})

test('group-merge-core: core\'s wireHTTPRoutes joins basePaths parent first and appends the route, concatenates tags and middleware parent first, and takes the nearest auth', async () => {
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const routes = pikkuState(null, 'http', 'routes') as Map<string, Map<string, any>>
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const [outerMw, innerMw, ownMw] = [0, 1, 2].map(() => async (_s: unknown, _w: unknown, next: () => Promise<void>) => next())
  const func = { func: async () => undefined }
  const paths = { get: '/probe-api/v1/items/:itemId', post: '/probe-api/v1/items', put: '/probe-api/plain' } as const
  for (const [method, route] of Object.entries(paths)) httpMeta[method][route] = { pikkuFuncId: `probeGroup_${method}`, route, method, middleware: [] }
  try {
    const inner = coreDefineHTTPRoutes({
      basePath: '/v1',
      tags: ['inner'],
      middleware: [innerMw],
      auth: true,
      routes: {
        own: { method: 'get', route: '/items/:itemId', func, auth: false, tags: ['own'], middleware: [ownMw] },
        inherited: { method: 'post', route: '/items', func },
      },
    } as never)
    coreWireHTTPRoutes({
      basePath: '/probe-api',
      tags: ['outer'],
      middleware: [outerMw],
      auth: false,
      routes: { inner, plain: { method: 'put', route: '/plain', func } },
    } as never)
    const own = routes.get('get')!.get(paths.get)!
    assert.deepEqual(own.tags, ['outer', 'inner', 'own'])
    assert.deepEqual(own.middleware, [outerMw, innerMw, ownMw])
    assert.equal(own.auth, false)
    const inherited = routes.get('post')!.get(paths.post)!
    assert.deepEqual(inherited.tags, ['outer', 'inner'])
    assert.deepEqual(inherited.middleware, [outerMw, innerMw])
    assert.equal(inherited.auth, true)
    const plain = routes.get('put')!.get(paths.put)!
    assert.deepEqual(plain.tags, ['outer'])
    assert.equal(plain.auth, false)
  } finally {
    for (const [method, route] of Object.entries(paths)) {
      routes.get(method)?.delete(route)
      delete httpMeta[method][route]
      functions.delete(`probeGroup_${method}`)
    }
    httpRouter.reset()
  }
})

test('group-define-registers-nothing: core\'s defineHTTPRoutes registers no route; wireHTTPRoutes registers a contract given directly, a map of contracts and an array of routes', async () => {
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const routes = pikkuState(null, 'http', 'routes') as Map<string, Map<string, unknown>>
  const func = { func: async () => undefined }
  const paths = ['/probe-define/a', '/probe-define/b', '/probe-define/c']
  for (const route of paths) httpMeta.get[route] = { pikkuFuncId: 'probeDefine', route, method: 'get', middleware: [] }
  const registered = () => paths.filter((route) => routes.get('get')?.has(route))
  try {
    const contract = (route: string) => coreDefineHTTPRoutes({ basePath: '/probe-define', routes: { one: { method: 'get', route, func } } } as never)
    const [a, b] = [contract('/a'), contract('/b')]
    assert.deepEqual(registered(), [])
    coreWireHTTPRoutes(a as never)
    assert.deepEqual(registered(), ['/probe-define/a'])
    coreWireHTTPRoutes({ routes: { b } } as never)
    assert.deepEqual(registered(), ['/probe-define/a', '/probe-define/b'])
    coreWireHTTPRoutes({ basePath: '/probe-define', routes: [{ method: 'get', route: '/c', func }] } as never)
    assert.deepEqual(registered(), paths)
  } finally {
    for (const route of paths) {
      routes.get('get')?.delete(route)
      delete httpMeta.get[route]
    }
    httpRouter.reset()
  }
})

test('openapi-app-document: addon routes are left out with a logged error, public and SSE routes are described like the rest', async () => {
  const { spec, logged } = await openAPIDocumentOf()
  // ref('chat:postToChat') routes: the function is an addon's, and the generator looks only among the app's own.
  assert.equal(spec.paths['/chat/post'], undefined)
  assert.equal(spec.paths['/chat/post-open'], undefined)
  assert.ok(logged.some((line) => line.includes("No function metadata found for 'chat:postToChat' in route '/chat/post'.")))
  // GET /health is wired with auth: false, yet no operation carries its own security: the document-wide one applies.
  assert.deepEqual(spec.security, [{ ApiKeyAuth: [] }, { BearerAuth: [] }])
  const health = spec.paths['/health'].get
  assert.equal(health.security, undefined)
  // GET /todos/changes is an SSE route; its 200 is described as a JSON body of the function's output type.
  assert.deepEqual(Object.keys(spec.paths['/todos/changes'].get.responses['200'].content), ['application/json'])
  // No operation has an operationId or a summary.
  for (const methods of Object.values(spec.paths) as Record<string, Record<string, unknown>>[]) {
    for (const operation of Object.values(methods) as Record<string, unknown>[]) {
      assert.equal(operation.operationId, undefined)
      assert.equal(operation.summary, undefined)
    }
  }
})

test('openapi-default-tag-full-path: an untagged route is tagged with the first segment of its full path, a group basePath included', async () => {
  const meta = { get: { '/api/todos': { route: '/api/todos', method: 'get', pikkuFuncId: 'listTodos', groupBasePath: '/api' } } }
  const { spec } = await openAPIDocumentOf(meta as unknown as HTTPWiringsMeta)
  assert.deepEqual(spec.paths['/api/todos'].get.tags, ['api'])
})

test('openapi-additional-info-required: with openAPI set, a missing additionalInfo stops the generator with a TypeError, and an empty one gives a document with no info or servers', async () => {
  const logger = { error: () => {} } as unknown as Parameters<typeof generateOpenAPISpec>[0]
  await assert.rejects(
    generateOpenAPISpec(logger, {} as FunctionsMeta, {} as HTTPWiringsMeta, {}, undefined as never),
    /Cannot read properties of undefined \(reading 'info'\)/,
  )
  const spec = await generateOpenAPISpec(logger, {} as FunctionsMeta, {} as HTTPWiringsMeta, {}, {} as never)
  assert.equal(spec.openapi, '3.1.0')
  assert.equal(spec.info, undefined)
  assert.equal(spec.servers, undefined)
})

test('openapi-gateway-and-rpc-routes: the Slack gateway\'s webhook route and the generated public RPC route are in the app\'s document, with no response content', async () => {
  const { spec } = await openAPIDocumentOf()
  assert.deepEqual(Object.keys(spec.paths['/webhooks/slack']).sort(), ['get', 'post'])
  assert.equal(spec.paths['/webhooks/slack'].get.responses['200'].content, undefined)
  assert.equal(spec.paths['/webhooks/slack'].post.responses['200'].content, undefined)
  assert.deepEqual(spec.paths['/rpc/{rpcName}'].post.tags, ['pikku'])
  assert.equal(spec.paths['/rpc/{rpcName}'].post.responses['200'].content, undefined)
})

test('openapi-root-route-default-tag: an untagged route at "/" has no first segment and is tagged "default"', async () => {
  const meta = { get: { '/': { route: '/', method: 'get', pikkuFuncId: 'listTodos' } } }
  const { spec } = await openAPIDocumentOf(meta as unknown as HTTPWiringsMeta)
  assert.deepEqual(spec.paths['/'].get.tags, ['default'])
})

test('openapi-security-schemes-alone: securitySchemes without security replaces the schemes but keeps the default requirement naming ApiKeyAuth and BearerAuth', async () => {
  const CookieAuth = { type: 'apiKey', in: 'cookie', name: 'todo_session' }
  const { spec } = await openAPIDocumentOf(undefined, { securitySchemes: { CookieAuth } })
  assert.deepEqual(spec.components.securitySchemes, { CookieAuth })
  assert.deepEqual(spec.security, [{ ApiKeyAuth: [] }, { BearerAuth: [] }])
  // Given both, the document names only what was given.
  const both = await openAPIDocumentOf(undefined, { securitySchemes: { CookieAuth }, security: [{ CookieAuth: [] }] })
  assert.deepEqual(both.spec.security, [{ CookieAuth: [] }])
})

test('middleware-options-no-cors-204: with nothing in the \'*\' middleware group, an OPTIONS request that matches no route answers 204 with an empty body and Content-Type application/json', async () => {
  const httpGroups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown>
  const saved = httpGroups['*']
  delete httpGroups['*']
  const mounted = await mount((server) => usePikku(server))
  try {
    for (const path of ['/no-such-route', '/todos/t1']) {
      const response = await fetch(`${mounted.url}${path}`, { method: 'OPTIONS' })
      assert.equal(response.status, 204, path)
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8', path)
      assert.equal(response.headers.get('access-control-allow-methods'), null, path)
      assert.equal(await response.text(), '', path)
    }
  } finally {
    await mounted.close()
    httpGroups['*'] = saved
  }
})

test('options-unmatched-star-group: an OPTIONS request matching no route runs the \'*\' group and answers 204, even with respondWith404 false; a middleware of that group that throws gets the ordinary error answer', async () => {
  const httpGroups = pikkuState(null, 'middleware', 'httpGroup') as Record<string, unknown[]>
  const saved = httpGroups['*']!
  assert.ok(Array.isArray(saved))
  const preflight = () => new Request('http://localhost/no-such-route', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
  })
  try {
    const quiet = await coreFetch(preflight(), { respondWith404: false })
    assert.equal(quiet.status, 204)
    assert.equal(quiet.headers.get('access-control-allow-origin'), 'http://localhost:5173')
    httpGroups['*'] = [async () => { throw new errors.ForbiddenError('probe refused') }, ...saved]
    const refused = await coreFetch(preflight(), { exposeErrors: true })
    assert.equal(refused.status, 403)
    assert.deepEqual(await refused.json().then(({ name, message }) => ({ name, message })), { name: 'ForbiddenError', message: 'probe refused' })
  } finally {
    httpGroups['*'] = saved
  }
})

test('sse-permission-refused-event: on an sse route a refused permission is written as an error event in a 200 stream, where the same route without sse answers 403', async () => {
  const route = '/probe-sse-permission'
  const func = { auth: false, permissions: { never: async () => false }, func: async () => ({ ran: true }) }
  for (const sse of [true, false]) {
    await withProbeRoute('ssePermissionProbe', route, func, { sse }, async () => {
      const response = await coreFetch(new Request(`http://localhost${route}`))
      if (sse) {
        assert.equal(response.status, 200)
        assert.match(await response.text(), /^:\n\ndata: \{"type":"error","errorText":"[^"]+"\}\n\ndata: \{"type":"done"\}\n\n$/)
      } else {
        assert.equal(response.status, 403)
        assert.equal((await response.json()).name, 'ForbiddenError')
      }
    })
  }
})

test('sse-result-not-written: a route with sse, a GET or a POST, is streamed; the function\'s return value is not written, the stream carries only what it sends', async () => {
  const route = '/probe-sse-result'
  const func = { auth: false, func: async (_services: unknown, _data: unknown, { channel }: any) => {
    channel.send({ sent: true })
    channel.close()
    return { returned: true }
  } }
  for (const method of ['get', 'post']) {
    await withProbeRoute('sseResultProbe', route, func, { method, sse: true }, async () => {
      const response = await coreFetch(new Request(`http://localhost${route}`, { method, ...(method === 'post' ? { headers: json, body: '{}' } : {}) }))
      assert.equal(response.status, 200, method)
      assert.equal(response.headers.get('content-type'), 'text/event-stream', method)
      assert.equal(await response.text(), ':\n\ndata: {"sent":true}\n\n', method)
    })
  }
})

test('headers-schema-uncompiled-first-request-422: where nothing compiled a route\'s headers schema, the first request fails with 422 though it sends the header, and the next one passes', async () => {
  const meta = (pikkuState(null, 'http', 'meta') as any).get['/health']
  const schemaName = 'ProbeUncompiledHeaders'
  const schema = { type: 'object', properties: { 'x-probe-key': { type: 'string' } }, required: ['x-probe-key'] }
  const schemas = pikkuState(null, 'misc', 'schemas') as Map<string, unknown>
  const call = () => coreFetch(new Request('http://localhost/health', { headers: { 'x-probe-key': 'sent' } }))
  meta.headersSchemaName = schemaName
  schemas.set(schemaName, schema)
  try {
    assert.equal(app.services.schema!.getSchemaNames().has(schemaName), false)
    const first = await call()
    assert.equal(first.status, 422)
    assert.equal((await first.json()).name, 'UnprocessableContentError')
    assert.equal((await call()).status, 200)
  } finally {
    delete meta.headersSchemaName
    schemas.delete(schemaName)
  }
})

test('headers-schema-before-middleware: a route\'s headers schema is checked before its middleware, so a failing request gets 422 where authBearer would answer 401, and without the \'*\' group\'s CORS headers', async () => {
  const meta = (pikkuState(null, 'http', 'meta') as any).get['/health']
  const schemaName = 'ProbeHealthHeaders'
  const schema = { type: 'object', properties: { 'x-probe-key': { type: 'string', minLength: 8 } }, required: ['x-probe-key'] }
  const schemas = pikkuState(null, 'misc', 'schemas') as Map<string, unknown>
  const call = (key: string, authorization?: string) =>
    fetch(`${app.url}/health`, { headers: { origin: 'http://localhost:5173', 'x-probe-key': key, ...(authorization ? { authorization } : {}) } })
  meta.headersSchemaName = schemaName
  schemas.set(schemaName, schema)
  try {
    await app.services.schema!.compileSchema(schemaName, schema)
    for (const authorization of [undefined, 'Basic probe']) {
      const refused = await call('short', authorization)
      assert.equal(refused.status, 422)
      assert.equal((await refused.json()).name, 'UnprocessableContentError')
      assert.equal(refused.headers.get('access-control-allow-origin'), null)
    }
    // With a valid header the middleware runs: cors() adds its header, and authBearer refuses a Basic credential.
    const passed = await call('long-enough')
    assert.equal(passed.status, 200)
    assert.equal(passed.headers.get('access-control-allow-origin'), 'http://localhost:5173')
    assert.equal((await call('long-enough', 'Basic probe')).status, 401)
  } finally {
    delete meta.headersSchemaName
    schemas.delete(schemaName)
  }
})

test('sse-errors-in-stream: on an sse route a NotFoundError thrown by the function or by the route\'s middleware is an error event even with respondWith404 false, and logged as an error, not a warning, even when its status is listed in logWarningsForStatusCodes', async () => {
  const route = '/probe-sse-errors'
  let ran = false
  const func = { auth: false, func: async () => { ran = true; throw new errors.NotFoundError('probe missing') } }
  const logged = collectLogs(app.services, 'error')
  const warned = collectLogs(app.services, 'warn')
  try {
    await withProbeRoute('probeSseErrors', route, func, { sse: true }, async () => {
      const streamed = await coreFetch(new Request('http://localhost/probe-sse-errors'), { respondWith404: false, logWarningsForStatusCodes: [404] })
      assert.equal(streamed.status, 200)
      assert.equal(streamed.headers.get('content-type'), 'text/event-stream')
      const text = await streamed.text()
      assert.match(text, /data: {"type":"error","errorText":"The server cannot find the requested resource."}/)
      assert.ok(logged.lines.some((line) => /probe missing/.test(line)), JSON.stringify(logged.lines))
      assert.ok(!warned.lines.some((line) => /probe missing/.test(line)), JSON.stringify(warned.lines))
      assert.equal(ran, true)
    })
    // The same NotFoundError thrown by the route's middleware, before the function: the same error event and log.
    ran = false
    const throwing = async () => { throw new errors.NotFoundError('probe middleware missing') }
    await withProbeRoute('probeSseMiddlewareErrors', '/probe-sse-middleware-errors', func, { sse: true, middleware: [throwing] }, async () => {
      const streamed = await coreFetch(new Request('http://localhost/probe-sse-middleware-errors'), { respondWith404: false, logWarningsForStatusCodes: [404] })
      assert.equal(streamed.status, 200)
      assert.equal(streamed.headers.get('content-type'), 'text/event-stream')
      assert.match(await streamed.text(), /data: {"type":"error","errorText":"The server cannot find the requested resource."}/)
      assert.ok(logged.lines.some((line) => /probe middleware missing/.test(line)), JSON.stringify(logged.lines))
      assert.ok(!warned.lines.some((line) => /probe middleware missing/.test(line)), JSON.stringify(warned.lines))
      assert.equal(ran, false)
    })
  } finally {
    warned.restore()
    logged.restore()
  }
})

test('sse-headers-schema-ordinary-error: on an sse route, a request failing the route\'s headers schema gets the ordinary JSON 422, not a stream', async () => {
  const route = '/probe-sse-headers-schema'
  const schemaName = 'ProbeSseHeaders'
  const schema = { type: 'object', properties: { 'x-probe-key': { type: 'string', minLength: 8 } }, required: ['x-probe-key'] }
  let ran = false
  const func = { auth: false, func: async () => void (ran = true) }
  const schemas = pikkuState(null, 'misc', 'schemas') as Map<string, unknown>
  await withProbeRoute('probeSseHeadersSchema', route, func, { sse: true }, async () => {
    ;(pikkuState(null, 'http', 'meta') as any).get[route].headersSchemaName = schemaName
    schemas.set(schemaName, schema)
    // compileAllSchemas does this at start; getSchemaKeys only knows compiled schemas.
    await app.services.schema!.compileSchema(schemaName, schema)
    try {
      const refused = await coreFetch(new Request(`http://localhost${route}`, { headers: { 'x-probe-key': 'short' } }))
      assert.equal(refused.status, 422)
      assert.match(refused.headers.get('content-type') ?? '', /^application\/json/)
      assert.equal((await refused.json()).name, 'UnprocessableContentError')
      assert.equal(ran, false)
      const accepted = await coreFetch(new Request(`http://localhost${route}`, { headers: { 'x-probe-key': 'long-enough' } }))
      assert.equal(accepted.headers.get('content-type'), 'text/event-stream')
      await accepted.body?.cancel()
      assert.equal(ran, true)
    } finally {
      schemas.delete(schemaName)
    }
  })
})

test('start-entry-port-sigint: src/start.ts, run as its own process, listens on the PORT environment variable; SIGINT stops it with code 0, while SIGTERM has no handler and kills it', async () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const port = await freePort()
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
      cwd: APP_DIR,
      env: { ...process.env, PORT: String(port), NODE_TEST_CONTEXT: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, sig) => resolve({ code, signal: sig })),
    )
    try {
      const status = () => fetch(`http://localhost:${port}/health`).then((r) => r.status, () => 0)
      assert.equal(await waitFor(status, (s) => s === 200 || child.exitCode !== null, 60_000), 200, output)
      child.kill(signal)
      const end = await exited
      if (signal === 'SIGINT') {
        assert.deepEqual(end, { code: 0, signal: null }, output)
        assert.match(output, /Server stopped/)
      } else {
        assert.deepEqual(end, { code: null, signal: 'SIGTERM' }, output)
        assert.doesNotMatch(output, /Stopping server/)
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
  }
})
