import { pikkuFunc } from '#pikku/function'
import { TypedVariablesService } from '#pikku/variables'
import type { Todo } from '../todo-store.js'

const ONE_HOUR = 60 * 60 * 1000

// #region listOverdueTodos
/** The caller's open to-dos that have been overdue for longer than the escalation delay. */
export const listOverdueTodos = pikkuFunc<void, { escalateAfterHours: number; todos: Todo[] }>({
  description: "List the caller's open to-dos that are overdue by more than the escalation delay",
  func: async ({ todoStore, variables }, _data, { session }) => {
    // Read on every call, so a changed value applies without a restart.
    const escalateAfterHours = (await new TypedVariablesService(variables).get('REMINDER_ESCALATION_HOURS')) ?? 24
    const cutoff = Date.now() - escalateAfterHours * ONE_HOUR

    const todos = (await todoStore.list(session.userId)).filter(
      (todo) => !todo.done && todo.dueAt !== undefined && Date.parse(todo.dueAt) < cutoff,
    )
    return { escalateAfterHours, todos }
  },
})
// #endregion listOverdueTodos
