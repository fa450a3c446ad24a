import { wireChannel } from '#pikku/channel'
import { createTodo, getTodo, listTodos, updateTodo } from '../functions/todos.functions.js'
import {
  completeTodo,
  forgetSocket,
  greetSocket,
  subscribeToChanges,
  unsubscribeFromChanges,
} from '../functions/live.functions.js'

// A message such as { "action": "getTodo", "todoId": "123" } runs getTodo, with the connection's session.
wireChannel({
  name: 'todos',
  route: '/todos/live',
  // The first frame a socket receives is { signedIn: true } or { signedIn: false }.
  onConnect: greetSocket,
  onDisconnect: forgetSocket,
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
