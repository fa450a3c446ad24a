// BunEventHubService from @pikku/bun-server 0.12.8, run on Node.js. Bun is not installed here, so PikkuBunServer
// itself cannot start; the hub only calls publish() on the server it is given and subscribe() / unsubscribe() on
// the sockets it holds, so a recording stand-in for each shows what it sends where.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BunEventHubService } from '@pikku/bun-server'

type Published = [topic: string, message: unknown, binary: boolean]

const recordingServer = () => {
  const published: Published[] = []
  return { published, server: { publish: (topic: string, message: unknown, binary: boolean) => published.push([topic, message, binary]) } }
}

const recordingSocket = () => {
  const topics: string[] = []
  return {
    topics,
    socket: { subscribe: (t: string) => topics.push(t), unsubscribe: (t: string) => topics.splice(topics.indexOf(t), 1) },
  }
}

test('bun-event-hub-no-server-no-op: before setServer, which only PikkuBunServer.start() calls, publish sends nothing and does not throw', async () => {
  const hub = new BunEventHubService<Record<string, unknown>>()
  await hub.publish('todos:amy', null, { n: 1 })
  const { published, server } = recordingServer()
  hub.setServer(server as never)
  await hub.publish('todos:amy', null, { n: 2 })
  // Only the publish after setServer reached a server: the first was dropped, not queued.
  assert.deepEqual(published, [['todos:amy', '{"n":2}', false]])
})

test('bun-event-hub-publish-shape: publish hands the topic to Bun whatever channelId says, JSON-encodes every non-binary payload (a string too) and passes bytes as they are', async () => {
  const hub = new BunEventHubService<Record<string, unknown>>()
  const { published, server } = recordingServer()
  hub.setServer(server as never)
  await hub.publish('todos:amy', 'sender-channel', { n: 1 })
  await hub.publish('todos:amy', null, 'hello')
  const bytes = new Uint8Array([1, 2, 3])
  await hub.publish('todos:amy', null, bytes, true)
  assert.deepEqual(published, [
    ['todos:amy', '{"n":1}', false],
    ['todos:amy', '"hello"', false],
    ['todos:amy', bytes, true],
  ])
})

test('bun-event-hub-subscribe-needs-socket: subscribe reaches only a socket registered with onChannelOpened(channelId, socket); for any other id it does nothing', async () => {
  const hub = new BunEventHubService<Record<string, unknown>>()
  const { topics, socket } = recordingSocket()
  await hub.subscribe('todos:amy', 'c1')
  assert.deepEqual(topics, [])
  await hub.onChannelOpened('c1', socket as never)
  await hub.subscribe('todos:amy', 'c1')
  assert.deepEqual(topics, ['todos:amy'])
  await hub.onChannelClosed('c1')
  await hub.subscribe('todos:bob', 'c1')
  assert.deepEqual(topics, ['todos:amy'])
})
