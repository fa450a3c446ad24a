import { wireChannel } from '#pikku/channel'
import { createTodo, getTodo, listTodos, updateTodo } from '../functions/todos.functions.js'
import { completeTodo, subscribeToChanges, unsubscribeFromChanges } from '../functions/live.functions.js'

// A message such as { "action": "getTodo", "todoId": "123" } runs getTodo, with the connection's session.
wireChannel({
  name: 'todos',
  route: '/todos/live',
  onMessageWiring: {
    action: {
      listTodos,
      getTodo,
      createTodo,
      updateTodo,
      // Live updates: see src/functions/live.functions.ts
      completeTodo,
      subscribeToChanges,
      unsubscribeFromChanges,
    },
  },
})
