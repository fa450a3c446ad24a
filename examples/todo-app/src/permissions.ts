import { pikkuPermission } from '#pikku/auth'

/**
 * The caller owns the to-do, or is an admin. A missing to-do passes, so that the function itself
 * answers 404 rather than the permission answering 403.
 */
export const isTodoOwner = pikkuPermission<{ todoId: string }>({
  name: 'isTodoOwner',
  description: 'The caller owns the to-do, or is an admin',
  func: async ({ todoStore }, { todoId }, { session }) => {
    if (!session) return false
    if (session.role === 'admin') return true
    const todo = await todoStore.get(todoId)
    return !todo || todo.ownerId === session.userId
  },
})
