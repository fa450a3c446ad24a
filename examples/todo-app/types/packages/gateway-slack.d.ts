// Typed stand-in for @pikku/gateway-slack 0.12.7 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/gateways/slack/package.json (exports: "." only)
//   packages/gateways/slack/src/index.ts
//   packages/gateways/slack/src/slack-gateway-adapter.ts, slack-gateway-helper.ts, slack-commands.ts,
//   slack-oauth.ts, slack-signature.ts
// The package's WebClient (from @slack/web-api) is typed as `unknown` here: that dependency is not installed.

declare module '@pikku/gateway-slack' {
  import type {
    GatewayAdapter,
    GatewayInboundMessage,
    GatewayOutboundMessage,
    WebhookVerificationResult,
  } from '@pikku/core/gateway'
  import type { PikkuHTTPRequest } from '@pikku/core/http'

  /** Resolves the bot token of a Slack workspace (team id); null when the app is not installed there. */
  export type TokenResolver = (teamId: string) => Promise<string | null>

  export interface SlackGatewayAdapterOptions {
    /** Called per event with the event's team id. */
    tokenResolver: TokenResolver
    /** The Slack app's signing secret: every request's HMAC signature is checked against it. */
    signingSecret: string
  }

  /** One adapter for every workspace: verifies signatures, parses message and app_mention events. */
  export class SlackGatewayAdapter implements GatewayAdapter {
    name: string
    private options
    private clientCache
    constructor(options: SlackGatewayAdapterOptions)
    private getClient
    invalidateClient(teamId: string): void
    /** Checks the signature (throws UnauthorizedError when it fails), then answers url_verification. */
    verifyWebhook(data: unknown, request?: PikkuHTTPRequest): Promise<WebhookVerificationResult>
    private assertValidSignature
    /** null for anything but a user's message or app_mention (bot messages, edits, deletes, no text). */
    parse(data: unknown): GatewayInboundMessage | null
    /** Does nothing: it has no channel to post to. Reply through createBoundSend or SlackGatewayHelper. */
    send(_senderId: string, _message: GatewayOutboundMessage): Promise<void>
    /** Posts to one channel (and thread) of one workspace with chat.postMessage. */
    createBoundSend(
      teamId: string,
      channelId: string,
      threadTs?: string,
    ): (message: GatewayOutboundMessage) => Promise<void>
    init(_onMessage: (data: unknown) => Promise<void>): Promise<void>
    close(): Promise<void>
    getClientForTeam(teamId: string): Promise<unknown>
  }

  /** The metadata SlackGatewayAdapter.parse puts on a message. */
  export interface SlackMessageMetadata {
    teamId: string
    channelId: string
    threadTs: string
    messageTs: string
    eventType: string
  }

  /** Replies in the channel and thread a parsed Slack message came from. */
  export class SlackGatewayHelper {
    readonly metadata: SlackMessageMetadata
    private sendFn
    constructor(message: GatewayInboundMessage, adapter: SlackGatewayAdapter)
    send(message: GatewayOutboundMessage): Promise<void>
    sendText(text: string): Promise<void>
    reply(text: string): GatewayOutboundMessage
    replyBlocks(blocks: unknown[]): GatewayOutboundMessage
    get channelId(): string
    get threadTs(): string
    get teamId(): string
  }

  export interface SlackSlashCommand {
    token: string
    team_id: string
    team_domain: string
    channel_id: string
    channel_name: string
    user_id: string
    user_name: string
    command: string
    text: string
    response_url: string
    trigger_id: string
  }

  export interface ParsedSlashCommand {
    raw: SlackSlashCommand
    subcommand: string
    args: string
    argsList: string[]
    teamId: string
    userId: string
    channelId: string
    triggerId: string
    responseUrl: string
  }

  export interface SlackCommandResponse {
    response_type?: 'in_channel' | 'ephemeral'
    text?: string
    blocks?: unknown[]
  }

  export function parseSlashCommand(data: unknown): ParsedSlashCommand
  export function respondToSlashCommand(responseUrl: string, response: SlackCommandResponse): Promise<void>

  export interface SlackOAuthResult {
    teamId: string
    teamName: string
    botToken: string
    botUserId: string
    appId: string
    authedUserId: string
    scope: string
  }

  export function exchangeSlackOAuthCode(options: {
    clientId: string
    clientSecret: string
    code: string
    redirectUri?: string
  }): Promise<SlackOAuthResult>
  export function buildSlackInstallUrl(options: {
    clientId: string
    scopes: string[]
    redirectUri?: string
    state?: string
  }): string
  export const RECOMMENDED_BOT_SCOPES: string[]

  /** false for a bad HMAC or a timestamp more than five minutes off. */
  export function verifySlackSignature(signingSecret: string, signature: string, timestamp: string, body: string): boolean
}
