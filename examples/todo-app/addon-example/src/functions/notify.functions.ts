import { pikkuSessionlessFunc } from '#pikku/addon/function'

// #region postToChat
/** Installed under a namespace, this is called as '<namespace>:postToChat'. */
export const postToChat = pikkuSessionlessFunc<{ text: string }, { posted: true }>({
  description: 'Post a message to the team chat',
  func: async ({ chat, logger }, { text }) => {
    await chat.post(text)
    logger.info('Posted a message to the team chat')
    return { posted: true }
  },
})
// #endregion postToChat
