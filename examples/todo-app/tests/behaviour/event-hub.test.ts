// LocalEventHubService from @pikku/core/channel/local on its own, with stand-in channel handlers that record what
// they are sent: no server, no sockets.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { LocalEventHubService } from '@pikku/core/channel/local'

/** A stand-in for a runtime's channel handler: records each send, or throws when `broken` is set. */
const handler = (channelId: string) => {
  const sent: unknown[] = []
  const state = { broken: false }
  return {
    sent,
    state,
    getChannel: () => ({ channelId }),
    send: (data: unknown) => {
      if (state.broken) throw new Error(`socket ${channelId} is gone`)
      sent.push(data)
    },
  }
}

const subscribers = (hub: LocalEventHubService<Record<string, unknown>>, topic: string) =>
  [...((hub as any).subscriptions.get(topic) ?? [])] as string[]

test('local-hub-close-drops-subscriptions: LocalEventHubService removes a channel from every topic when onChannelClosed is called, and when a send to it throws; the other subscribers still receive the publish', async () => {
  const hub = new LocalEventHubService<Record<string, unknown>>()
  const [a, b, c] = ['a', 'b', 'c'].map(handler)
  for (const h of [a, b, c]) hub.onChannelOpened(h as never)
  for (const id of ['a', 'b', 'c']) {
    await hub.subscribe('todos', id)
    await hub.subscribe('lists', id)
  }

  hub.onChannelClosed('a')
  assert.deepEqual(subscribers(hub, 'todos'), ['b', 'c'])
  assert.deepEqual(subscribers(hub, 'lists'), ['b', 'c'])

  b.state.broken = true
  await hub.publish('todos', null, { n: 1 })
  assert.deepEqual(c.sent, [{ n: 1 }])
  assert.deepEqual(subscribers(hub, 'todos'), ['c'])
  assert.deepEqual(subscribers(hub, 'lists'), ['c'])

  await hub.publish('lists', null, { n: 2 })
  assert.deepEqual(a.sent, [])
  assert.deepEqual(b.sent, [])
  assert.deepEqual(c.sent, [{ n: 1 }, { n: 2 }])
})

test('local-hub-publish-needs-opened-channel: LocalEventHubService publishes only to subscribers it was handed through onChannelOpened; a subscribed id it never saw opened gets nothing, and publish neither throws nor drops the subscription', async () => {
  const hub = new LocalEventHubService<Record<string, unknown>>()
  const opened = handler('opened')
  const unseen = handler('unseen')
  hub.onChannelOpened(opened as never)
  await hub.subscribe('todos', 'opened')
  await hub.subscribe('todos', 'unseen')

  await hub.publish('todos', null, { n: 1 })
  assert.deepEqual(opened.sent, [{ n: 1 }])
  assert.deepEqual(unseen.sent, [])
  assert.deepEqual(subscribers(hub, 'todos'), ['opened', 'unseen'])

  // Once the runtime reports it opened, the same subscription starts receiving.
  hub.onChannelOpened(unseen as never)
  await hub.publish('todos', null, { n: 2 })
  assert.deepEqual(unseen.sent, [{ n: 2 }])
})
