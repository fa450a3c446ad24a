// The app's one Slack adapter, shared by the gateway wiring (which receives events through it) and the
// handler (which replies through it).
import { SlackGatewayAdapter, SlackGatewayHelper } from '@pikku/gateway-slack'
import type { GatewayAdapterFactory } from '@pikku/core/gateway'
import type { GatewayInboundMessage } from '#pikku/gateway'

let adapter: SlackGatewayAdapter | undefined

// #region slackAdapter
/**
 * Builds the adapter on the gateway's first request, from the app's secrets. It is typed with core's
 * GatewayAdapterFactory, which is handed the core singleton services (secrets among them): wireGateway's
 * `adapter` option takes that type, and at CLI 0.12.113 the generated PikkuGatewayAdapterFactory (handed the
 * app's own SingletonServices) is rejected there by tsc.
 */
export const slackAdapter: GatewayAdapterFactory = async ({ secrets }) => {
  const signingSecret = await secrets.getSecret('SLACK_SIGNING_SECRET')
  adapter ??= new SlackGatewayAdapter({
    signingSecret: signingSecret.reveal(),
    // The app is installed in one workspace, so every team id gets the same bot token.
    tokenResolver: async () => (await secrets.getSecret('SLACK_BOT_TOKEN')).reveal(),
  })
  return adapter
}
// #endregion slackAdapter

// #region slackThread
/** Replies in the channel and thread a message came from. The adapter's own send() posts nothing. */
export const slackThread = (message: GatewayInboundMessage): SlackGatewayHelper => {
  if (!adapter) throw new Error('No Slack adapter yet: it is built on the gateway\'s first request')
  return new SlackGatewayHelper(message, adapter)
}
// #endregion slackThread
