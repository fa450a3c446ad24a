/**
 * The home page's code showcase: one function from the team to-do app, then the files that wire it
 * to each transport. Names follow the fact sheets (0.12 API); the docs pages explain each one.
 */
export type ShowcaseTab = { value: string; label: string; title: string; code: string };

export const functionSample = `import { pikkuFunc } from '#pikku'
import { NotFoundError } from '@pikku/core'
import type { Todo } from '../todo.types.js'

export const getTodo = pikkuFunc<{ todoId: string }, Todo>({
  description: 'Fetch one to-do by id',
  mcp: true,
  func: async ({ todoStore }, { todoId }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(\`No to-do with id \${todoId}\`)
    return todo
  },
})`;

export const wiringTabs: ShowcaseTab[] = [
  {
    value: 'http',
    label: 'HTTP',
    title: 'src/wirings/todos.http.ts',
    code: `import { wireHTTP } from '#pikku'
import { getTodo } from '../functions/todos.functions.js'

// GET /todos/123 -> { todoId: '123' }
wireHTTP({ method: 'get', route: '/todos/:todoId', func: getTodo })`,
  },
  {
    value: 'channel',
    label: 'WebSocket',
    title: 'src/wirings/todos.channel.ts',
    code: `import { wireChannel } from '#pikku'
import { getTodo } from '../functions/todos.functions.js'

// { "action": "getTodo", "todoId": "123" } -> the same function
wireChannel({
  name: 'todos',
  route: '/todos/live',
  onMessageWiring: { action: { getTodo } },
})`,
  },
  {
    value: 'rpc',
    label: 'RPC',
    title: 'src/functions/digest.functions.ts',
    code: `import { pikkuFunc } from '#pikku'

// Another function calls it by name, typed from the generated RPC map.
export const describeTodo = pikkuFunc<{ todoId: string }, string>({
  func: async (_services, { todoId }, { rpc }) => {
    const todo = await rpc.invoke('getTodo', { todoId })
    return \`\${todo.title} (\${todo.done ? 'done' : 'open'})\`
  },
})`,
  },
  {
    value: 'mcp',
    label: 'MCP',
    title: 'src/functions/todos.functions.ts',
    code: `// mcp: true in the function's config is the whole wiring.
// The CLI writes the tool's JSON schema from { todoId: string },
// and @pikku/modelcontextprotocol serves it to AI agents.
export const getTodo = pikkuFunc<{ todoId: string }, Todo>({
  description: 'Fetch one to-do by id',
  mcp: true,
  func: async ({ todoStore }, { todoId }) => { /* as before */ },
})`,
  },
  {
    value: 'queue',
    label: 'Queue',
    title: 'src/wirings/reminders.queue.ts',
    code: `import { wireQueueWorker } from '#pikku'
import { sendReminder } from '../functions/reminders.functions.js'

// Jobs on 'todo-reminders' run sendReminder; retries come from the job options.
wireQueueWorker({ name: 'todo-reminders', func: sendReminder })`,
  },
  {
    value: 'cron',
    label: 'Cron',
    title: 'src/wirings/digest.scheduler.ts',
    code: `import { wireScheduler } from '#pikku'
import { sendDailyDigest } from '../functions/digest.functions.js'

// Every day at 09:00 UTC.
wireScheduler({ name: 'daily-digest', schedule: '0 9 * * *', func: sendDailyDigest })`,
  },
];

export const installCommand = 'npm create pikku@latest my-app';
