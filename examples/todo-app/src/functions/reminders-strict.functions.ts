import { pikkuSessionlessFunc } from '#pikku/function'

/** Runs for each job on the `todo-reminders-strict` queue: like sendReminder, but a job for a deleted to-do is discarded. */
export const sendReminderStrict = pikkuSessionlessFunc<{ todoId: string }, { reminded: boolean }>({
  description: 'Remind the owner of a to-do, discarding jobs for to-dos that are gone',
  func: async ({ todoStore, logger }, { todoId }, { queue }) => {
    // If the store cannot be reached, this throws: the attempt fails and the backend retries it.
    const todo = await todoStore.get(todoId)

    if (!todo) {
      // Permanent: no retry brings the to-do back. Awaited, so nothing below runs.
      await queue?.discard(`to-do ${todoId} no longer exists`)
      // Reached only when the function is called outside a queue, where `queue` is undefined.
      return { reminded: false }
    }
    if (todo.done) return { reminded: false }

    logger.info(`Reminder for ${todo.ownerId}: "${todo.title}" is due ${todo.dueAt ?? 'soon'}`)
    return { reminded: true }
  },
})
