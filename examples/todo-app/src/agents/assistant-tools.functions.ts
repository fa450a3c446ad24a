import { pikkuApprovalDescription, pikkuFunc } from '#pikku/function'
import { isTodoOwner } from '../permissions.js'

// #region deleteTodoWithApproval
/** The sentence the user approves or declines before the agent may delete anything. */
const describeDeletion = pikkuApprovalDescription<{ todoId: string }>(async ({ todoStore }, { todoId }) => {
  const todo = await todoStore.get(todoId)
  return todo ? `Delete the to-do "${todo.title}"?` : `Delete to-do ${todoId}? It no longer exists.`
})

export const deleteTodoWithApproval = pikkuFunc<{ todoId: string }, void>({
  description: "Delete one of the user's to-dos. The user is asked to approve every deletion first.",
  approvalRequired: true,
  approvalDescription: describeDeletion,
  permissions: { isTodoOwner },
  func: async (_services, { todoId }, { rpc }) => {
    await rpc.invoke('deleteTodo', { todoId })
  },
})
// #endregion deleteTodoWithApproval
