import { pikkuSessionlessFunc } from '#pikku/function'
import type { Todo } from '../todo-store.js'

// A locally run command has no session: the person at the terminal is the user. So these functions are
// sessionless and take the owner as an option instead of reading it from `wire.session`.

// #region listTodosForOwner
export const listTodosForOwner = pikkuSessionlessFunc<{ owner: string; open?: boolean }, Todo[]>({
  description: "List one user's to-dos, optionally only the open ones",
  func: async ({ todoStore }, { owner, open }) => {
    const todos = await todoStore.list(owner)
    return open ? todos.filter((todo) => !todo.done) : todos
  },
})
// #endregion listTodosForOwner

// #region addTodoForOwner
export const addTodoForOwner = pikkuSessionlessFunc<{ title: string; owner: string; due?: string }, Todo>({
  description: 'Add a to-do for one user',
  func: async ({ todoStore }, { title, owner, due }) =>
    await todoStore.create({ ownerId: owner, title, dueAt: due, done: false }),
})
// #endregion addTodoForOwner
