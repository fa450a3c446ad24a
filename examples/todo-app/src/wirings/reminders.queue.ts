import { wireQueueWorker } from '#pikku/queue'
import { sendReminder } from '../functions/reminders.functions.js'

wireQueueWorker({
  name: 'todo-reminders',
  func: sendReminder,
})
