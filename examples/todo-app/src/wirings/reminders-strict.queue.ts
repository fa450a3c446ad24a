import { wireQueueWorker } from '#pikku/queue'
import { sendReminderStrict } from '../functions/reminders-strict.functions.js'

// The failure-handling variant of todo-reminders (docs/queue/examples.mdx): a job for a deleted to-do is discarded.
wireQueueWorker({
  name: 'todo-reminders-strict',
  func: sendReminderStrict,
})
