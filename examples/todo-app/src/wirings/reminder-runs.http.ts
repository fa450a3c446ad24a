import { wireHTTP } from '#pikku/http'
import { getReminderRun, startTodoReminder } from '../functions/reminder-runs.functions.js'

// #region reminderRunRoutes
// Session routes of the app's own: the caller must own the to-do (or be an admin) to start a run, and must have
// started the run to read it.
wireHTTP({ method: 'post', route: '/todos/:todoId/reminder', func: startTodoReminder })
wireHTTP({ method: 'get', route: '/reminder-runs/:runId', func: getReminderRun })
// #endregion reminderRunRoutes
