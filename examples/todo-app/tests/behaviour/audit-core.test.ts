// Checks made while auditing the core pages (manual setup, functions, services...) against the real app on
// @pikku/express: what happens when the singleton services carry no schema service.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import type { JWTService } from '@pikku/core/services'
import { startExpressApp, type RunningApp } from './harness/app.js'
import { createTestJWT } from './harness/http.js'

let app: RunningApp
let jwt: JWTService

before(async () => {
  process.env.JWT_SECRET = 'behaviour-suite-secret-of-at-least-32-chars'
  jwt = await createTestJWT()
  app = await startExpressApp({ jwt })
})
after(() => app.stop())

test('no-schema-service-no-validation: without a schema service the input is not validated, and nothing is logged about it', async () => {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'u_audit', role: 'member' })}`,
  }
  const post = () =>
    fetch(`${app.url}/todos`, { method: 'POST', headers, body: JSON.stringify({ title: 42, colour: 'red' }) })
  // With the app's schema service, a numeric title and an undeclared key are refused.
  assert.equal((await post()).status, 422)

  const services = app.services as { schema?: unknown }
  const schema = services.schema
  const logged: string[] = []
  const logger = app.services.logger
  const original = { warn: logger.warn, error: logger.error, info: logger.info }
  logger.warn = (...args: unknown[]) => void logged.push(`warn ${String(args[0])}`)
  logger.error = (...args: unknown[]) => void logged.push(`error ${String(args[0])}`)
  logger.info = (...args: unknown[]) => void logged.push(`info ${String(args[0])}`)
  delete services.schema
  try {
    const response = await post()
    assert.equal(response.status, 200)
    const created = await response.json()
    assert.equal(created.title, 42)
    assert.deepEqual(logged.filter((line) => /schema|valid/i.test(line)), [])
  } finally {
    services.schema = schema
    Object.assign(logger, original)
  }
})

test('core-form-exact-content-type: core\'s own reader parses a form body only under exactly application/x-www-form-urlencoded; with a charset it answers 422', async () => {
  const { fetch: pikkuFetch } = await import('@pikku/core/http')
  const authorization = `Bearer ${await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'u_form', role: 'member' })}`
  const post = (contentType: string) =>
    pikkuFetch(
      new Request('http://localhost/todos', {
        method: 'POST',
        headers: { authorization, 'content-type': contentType },
        body: 'title=From+a+form',
      }),
    )
  const plain = await post('application/x-www-form-urlencoded')
  assert.equal(plain.status, 200)
  assert.equal((await plain.json()).title, 'From a form')
  // What fetch() sends for a URLSearchParams body, and many HTTP clients send for forms.
  const withCharset = await post('application/x-www-form-urlencoded;charset=UTF-8')
  assert.equal(withCharset.status, 422)
  assert.match((await withCharset.json()).message, /Unsupported content type application\/x-www-form-urlencoded;charset=UTF-8/)
})

test('no-schema-service-conflicting-keys-422: without a schema service, the Express request reader still refuses a key sent with two different values, with 422', async () => {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'u_conflict', role: 'member' })}`,
  }
  const created = await fetch(`${app.url}/todos`, { method: 'POST', headers, body: JSON.stringify({ title: 'Conflict' }) })
  const { todoId } = await created.json()
  const services = app.services as { schema?: unknown }
  const schema = services.schema
  delete services.schema
  try {
    const response = await fetch(`${app.url}/todos/${todoId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ todoId: 'another-id', done: true }),
    })
    assert.equal(response.status, 422)
    assert.match((await response.json()).message, /^Conflicting values for key "todoId"/)
  } finally {
    services.schema = schema
  }
})
