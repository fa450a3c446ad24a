import { pikkuCLICommand, wireCLI } from '#pikku/cli'
import { addTodoForOwner, listTodosForOwner } from '../functions/cli.functions.js'
import { renderCreated, renderTodoList } from './todos.render.js'

wireCLI({
  program: 'todos',
  description: 'Manage team to-dos from the terminal',
  commands: {
    list: pikkuCLICommand({
      func: listTodosForOwner,
      description: "List a user's to-dos",
      render: renderTodoList,
      options: {
        owner: { description: 'Id of the user whose to-dos to list', short: 'o' },
        open: { description: 'Only show open to-dos', default: false },
      },
    }),
    add: pikkuCLICommand({
      parameters: '<title>',
      func: addTodoForOwner,
      description: 'Add a to-do for a user',
      render: renderCreated,
      options: {
        owner: { description: 'Id of the user who will own the to-do', short: 'o' },
        due: { description: 'Due date, as an ISO 8601 timestamp' },
      },
    }),
  },
})
