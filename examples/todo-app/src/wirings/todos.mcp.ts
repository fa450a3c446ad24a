import { wireMCPPrompt, wireMCPResource } from '#pikku/mcp'
import { planDayPrompt, todoResource } from '../functions/todos.mcp.js'

// Tools need no wiring: codegen finds countOpenTodos (mcp: true) and listOpenTodos (pikkuMCPToolFunc) itself.

// #region resource
wireMCPResource({
  uri: 'todos://items/{todoId}',
  title: 'To-do details',
  description: 'Title, status and due date of one of your to-dos',
  mimeType: 'text/plain',
  func: todoResource,
})
// #endregion resource

// #region prompt
wireMCPPrompt({
  name: 'planDay',
  description: 'Draft a plan for the day from your open to-dos',
  func: planDayPrompt,
})
// #endregion prompt
