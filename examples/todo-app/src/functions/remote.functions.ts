import { pikkuFunc } from '#pikku/function'
import { isTodoOwner } from '../permissions.js'

// #region remindNow
/**
 * "Remind me now" on the API deployment. sendReminder runs in the reminders deployment (the one that consumes
 * the todo-reminders queue), so this function asks for it by name with rpc.remote: the DeploymentService finds a
 * live deployment that registered sendReminder and calls it there, with this caller's session.
 */
export const remindNow = pikkuFunc<{ todoId: string }, { reminded: boolean }>({
  description: 'Send the reminder for one of your to-dos straight away',
  permissions: { isTodoOwner },
  func: async (_services, { todoId }, { rpc }) => await rpc.remote('sendReminder', { todoId }),
})
// #endregion remindNow
