/**
 * Stand-in for .pikku/queue/pikku-queue-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/queue/serialize-queue-types.ts (cli 0.12.113).
 */
import { wireQueueWorker as wireQueueWorkerCore } from '@pikku/core/queue'
import type { CoreQueueWorker } from '@pikku/core/queue'
import type { PikkuFunctionConfig } from '../function/pikku-function-types.gen.js'

type QueueWiring<In, Out> = CoreQueueWorker<PikkuFunctionConfig<In, Out, 'session' | 'rpc'>>

export const wireQueueWorker = (queueWorker: QueueWiring<any, any>): void => {
  wireQueueWorkerCore(queueWorker as never)
}
