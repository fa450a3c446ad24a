import { pikkuFunc } from '#pikku/function'
import { isTodoOwner } from '../permissions.js'

/** Calls `sendReminder` once, after a delay the caller picks, through the scheduler service. */
export const remindMeIn = pikkuFunc<{ todoId: string; delay: string }, { taskId: string }>({
  description: 'Remind me about a to-do after a delay such as 30m or 2h',
  permissions: { isTodoOwner },
  func: async ({ schedulerService }, { todoId, delay }) => {
    // `delay` is a duration string such as '30m', '2h', '1day' or '500ms'; a bare number such as '5000' is refused.
    const taskId = await schedulerService.scheduleRPC(delay, 'sendReminder', { todoId })
    return { taskId }
  },
})
