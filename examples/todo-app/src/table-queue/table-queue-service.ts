import type { JobOptions, QueueService } from '@pikku/core/queue'
import type { JobTable } from './job-table.js'

/** The publishing half: what functions reach as `queueService`. This backend keeps no job results. */
export class TableQueueService implements QueueService {
  readonly supportsResults = false

  constructor(private readonly table: JobTable) {}

  async add<T>(queueName: string, data: T, options?: JobOptions): Promise<string> {
    return this.table.insert({
      queueName,
      data,
      runAfter: Date.now() + (options?.delay ?? 0),
      attemptsLeft: options?.attempts ?? 1,
      pikkuUserId: options?.pikkuUserId,
    })
  }

  async getJob(): Promise<null> {
    return null
  }
}
