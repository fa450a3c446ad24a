// Typed stand-in for @pikku/uws 0.12.11 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/uws-server/package.json (exports: "." only)
//   packages/runtimes/uws-server/src/index.ts
//   packages/runtimes/uws-server/src/pikku-uws-server.ts
// uWebSockets.js types come from its stand-in in this folder (uWebSockets.js.d.ts). In the
// source `app` is `uWS.App()`, a TemplatedApp.

declare module '@pikku/uws' {
  import type * as uWS from 'uWebSockets.js'
  import type { CoreConfig } from '@pikku/core/types'
  import type { Logger } from '@pikku/core/services'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'

  /** Server configuration (not exported by the package index). */
  type UWSCoreConfig = CoreConfig & {
    /** Port to listen on. */
    port: number
    /** Host name to bind to. */
    hostname: string
    /** The path for health checks (optional, default '/health-check'). */
    healthCheckPath?: string
  }

  export class PikkuUWSServer {
    private readonly config
    private readonly logger
    /** The underlying uWS app. */
    app: uWS.TemplatedApp
    private listenSocket
    constructor(config: UWSCoreConfig, logger: Logger)
    /** Adds the health check route and the Pikku HTTP and websocket handlers on '/*'. */
    init(httpOptions?: RunHTTPWiringOptions): Promise<void>
    start(): Promise<void>
    /** Throws if the server was not started. */
    stop(): Promise<void>
    enableExitOnSigInt(): Promise<void>
  }

  export {}
}
