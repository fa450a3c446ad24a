import { wireHTTP } from '#pikku/http'
import { queueReminder } from '../functions/reminder-jobs.functions.js'

// The owner of a to-do, or an admin, queues its reminder job. A function no wiring reaches is left out of the services the
// inspector marks required, so in a project without workflows (which mark `queueService` required themselves) this
// route is also what makes `queueService` non-optional in queueReminder's types.
wireHTTP({ method: 'post', route: '/todos/:todoId/reminder-job', func: queueReminder })
