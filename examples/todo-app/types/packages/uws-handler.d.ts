// Typed stand-in for @pikku/uws-handler 0.12.9 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/uws-handler/package.json (exports: "." only)
//   packages/runtimes/uws-handler/src/index.ts
//   packages/runtimes/uws-handler/src/pikku-uws-http-handler.ts
//   packages/runtimes/uws-handler/src/pikku-uws-websocket-handler.ts
// uWebSockets.js types come from its stand-in in this folder (uWebSockets.js.d.ts), imported
// as the source imports them.

declare module '@pikku/uws-handler' {
  import type * as uWS from 'uWebSockets.js'
  import type { Logger } from '@pikku/core/services'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'
  import type { PikkuLocalChannelHandler } from '@pikku/core/channel/local'

  /** Options shared by both handlers (the type is not exported by the package index). */
  type PikkuuWSHandlerOptions = {
    logger: Logger
    logRoutes?: boolean
    loadSchemas?: boolean
  } & RunHTTPWiringOptions

  /** Returns a uWS route handler (`app.any('/*', ...)`) that runs Pikku's HTTP wirings. */
  export const pikkuHTTPHandler: (options: PikkuuWSHandlerOptions) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => void

  /** Returns a uWS WebSocketBehavior (`app.ws('/*', ...)`) that runs Pikku channels. */
  export const pikkuWebsocketHandler: (
    options: PikkuuWSHandlerOptions,
  ) => uWS.WebSocketBehavior<{ channelHandler: PikkuLocalChannelHandler }>

  export {}
}
