import { pikkuSessionlessFunc } from '#pikku/function'

/** Runs for each job on the `todo-reminders` queue: reminds the owner of a to-do that falls due. */
export const sendReminder = pikkuSessionlessFunc<{ todoId: string }, { reminded: boolean }>({
  description: 'Remind the owner of a to-do that it falls due',
  func: async ({ todoStore, logger }, { todoId }) => {
    const todo = await todoStore.get(todoId)
    // The to-do was deleted or finished since the job was queued: nothing to do.
    if (!todo || todo.done) return { reminded: false }
    logger.info(`Reminder for ${todo.ownerId}: "${todo.title}" is due ${todo.dueAt ?? 'soon'}`)
    return { reminded: true }
  },
})
