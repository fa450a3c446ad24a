/**
 * Stand-in for the queue client the CLI writes to `clientFiles.queueWiringsFile`. Modelled on
 * packages/cli/src/functions/wirings/queue/serialize-queue-wrapper.ts (cli 0.12.113).
 */
import type { QueueService, QueueJob } from '@pikku/core/queue'
import type { Safe } from '@pikku/core/classification'
import type { QueueMap, TypedPikkuQueue } from './queue/pikku-queue-workers-wirings-map.gen.js'

export class PikkuQueue implements TypedPikkuQueue {
  constructor(private queueService: QueueService) {}

  public async add<Name extends keyof QueueMap>(
    queueName: Name,
    data: Safe<QueueMap[Name]['input']>,
    options?: {
      priority?: number
      delay?: number
      attempts?: number
      removeOnComplete?: number
      removeOnFail?: number
      jobId?: string
    },
  ): Promise<string> {
    return this.queueService.add(queueName as string, data, options)
  }

  public async getJob<Name extends keyof QueueMap>(
    queueName: Name,
    jobId: string,
  ): Promise<QueueJob<QueueMap[Name]['input'], QueueMap[Name]['output']> | null> {
    return this.queueService.getJob<QueueMap[Name]['input'], QueueMap[Name]['output']>(queueName as string, jobId)
  }
}
