// Typed stand-in for @pikku/ws 0.12.9 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/ws/package.json (exports: "." only)
//   packages/runtimes/ws/src/index.ts
//   packages/runtimes/ws/src/pikku-ws-server.ts
// WebSocketServer comes from the installed @types/ws.

declare module '@pikku/ws' {
  import type { Server } from 'http'
  import type { WebSocketServer } from 'ws'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'
  import type { Logger } from '@pikku/core/services'

  /**
   * Frame-size ceiling (1024 * 1024 bytes in the source) for every Pikku-owned
   * `WebSocketServer`; pass it as `maxPayload` when you construct your own.
   */
  export const DEFAULT_WS_MAX_PAYLOAD: number

  /** Options for `pikkuWebsocketHandler` (the type is not exported by the package index). */
  type PikkuWSHandlerOptions = {
    server: Server
    wss: WebSocketServer
    logger: Logger
    logRoutes?: boolean
    loadSchemas?: boolean
  } & RunHTTPWiringOptions

  /**
   * Listens for `upgrade` on `server`, opens a Pikku channel for the upgrade request
   * (runLocalChannel) and, when one matches, hands the socket to `wss`.
   */
  export const pikkuWebsocketHandler: (options: PikkuWSHandlerOptions) => void

  export {}
}
