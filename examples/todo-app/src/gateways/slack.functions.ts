import { pikkuSessionlessFunc } from '#pikku/function'
import type { GatewayInboundMessage } from '#pikku/gateway'
import { slackThread } from './slack.adapter.js'

// #region slackMyTodos
/** Answers "todos" in Slack with the sender's open to-dos, in the same thread. */
export const slackMyTodos = pikkuSessionlessFunc<GatewayInboundMessage, void>({
  description: "Reply to a Slack message that asks for to-dos with the sender's open ones",
  func: async ({ todoStore }, message) => {
    // The bot sees every message in its channels: answer only the ones that ask.
    if (!/\btodos?\b/i.test(message.text)) return

    // This team signs in with Slack, so a member's userId is their Slack user id.
    const open = (await todoStore.list(message.senderId)).filter((todo) => !todo.done)
    const lines = open.map((todo) => `• ${todo.title}${todo.dueAt ? ` (due ${todo.dueAt})` : ''}`)
    await slackThread(message).sendText(lines.length ? lines.join('\n') : 'You have no open to-dos.')
  },
})
// #endregion slackMyTodos
