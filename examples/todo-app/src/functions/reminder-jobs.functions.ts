import { pikkuFunc } from '#pikku/function'
import { NotFoundError } from '#pikku/error'
import { isTodoOwner } from '../permissions.js'

const ONE_HOUR = 60 * 60 * 1000

/** Publishes a job on the `todo-reminders` queue, timed for one hour before the to-do falls due. */
export const queueReminder = pikkuFunc<{ todoId: string }, { jobId: string | null }>({
  description: 'Queue a reminder one hour before a to-do falls due',
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore, queueService }, { todoId }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    // Nothing to remind about without a due date.
    if (!todo.dueAt) return { jobId: null }

    const remindAt = new Date(todo.dueAt).getTime() - ONE_HOUR
    const jobId = await queueService.add(
      'todo-reminders',
      { todoId },
      {
        delay: Math.max(0, remindAt - Date.now()),
        jobId: `reminder-${todoId}`,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
      },
    )
    return { jobId }
  },
})
