import { pikkuWorkflowFunc } from '#pikku/workflow'

// #region todoReminderWorkflow
/**
 * Remind the owner of a to-do, give them a day, and escalate it if it is still open (`escalateTodo` logs a warning).
 * Every awaited `workflow.*` call is a durable step: its result is stored, so a run that is
 * resumed after the day-long sleep replays the earlier steps from the store instead of running them again.
 * The input is one named parameter (`input`), not destructured: the CLI reads each step's data as references to it.
 */
export const todoReminderWorkflow = pikkuWorkflowFunc<
  { todoId: string },
  { outcome: 'closed' | 'done-after-reminder' | 'escalated' }
>({
  title: 'Remind, then escalate',
  description: 'Remind the owner of a to-do, wait a day, and escalate it if it is still open',
  func: async (_services, input, { workflow }) => {
    const reminder = await workflow.do('Remind the owner', 'sendReminder', { todoId: input.todoId }, { retries: 3, retryDelay: '30s' })
    if (!reminder.reminded) {
      // Done or deleted before it fell due: nothing to chase.
      return { outcome: 'closed' }
    }

    await workflow.sleep('Give the owner a day', '1d')

    const check = await workflow.do('Check the to-do again', 'isTodoOpen', { todoId: input.todoId })
    if (!check.open) {
      return { outcome: 'done-after-reminder' }
    }

    await workflow.do('Escalate to an admin', 'escalateTodo', { todoId: input.todoId }, { retries: 5, retryDelay: '1min' })
    return { outcome: 'escalated' }
  },
})
// #endregion todoReminderWorkflow
