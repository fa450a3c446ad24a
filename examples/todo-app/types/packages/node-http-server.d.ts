// Typed stand-in for @pikku/node-http-server 0.12.11 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/node-http-server/package.json (exports: "." only)
//   packages/runtimes/node-http-server/src/index.ts
//   packages/runtimes/node-http-server/src/pikku-node-http-server.ts
//   packages/runtimes/node-http-server/src/request-converter.ts
//   packages/runtimes/node-http-server/src/response-writer.ts

declare module '@pikku/node-http-server' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http'
  import type { CoreConfig } from '@pikku/core/types'
  import type { LocalContentConfig } from '@pikku/core/services/local-content'
  import type { JWTService, Logger } from '@pikku/core/services'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'

  export type StaticMount = {
    urlPrefix: string
    directory: string
    spaFallback?: boolean
  }
  export type NodeHTTPServerConfig = CoreConfig & {
    port: number
    hostname: string
    content?: LocalContentConfig
    staticMounts?: StaticMount[]
    healthCheckPath?: string
    /** ms to receive request headers (default 30000) */
    headersTimeout?: number
    /** ms to receive the whole request (default 30000) */
    requestTimeout?: number
    /** ms an idle keep-alive socket is kept (default 65000) */
    keepAliveTimeout?: number
    /** requests one socket may serve before it is closed (default 1000) */
    maxRequestsPerSocket?: number
    /** ms stop() waits for in-flight requests before closing them (default 10000) */
    shutdownGracePeriodMs?: number
  }
  export type PikkuNodeHTTPServerOptions = {
    /** Called once in init() with the http.Server, e.g. to attach websocket upgrades. */
    configureServer?: (server: Server) => void | Promise<void>
    /** The parsed `.pikku/mcp/mcp.gen.json`; when non-empty an MCP endpoint is mounted at mcpPath. */
    mcpJson?: {
      tools?: unknown[]
      resources?: unknown[]
      prompts?: unknown[]
    }
    /** Default '/mcp'. */
    mcpPath?: string
    /** Mount POST /__pikku/queue-job and /__pikku/scheduler-job (off by default). */
    dispatchJobs?: boolean
    /** Secret expected in the x-pikku-dispatch header; without it every dispatch call is refused. */
    dispatchSecret?: string
    /** JWTService that verifies signed content URLs; defaults to singletonServices.jwt. */
    contentSigningJWT?: JWTService
  } & RunHTTPWiringOptions
  /** HTTP server on plain node:http with the same shape as PikkuUWSServer. */
  export class PikkuNodeHTTPServer {
    private readonly config
    private readonly logger
    private readonly options
    server: Server
    private listening
    private loggedMissingContentSigningJWT
    private shutdownGracePeriodMs
    private mcpPath
    private mcpHandler?
    constructor(config: NodeHTTPServerConfig, logger: Logger, options?: PikkuNodeHTTPServerOptions)
    init(): Promise<void>
    private initMCP
    private matchesMcpPath
    private isDispatchAuthorized
    private handleDispatchJob
    private handleRequest
    private handleContentRequest
    private handleStaticMountRequest
    private serveStaticFile
    private getRequestUrl
    private matchesPrefix
    private toTargetPath
    private contentKey
    private handleContentUpload
    private handleContentAsset
    private validateSignedAssetRequest
    private getContentSigningJWTService
    private readRequestBody
    private parseSizeLimit
    start(): Promise<void>
    stop(): Promise<void>
    enableExitOnSignals(): void
  }

  export function incomingMessageToRequest(req: IncomingMessage): Request

  export function writeResponse(nodeRes: ServerResponse, webResponse: Response): Promise<void>

  export {}
}
