import type { ConnectionOptions, QueueOptions } from 'bullmq'
import { BullQueueService } from '@pikku/queue-bullmq'

/**
 * BullMQ's publishing side with the Redis connection it was given. At @pikku/queue-bullmq 0.12.7 the factory's own
 * queue service creates its BullMQ queues without connection options, so it publishes to 127.0.0.1:6379 whatever
 * the factory was told, and the factory's close() leaves those connections open. This subclass fixes both.
 */
export class ConnectedBullQueueService extends BullQueueService {
  constructor(private readonly connection: ConnectionOptions) {
    super(connection)
  }

  protected override createQueue(queueName: string, config?: QueueOptions) {
    return super.createQueue(queueName, { ...config, connection: this.connection })
  }

  /** Closes the queues and job-event listeners this service opened. */
  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()))
    await Promise.all([...this.queueEvents.values()].map((events) => events.close()))
    this.queues.clear()
    this.queueEvents.clear()
  }
}
