import { pikkuScenarioStep } from '#pikku/scenarios'
import type { Todo } from '../todo-store.js'

// Scenario steps: the actions and checks a scenario is written in. Each runs as the actor the call names and reaches
// the app only through its exposed functions, as a signed-in user would.

// #region opensFirstOpenTodo
export const opensFirstOpenTodo = pikkuScenarioStep<void, { todoId: string; title: string }>({
  name: 'opensFirstOpenTodo',
  actor: true,
  description: 'Opens the list of open to-dos and picks the first one',
  default: async (_services, _data, { actor }) => {
    const { todos } = await actor.invoke('pageTodos', { done: false })
    const first = todos[0]
    if (!first) throw new Error(`${actor.name} has no open to-do`)
    return { todoId: first.todoId, title: first.title }
  },
})
// #endregion opensFirstOpenTodo

// #region marksTodoDone
export const marksTodoDone = pikkuScenarioStep<{ todoId: string }, Todo>({
  name: 'marksTodoDone',
  actor: true,
  description: 'Marks one to-do done',
  template: 'marks {todoId} done',
  default: async (_services, { todoId }, { actor }) => actor.invoke('setTodoDone', { todoId, done: true }),
})
// #endregion marksTodoDone

// #region seesTodoDone
export const seesTodoDone = pikkuScenarioStep<{ todoId: string }, void>({
  name: 'seesTodoDone',
  actor: true,
  description: 'Finds the to-do in the list of done to-dos',
  template: 'sees {todoId} among the done to-dos',
  default: async (_services, { todoId }, { actor }) => {
    const { todos } = await actor.invoke('pageTodos', { done: true })
    if (!todos.some((todo) => todo.todoId === todoId)) throw new Error(`${todoId} is not among the done to-dos`)
  },
})
// #endregion seesTodoDone

// #region seesTodoOpen
export const seesTodoOpen = pikkuScenarioStep<{ todoId: string }, void>({
  name: 'seesTodoOpen',
  actor: true,
  description: 'Finds the to-do in the list of open to-dos',
  template: 'sees {todoId} among the open to-dos',
  default: async (_services, { todoId }, { actor }) => {
    const { todos } = await actor.invoke('pageTodos', { done: false })
    if (!todos.some((todo) => todo.todoId === todoId)) throw new Error(`${todoId} is not among the open to-dos`)
  },
})
// #endregion seesTodoOpen
