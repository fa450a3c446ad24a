// What the OpenAPI generator of @pikku/inspector 0.12.63 writes for the to-do app's routes (docs/http/openapi.mdx): the
// generator is run on the app's generated function, route and schema metadata, as `pikku all` and `pikku openapi` run
// it (harness/openapi.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { HTTPWiringsMeta } from '@pikku/core/http'
import type { FunctionsMeta } from '@pikku/core/services'
import { appFunctionsMeta, appHTTPMeta, openAPIDocumentOf } from './harness/openapi.js'

const functionsMeta = appFunctionsMeta()
const appRoutes = appHTTPMeta()

/** The document for the given routes (the app's own by default) and function metadata. */
const documentFor = async (routes?: HTTPWiringsMeta, functions: FunctionsMeta = functionsMeta) =>
  (await openAPIDocumentOf(routes, {}, functions)).spec

test('openapi-output-ref: a 200 refers to the output schema in #/components/schemas, a string, number or boolean output is written inline, and a function with no output gets no content', async () => {
  const spec = await documentFor()
  assert.deepEqual(spec.paths['/todos/{todoId}'].get.responses['200'].content, {
    'application/json': { schema: { $ref: '#/components/schemas/Todo' } },
  })
  assert.ok(spec.components.schemas.Todo)
  // deleteTodo has no output (the runner answers 204), and is documented with a 200 and no content.
  assert.equal(spec.paths['/todos/{todoId}'].delete.responses['200'].content, undefined)
  const primitives = Object.fromEntries(
    ['string', 'number', 'boolean'].map((type) => [`probe-${type}`, { ...functionsMeta.health, pikkuFuncId: `probe-${type}`, outputs: [type] }]),
  )
  const routes = {
    get: Object.fromEntries(['string', 'number', 'boolean'].map((type) => [`/${type}`, { route: `/${type}`, method: 'get', pikkuFuncId: `probe-${type}` }])),
  }
  const probe = await documentFor(routes as unknown as HTTPWiringsMeta, { ...functionsMeta, ...primitives } as FunctionsMeta)
  for (const type of ['string', 'number', 'boolean']) {
    assert.deepEqual(probe.paths[`/${type}`].get.responses['200'].content, { 'application/json': { schema: { type } } })
  }
})

test('openapi-path-and-query-parameters: /todos/:todoId becomes /todos/{todoId} with a required string path parameter, and the keys of a post route\'s query are optional string query parameters', async () => {
  const spec = await documentFor()
  assert.equal(spec.paths['/todos/:todoId'], undefined)
  assert.deepEqual(spec.paths['/todos/{todoId}'].get.parameters, [{ name: 'todoId', in: 'path', required: true, schema: { type: 'string' } }])
  // The app wires no query option; the route metadata the inspector records for `query: ['notify']` on POST /todos.
  const routes = { post: { '/todos': { ...(appRoutes as any).post['/todos'], query: ['notify'] } } }
  const probe = await documentFor(routes as unknown as HTTPWiringsMeta)
  assert.deepEqual(probe.paths['/todos'].post.parameters, [{ name: 'notify', in: 'query', required: false, schema: { type: 'string' } }])
})

test('openapi-no-request-body: no operation of the app\'s document has a requestBody, GET /todos lists no query parameter, and the components hold output schemas only', async () => {
  const spec = await documentFor()
  for (const methods of Object.values(spec.paths) as Record<string, Record<string, unknown>>[]) {
    for (const operation of Object.values(methods)) assert.equal(operation.requestBody, undefined)
  }
  assert.deepEqual(spec.paths['/todos'].get.parameters, [])
  assert.deepEqual(spec.paths['/todos'].post.responses['200'].content, { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } })
  const names = Object.keys(spec.components.schemas)
  for (const name of ['ListTodosOutput', 'Todo', 'HealthOutput']) assert.ok(names.includes(name), name)
  for (const name of ['CreateTodoInput', 'ListTodosInput', 'GetTodoInput']) assert.ok(!names.includes(name), name)
})

test('openapi-generated-description-no-errors: an operation\'s description is a generated sentence naming the method and route, and getTodo\'s NotFoundError gives no error response', async () => {
  const spec = await documentFor()
  const getTodo = spec.paths['/todos/{todoId}'].get
  assert.equal(getTodo.description, 'This endpoint handles the GET request for the route /todos/:todoId.')
  assert.deepEqual(Object.keys(getTodo.responses), ['200'])
  assert.equal(spec.paths['/health'].get.description, 'This endpoint handles the GET request for the route /health.')
})
