import {
  QueueJobDiscardedError,
  registerQueueWorkers,
  runQueueJob,
  type QueueConfigMapping,
} from '@pikku/core/queue'
import type { Logger } from '@pikku/core/services'
import type { JobTable } from './job-table.js'

// #region configMappings
/** Which fields of a worker's `config` this backend honors; the rest are reported as ignored, with a warning. */
const configMappings: QueueConfigMapping = {
  supported: {
    batchSize: { description: 'Jobs claimed per poll' },
    pollInterval: { description: 'Milliseconds between polls' },
  },
  unsupported: {
    lockDuration: { reason: 'No locks', explanation: 'A claim is one atomic update of the row' },
  },
  fallbacks: {},
}
// #endregion configMappings

// #region startTableWorkers
/** Starts one polling loop per registered queue worker; resolves with the config warnings per queue. */
export const startTableWorkers = (table: JobTable, logger: Logger) =>
  registerQueueWorkers(configMappings, logger, async (queueName, worker) => {
    const batchSize = worker.config?.batchSize ?? 1
    const pollInterval = worker.config?.pollInterval ?? 1000

    const poll = async () => {
      try {
        for (let i = 0; i < batchSize; i++) {
          const row = await table.claimNext(queueName)
          if (!row) break
          try {
            await runQueueJob({
              job: { id: row.id, queueName, data: row.data, status: () => 'active', pikkuUserId: row.pikkuUserId },
            })
            await table.complete(row.id)
          } catch (error) {
            // runQueueJob rethrows every failure; a discard is final, anything else may run again.
            if (error instanceof QueueJobDiscardedError) await table.drop(row.id)
            else await table.retryLater(row.id, 5000)
          }
        }
      } catch (error) {
        logger.error(`Polling queue ${queueName} failed`, error)
      }
      setTimeout(poll, pollInterval)
    }
    void poll()
  })
// #endregion startTableWorkers
