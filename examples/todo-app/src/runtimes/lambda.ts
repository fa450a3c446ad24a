// The to-do app on AWS Lambda: API Gateway requests, the reminders queue on SQS and the daily digest (@pikku/lambda).
import '#pikku/pikku-bootstrap.gen.js'
import type { APIGatewayEvent, SQSEvent } from 'aws-lambda'
import { runFetch } from '@pikku/lambda/http'
import { runSQSQueueWorker } from '@pikku/lambda/queue'
import { runScheduledTask } from '@pikku/core/scheduler'
import { SQSQueueService } from '@pikku/aws-services'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

// #region services
const requireEnv = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`Environment variable ${name} is not set`)
  return value
}

let services: ReturnType<typeof createSingletonServices> | undefined

// Built on the first call an instance receives, then reused while the instance stays warm.
const coldStart = () => {
  services ??= createConfig()
    .then((config) =>
      createSingletonServices(config, {
        // Publishes each job's data as the SQS message body, which is what runSQSQueueWorker reads back.
        queueService: new SQSQueueService({
          region: requireEnv('AWS_REGION'),
          queueUrlPrefix: requireEnv('SQS_QUEUE_URL_PREFIX'),
        }),
      }),
    )
    .catch((error: unknown) => {
      // A failed start is not kept, or every later call on this warm instance would fail the same way.
      services = undefined
      throw error
    })
  return services
}
// #endregion services

// #region handlers
// API Gateway REST API (payload version 1). For an HTTP API (payload 2.0) use runFetchV2.
export const http = async (event: APIGatewayEvent) => {
  await coldStart()
  return runFetch(event)
}

// SQS event source on the queue named 'todo-reminders', the wireQueueWorker name.
export const reminders = async (event: SQSEvent) => {
  const { logger } = await coldStart()
  return runSQSQueueWorker(logger, event)
}

// EventBridge rule: runs the one task this handler is for.
export const dailyDigest = async () => {
  await coldStart()
  await runScheduledTask({ name: 'daily-digest' })
}
// #endregion handlers
