import { pikkuCLIRender } from '#pikku/cli'
import type { Todo } from '../todo-store.js'

// Renderers print with console.log: a command's standard output is its result, for people or for scripts.

export const renderTodoList = pikkuCLIRender<Todo[]>((_services, todos) => {
  if (todos.length === 0) {
    console.log('No to-dos.')
    return
  }
  for (const todo of todos) {
    const due = todo.dueAt ? `  (due ${todo.dueAt})` : ''
    console.log(`[${todo.done ? 'x' : ' '}] ${todo.todoId}  ${todo.title}${due}`)
  }
})

export const renderCreated = pikkuCLIRender<Todo>((_services, todo) => {
  console.log(`Created ${todo.todoId}: ${todo.title}`)
})
