import { wireQueueWorker } from '#pikku/queue'
import { purgeDoneTodos } from '../functions/cleanup.functions.js'

wireQueueWorker({
  name: 'todo-cleanup',
  func: purgeDoneTodos,
  // One owner at a time keeps the load on the store low.
  config: { batchSize: 1 },
})
