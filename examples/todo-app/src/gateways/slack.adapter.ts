// The app's one Slack adapter, shared by the gateway wiring (which receives events through it) and the
// handler (which replies through it).
import { SlackGatewayAdapter, SlackGatewayHelper } from '@pikku/gateway-slack'
import type { GatewayAdapterFactory } from '@pikku/core/gateway'
import type { SecretService } from '@pikku/core/services'
import type { GatewayInboundMessage } from '#pikku/gateway'
import type { SingletonServices } from '../application-types.js'

let adapter: SlackGatewayAdapter | undefined

// #region slackConnection
/** The app's `slack` singleton service: builds the adapter from the secrets on first use, then hands back the same one. */
export interface SlackConnection {
  adapter(): Promise<SlackGatewayAdapter>
}

/**
 * Called by the services factory, which may read secrets. The gateway's adapter factory may not: it runs inside the
 * gateway's function, where reading `secrets` throws SecretAccessDeniedError (core 0.12.90).
 */
export const createSlackConnection = (secrets: SecretService): SlackConnection => {
  let building: Promise<SlackGatewayAdapter> | undefined
  return {
    adapter: () =>
      (building ??= (async () => {
        const signingSecret = await secrets.getSecret('SLACK_SIGNING_SECRET')
        adapter = new SlackGatewayAdapter({
          signingSecret: signingSecret.reveal(),
          // The app is installed in one workspace, so every team id gets the same bot token.
          tokenResolver: async () => (await secrets.getSecret('SLACK_BOT_TOKEN')).reveal(),
        })
        return adapter
      })()),
  }
}
// #endregion slackConnection

// #region slackAdapter
/**
 * The gateway's adapter, asked of the `slack` service on the gateway's first request. It is typed with core's
 * GatewayAdapterFactory, whose `services` are core's CoreSingletonServices: wireGateway's `adapter` option takes
 * that type, and at CLI 0.12.113 the generated PikkuGatewayAdapterFactory is rejected there by tsc. At run time the
 * factory receives the app's services, so it reads them as SingletonServices.
 */
export const slackAdapter: GatewayAdapterFactory = (services) => (services as SingletonServices).slack.adapter()
// #endregion slackAdapter

// #region slackThread
/** Replies in the channel and thread a message came from. The adapter's own send() posts nothing. */
export const slackThread = (message: GatewayInboundMessage): SlackGatewayHelper => {
  if (!adapter) throw new Error('No Slack adapter yet: it is built on the gateway\'s first request')
  return new SlackGatewayHelper(message, adapter)
}
// #endregion slackThread
