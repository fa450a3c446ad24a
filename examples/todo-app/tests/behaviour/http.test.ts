// HTTP behaviour of the to-do app on @pikku/express: status codes, bodies, validation.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startExpressApp, type RunningApp } from './harness/app.js'

let app: RunningApp
before(async () => {
  app = await startExpressApp()
})
after(() => app.stop())

test('health-sessionless: GET /health answers 200 without any credential', async () => {
  const response = await fetch(`${app.url}/health`)
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { status: 'ok' })
})

test('unknown-route-404: a path no wiring matches answers 404', async () => {
  const response = await fetch(`${app.url}/no-such-route`)
  assert.equal(response.status, 404)
})

test('session-required-403: a session function called without a credential answers 403', async () => {
  const response = await fetch(`${app.url}/todos`)
  // The function runner throws ForbiddenError('Authentication required'), which maps to 403, not 401.
  assert.equal(response.status, 403)
})
