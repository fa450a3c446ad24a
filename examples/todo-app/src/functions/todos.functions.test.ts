import { beforeEach, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { NotFoundError } from '#pikku/error'
import type { WiredServices } from '#pikku/function'
import type { UserSession } from '../application-types.js'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'
import { createTodo, getTodo } from './todos.functions.js'

const session: UserSession = { userId: 'u_1', role: 'member' }
// A hand-made wire holds only what these handlers read. The full wire type also has `rpc` and the
// transport objects, so the test casts it.
const wire = { session } as never

describe('to-do functions', () => {
  let services: WiredServices

  beforeEach(async () => {
    // The app's own factories, so each test gets a fresh in-memory store. The factory's generated return type
    // marks as optional every service that the generated manifest, .pikku/pikku-services.gen.ts, does not mark
    // required. The cast to WiredServices claims more than the factory builds (it leaves out, among others,
    // queueService, schedulerService and the agent services), which these tests never read.
    services = (await createSingletonServices(await createConfig())) as WiredServices
  })

  test('createTodo stores an open item for the caller', async () => {
    const created = await createTodo.func(services, { title: 'Write tests' }, wire)
    assert.ok(created, 'createTodo returns the new item')
    const stored = await services.todoStore.get(created.todoId)
    assert.equal(stored?.ownerId, 'u_1')
    assert.equal(stored?.done, false)
  })

  test('getTodo throws NotFoundError for an unknown id', async () => {
    await assert.rejects(getTodo.func(services, { todoId: 'missing' }, wire), NotFoundError)
  })
})
