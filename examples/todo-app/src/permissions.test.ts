import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { WiredServices } from '#pikku/function'
import type { UserSession } from './application-types.js'
import { createConfig } from './config.js'
import { createSingletonServices } from './services.js'
import { isTodoOwner } from './permissions.js'

test('only the owner or an admin passes isTodoOwner', async () => {
  // The same cast as in todos.functions.test.ts: wider than what the factory builds, and the guard reads only todoStore.
  const services = (await createSingletonServices(await createConfig())) as WiredServices
  const todo = await services.todoStore.create({ ownerId: 'u_1', title: 'Plan sprint', done: false })

  const check = (session: UserSession) =>
    isTodoOwner(services, { todoId: todo.todoId }, { session } as never)

  assert.equal(await check({ userId: 'u_1', role: 'member' }), true)
  assert.equal(await check({ userId: 'u_2', role: 'member' }), false)
  assert.equal(await check({ userId: 'u_2', role: 'admin' }), true)
})
