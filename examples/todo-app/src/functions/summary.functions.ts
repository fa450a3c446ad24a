import { pikkuFunc } from '#pikku/function'

// #region countOpenTodos
/**
 * An ordinary function offered on two extra surfaces: `expose: true` lets the front end call it through the
 * public RPC endpoint, and `mcp: true` makes it an MCP tool that agents receive as JSON text.
 */
export const countOpenTodos = pikkuFunc<void, { open: number; overdue: number }>({
  title: 'Count open to-dos',
  description: "Count the caller's open to-dos and how many of them are past their due date",
  expose: true,
  mcp: true,
  readonly: true,
  func: async ({ todoStore }, _data, { session }) => {
    const open = (await todoStore.list(session.userId)).filter((todo) => !todo.done)
    const now = new Date().toISOString()
    const overdue = open.filter((todo) => todo.dueAt !== undefined && todo.dueAt < now)
    return { open: open.length, overdue: overdue.length }
  },
})
// #endregion countOpenTodos
