import { wireHTTP } from '#pikku/http'
import { createTodo, deleteTodo, getTodo, health, listTodos, updateTodo } from '../functions/todos.functions.js'

// #region health
wireHTTP({ method: 'get', route: '/health', func: health, auth: false })
// #endregion health

// #region routes
wireHTTP({ method: 'get', route: '/todos', func: listTodos })
// #region getTodoRoute
wireHTTP({ method: 'get', route: '/todos/:todoId', func: getTodo })
// #endregion getTodoRoute
wireHTTP({ method: 'post', route: '/todos', func: createTodo })
wireHTTP({ method: 'patch', route: '/todos/:todoId', func: updateTodo })
wireHTTP({ method: 'delete', route: '/todos/:todoId', func: deleteTodo })
// #endregion routes
