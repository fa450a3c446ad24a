import { pikkuSessionlessFunc } from '#pikku/function'
import { NotFoundError } from '#pikku/error'

// The steps of the reminder workflows (src/workflows/). Each is an ordinary function: a workflow calls it by name,
// and the workflow service records what it returned.

// #region isTodoOpen
/** Is the to-do still waiting to be done? A deleted to-do counts as closed. */
export const isTodoOpen = pikkuSessionlessFunc<{ todoId: string }, { open: boolean }>({
  description: 'Tell whether a to-do is still open',
  readonly: true,
  func: async ({ todoStore }, { todoId }) => {
    const todo = await todoStore.get(todoId)
    return { open: todo !== undefined && !todo.done }
  },
})
// #endregion isTodoOpen

// #region escalateTodo
/** Escalates a to-do that is still open after its owner was reminded: in this app, a warning in the log. */
export const escalateTodo = pikkuSessionlessFunc<{ todoId: string }, { escalationKey: string }>({
  description: 'Escalate a to-do that is still open after its reminder, with a warning in the log',
  errors: [NotFoundError],
  func: async ({ todoStore, logger }, { todoId }, { workflowStep }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    // The invocation id is the same on every retry of this step, so a notifier that dedupes on it
    // sends one message even when the step runs twice.
    const escalationKey = workflowStep?.invocationId ?? `escalation-${todoId}`
    logger.warn(`[${escalationKey}] "${todo.title}" (owner ${todo.ownerId}) is still open after its reminder`)
    return { escalationKey }
  },
})
// #endregion escalateTodo

// #region listOpenTodoIds
/** The ids of an owner's open to-dos: the list a graph workflow fans out over. */
export const listOpenTodoIds = pikkuSessionlessFunc<{ ownerId: string }, { todoIds: string[] }>({
  description: "List the ids of an owner's open to-dos",
  readonly: true,
  func: async ({ todoStore }, { ownerId }) => {
    const todos = await todoStore.list(ownerId)
    return { todoIds: todos.filter((todo) => !todo.done).map((todo) => todo.todoId) }
  },
})
// #endregion listOpenTodoIds
