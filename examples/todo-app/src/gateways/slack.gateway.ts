import { wireGateway } from '#pikku/gateway'
import { slackAdapter } from './slack.adapter.js'
import { slackMyTodos } from './slack.functions.js'

// Slack POSTs events to this route; the adapter checks each request's signature before slackMyTodos runs.
wireGateway({
  name: 'slack',
  type: 'webhook',
  route: '/webhooks/slack',
  description: 'Slack events: members ask the bot for their open to-dos',
  adapter: slackAdapter,
  func: slackMyTodos,
})
