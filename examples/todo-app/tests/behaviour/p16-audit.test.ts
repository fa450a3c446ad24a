// Claims of the blog posts and the "Why?" essays that no other file's area covers. In-process; no server.
import { test } from 'node:test'
import assert from 'node:assert/strict'

test('core-root-no-runtime-exports: the root entry of @pikku/core 0.12.90 exports no value at run time, while @pikku/core/errors exports PikkuError and addError', async () => {
  const root: Record<string, unknown> = await import('@pikku/core')
  assert.deepEqual(
    Object.keys(root).filter((name) => name !== 'default'),
    []
  )
  const errors = await import('@pikku/core/errors')
  assert.equal(typeof errors.PikkuError, 'function')
  assert.equal(typeof errors.addError, 'function')
})
