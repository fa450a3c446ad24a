import { pikkuFunc } from '#pikku/function'
import { NotFoundError } from '#pikku/error'
import { isTodoOwner } from '../permissions.js'

// #region announceTodo
/** Tells the team chat that a to-do is done, through the chat addon installed as 'chat'. */
export const announceTodo = pikkuFunc<{ todoId: string }, { posted: boolean }>({
  description: 'Announce a finished to-do in the team chat',
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore }, { todoId }, { rpc }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    if (!todo.done) return { posted: false }
    // A namespaced name runs the addon's function, with the addon's own services.
    const { posted } = await rpc.invoke('chat:postToChat', { text: `Done: ${todo.title}` })
    return { posted }
  },
})
// #endregion announceTodo
