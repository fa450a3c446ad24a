// Claims of docs/philosophy/limitations.mdx that no other file's area covers: core's wirings run without the metadata
// that codegen writes. No server: the wiring functions are called straight on core's registries.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { wireChannel } from '@pikku/core/channel'
import { pikkuState } from '@pikku/core/state'
import { captureConsole } from './harness/core-probes.js'

test('channel-wiring-without-metadata: a wireChannel call codegen never saw logs a warning and registers neither the channel nor its handler', async () => {
  const channels = pikkuState(null, 'channel', 'channels') as Map<string, unknown>
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const functionsBefore = functions.size
  const lines = await captureConsole(() => {
    wireChannel({ name: 'notGenerated', route: '/not-generated', auth: false, onMessage: { func: async () => {} } } as never)
  })
  try {
    assert.deepEqual(lines, ["[pikku] Skipping channel 'notGenerated' — metadata not found. Consider moving this wiring to its own file."])
    assert.equal(channels.has('notGenerated'), false)
    assert.equal(functions.size, functionsBefore)
  } finally {
    channels.delete('notGenerated')
  }
})
