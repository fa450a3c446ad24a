// The to-do app's channels on an API Gateway WebSocket API, with channel state kept in Redis (@pikku/lambda).
import '#pikku/pikku-bootstrap.gen.js'
import type { APIGatewayProxyEvent } from 'aws-lambda'
import {
  connectWebsocket,
  disconnectWebsocket,
  processWebsocketMessage,
  LambdaEventHubService,
} from '@pikku/lambda/websocket'
import { RedisChannelStore, RedisEventHubStore } from '@pikku/redis'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const redisUrl = process.env.REDIS_URL ?? 'redis://localhost:6379'
const channelStore = new RedisChannelStore(redisUrl)
const eventHubStore = new RedisEventHubStore(redisUrl)

let services: ReturnType<typeof createSingletonServices> | undefined

const prepare = async (event: APIGatewayProxyEvent) => {
  services ??= createConfig().then((config) => createSingletonServices(config))
  const singletonServices = await services
  // Pushes go through the API Gateway management API of the event being handled.
  singletonServices.eventHub = new LambdaEventHubService(singletonServices.logger, event, channelStore, eventHubStore)
}

export const connect = async (event: APIGatewayProxyEvent) => {
  await prepare(event)
  return connectWebsocket(event, { channelStore })
}

export const message = async (event: APIGatewayProxyEvent) => {
  await prepare(event)
  return processWebsocketMessage(event, { channelStore })
}

export const disconnect = async (event: APIGatewayProxyEvent) => {
  await prepare(event)
  return disconnectWebsocket(event, { channelStore })
}
