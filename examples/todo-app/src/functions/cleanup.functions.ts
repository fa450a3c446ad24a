import { pikkuSessionlessFunc } from '#pikku/function'

/** Runs for each job on the `todo-cleanup` queue: removes one owner's finished to-dos. */
export const purgeDoneTodos = pikkuSessionlessFunc<{ ownerId: string }, { removed: number }>({
  description: "Remove one owner's finished to-dos",
  func: async ({ todoStore }, { ownerId }, { queue }) => {
    const done = (await todoStore.list(ownerId)).filter((todo) => todo.done)
    let removed = 0
    for (const todo of done) {
      // remove() answers false for a to-do that is already gone, so a rerun is harmless.
      if (await todoStore.remove(todo.todoId)) removed++
    }
    await queue?.updateProgress({ ownerId, removed })
    return { removed }
  },
})
