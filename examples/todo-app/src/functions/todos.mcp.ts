import { pikkuMCPPromptFunc, pikkuMCPResourceFunc, pikkuMCPToolFunc } from '#pikku/mcp'

// The app's agent-facing functions. countOpenTodos (src/functions/summary.functions.ts) is a tool too: mcp: true.

// #region listOpenTodos
/** A tool written for agents: it calls listTodos and words the answer for a model to read. */
export const listOpenTodos = pikkuMCPToolFunc<void>({
  name: 'listOpenTodos',
  title: 'List open to-dos',
  description: "List the caller's to-dos that are not done yet, with their ids and due dates",
  func: async (_services, _data, { rpc }) => {
    const { todos } = await rpc.invoke('listTodos', { done: false })
    if (todos.length === 0) {
      return [{ type: 'text', text: 'There are no open to-dos.' }]
    }
    const lines = todos.map((todo) => `- ${todo.todoId}: ${todo.title}${todo.dueAt ? ` (due ${todo.dueAt})` : ''}`)
    return [{ type: 'text', text: lines.join('\n') }]
  },
})
// #endregion listOpenTodos

// #region todoResource
/** Resource read: goes through getTodo, so the session and isTodoOwner apply as they do over HTTP. */
export const todoResource = pikkuMCPResourceFunc<{ todoId: string }>(async (_services, { todoId }, { mcp, rpc }) => {
  const todo = await rpc.invoke('getTodo', { todoId })
  const text = [`Title: ${todo.title}`, `Done: ${todo.done ? 'yes' : 'no'}`, `Due: ${todo.dueAt ?? 'none'}`].join('\n')
  return [{ uri: mcp.uri ?? `todos://items/${todoId}`, text }]
})
// #endregion todoResource

// #region planDayPrompt
/** Prompt: opens a conversation that asks the model to plan the caller's day. */
export const planDayPrompt = pikkuMCPPromptFunc<{ focus?: 'deadlines' | 'quick-wins' }>(
  async (_services, { focus }, { rpc }) => {
    const { todos } = await rpc.invoke('listTodos', { done: false })
    const lines = todos.map((todo) => `- ${todo.title}${todo.dueAt ? ` (due ${todo.dueAt})` : ''}`)
    const order = focus === 'quick-wins' ? 'Start with what I can finish fast.' : 'Put the nearest deadlines first.'
    return [
      {
        role: 'user',
        content: { type: 'text', text: ['Help me plan my day. These are my open to-dos:', ...lines, order].join('\n') },
      },
    ]
  },
)
// #endregion planDayPrompt
