import { pikkuFunc } from '#pikku/function'
import type { Todo } from '../todo-store.js'

/**
 * The board: with countOpenTodos (summary.functions.ts), the small surface the React front end calls through the
 * public RPC endpoint (and so through the generated React Query hooks). The REST functions in todos.functions.ts stay
 * unexposed; these two are exposed on purpose, each with a session requirement. setTodoDone reuses updateTodo;
 * pageTodos reads the store itself.
 */

const PAGE_SIZE = 20

// #region pageTodos
/** One page of the caller's to-dos. `nextCursor` is what makes it usable with usePikkuInfiniteQuery. */
export const pageTodos = pikkuFunc<
  { cursor?: string; done?: boolean },
  { todos: Todo[]; nextCursor: string | null }
>({
  description: "Page through the caller's to-dos, twenty at a time",
  expose: true,
  readonly: true,
  func: async ({ todoStore }, { cursor, done }, { session }) => {
    const all = (await todoStore.list(session.userId)).filter((todo) => done === undefined || todo.done === done)
    // The cursor is the offset of the next page, as a string; the first page has none.
    const start = cursor ? Number(cursor) : 0
    const end = start + PAGE_SIZE
    return { todos: all.slice(start, end), nextCursor: end < all.length ? String(end) : null }
  },
})
// #endregion pageTodos

// #region setTodoDone
/** The board's checkbox. It goes through updateTodo, so the owner check of isTodoOwner runs on the way. */
export const setTodoDone = pikkuFunc<{ todoId: string; done: boolean }, Todo>({
  description: 'Mark one of your to-dos done, or open again',
  expose: true,
  func: async (_services, { todoId, done }, { rpc }) => await rpc.invoke('updateTodo', { todoId, done }),
})
// #endregion setTodoDone
