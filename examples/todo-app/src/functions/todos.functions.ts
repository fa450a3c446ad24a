import { pikkuFunc, pikkuSessionlessFunc } from '#pikku/function'
import { NotFoundError } from '#pikku/error'
import { isTodoOwner } from '../permissions.js'
import type { Todo } from '../todo-store.js'

// #region listTodos
export const listTodos = pikkuFunc<{ done?: boolean }, { todos: Todo[] }>({
  description: "List the caller's to-dos, optionally only the open or the done ones",
  func: async ({ todoStore }, { done }, { session }) => {
    const todos = await todoStore.list(session.userId)
    return { todos: done === undefined ? todos : todos.filter((todo) => todo.done === done) }
  },
})
// #endregion listTodos

// #region getTodo
export const getTodo = pikkuFunc<{ todoId: string }, Todo>({
  description: 'Fetch one to-do by id',
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore }, { todoId }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    return todo
  },
})
// #endregion getTodo

// #region createTodo
export const createTodo = pikkuFunc<{ title: string; dueAt?: string }, Todo>({
  description: 'Create a to-do owned by the caller',
  func: async ({ todoStore }, { title, dueAt }, { session }) => {
    return await todoStore.create({ ownerId: session.userId, title, dueAt, done: false })
  },
})
// #endregion createTodo

// #region updateTodo
export const updateTodo = pikkuFunc<{ todoId: string; title?: string; done?: boolean; dueAt?: string }, Todo>({
  description: 'Change the title, due date or done flag of a to-do',
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore }, { todoId, ...changes }) => {
    const todo = await todoStore.update(todoId, changes)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    return todo
  },
})
// #endregion updateTodo

// #region deleteTodo
export const deleteTodo = pikkuFunc<{ todoId: string }, void>({
  description: 'Delete a to-do',
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore }, { todoId }) => {
    const removed = await todoStore.remove(todoId)
    if (!removed) throw new NotFoundError(`No to-do with id ${todoId}`)
  },
})
// #endregion deleteTodo

// #region health
export const health = pikkuSessionlessFunc<void, { status: 'ok' }>({
  description: 'Liveness check for load balancers and uptime monitors',
  func: async () => ({ status: 'ok' }),
})
// #endregion health
