import { pikkuChannelConnectionFunc, pikkuChannelDisconnectionFunc, pikkuChannelFunc } from '#pikku/channel'
import { pikkuFunc } from '#pikku/function'
import { ForbiddenError } from '#pikku/error'
import { todoTopic } from '../todo-events.js'
import type { Todo } from '../todo-store.js'

// #region subscribeToChanges
/** Channel route: from now on, push the caller's to-do changes down this socket. */
export const subscribeToChanges = pikkuChannelFunc<void, { subscribed: boolean }>(
  async ({ eventHub }, _data, { channel, session }) => {
    if (!session) throw new ForbiddenError('Sign in to follow your to-dos')
    await eventHub.subscribe(todoTopic(session.userId), channel.channelId)
    return { subscribed: true }
  },
)

/** Channel route: stop pushing changes to this socket. */
export const unsubscribeFromChanges = pikkuChannelFunc<void, { subscribed: boolean }>(
  async ({ eventHub }, _data, { channel, session }) => {
    if (session) await eventHub.unsubscribe(todoTopic(session.userId), channel.channelId)
    return { subscribed: false }
  },
)
// #endregion subscribeToChanges

// #region connection
/** onConnect: tells a new socket straight away whether its upgrade carried a session. */
export const greetSocket = pikkuChannelConnectionFunc<{ signedIn: boolean }>(async (_services, _data, { session }) => ({
  signedIn: session !== undefined,
}))

/** onDisconnect: takes the socket off its owner's topic, whichever event hub the app runs. */
export const forgetSocket = pikkuChannelDisconnectionFunc(async ({ eventHub }, _data, { channel, session }) => {
  if (session) await eventHub.unsubscribe(todoTopic(session.userId), channel.channelId)
})
// #endregion connection

// #region completeTodo
/** Marks a to-do done through updateTodo, then tells the owner's other sockets and streams. */
export const completeTodo = pikkuFunc<{ todoId: string }, Todo>({
  description: 'Mark a to-do done and notify its owner’s live subscribers',
  func: async ({ eventHub }, { todoId }, { rpc, channel }) => {
    const todo = await rpc.invoke('updateTodo', { todoId, done: true })
    const topic = todoTopic(todo.ownerId)
    // Skip the socket the request came in on: it gets the reply instead.
    await eventHub.publish(topic, channel?.channelId ?? null, { topic, data: todo })
    return todo
  },
})
// #endregion completeTodo

// #region watchTodos
/** SSE route: keeps the stream open and lets the event hub write the caller's changes into it. */
export const watchTodos = pikkuFunc<void, { subscribed: boolean }>({
  description: "Stream changes to the caller's to-dos",
  func: async ({ eventHub }, _data, { channel, session }) => {
    if (!channel) return { subscribed: false }
    await eventHub.subscribe(todoTopic(session.userId), channel.channelId)
    channel.send({ subscribed: true })
    return { subscribed: true }
  },
})
// #endregion watchTodos

// #region streamDueToday
type DueEvent = { type: 'due'; todo: Todo } | { type: 'end'; count: number }

/** SSE route: one event per open to-do due today, then an end marker, then the stream closes. */
export const streamDueToday = pikkuFunc<void, DueEvent>({
  description: "Stream the caller's open to-dos that are due today",
  func: async ({ todoStore }, _data, { channel, session }) => {
    const today = new Date().toISOString().slice(0, 10)
    const todos = await todoStore.list(session.userId)
    const due = todos.filter((todo) => !todo.done && todo.dueAt?.startsWith(today))
    if (!channel) {
      // Reached without a stream, for example through an RPC: answer once.
      return { type: 'end', count: due.length }
    }
    for (const todo of due) {
      channel.send({ type: 'due', todo })
    }
    channel.send({ type: 'end', count: due.length })
    channel.close()
    return { type: 'end', count: due.length }
  },
})
// #endregion streamDueToday
