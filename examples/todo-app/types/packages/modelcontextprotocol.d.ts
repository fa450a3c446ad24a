// Typed stand-in for @pikku/modelcontextprotocol 0.12.10 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/modelcontextprotocol/package.json (exports: "." only)
//   packages/runtimes/modelcontextprotocol/src/index.ts
//   packages/runtimes/modelcontextprotocol/src/pikku-mcp-server.ts
// `@modelcontextprotocol/sdk` is not installed here, so Transport is a minimal structural
// stand-in for the SDK's Transport interface (shared/transport.js).

declare module '@pikku/modelcontextprotocol' {
  import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'
  import type { CoreConfig } from '@pikku/core/types'
  import type { Logger } from '@pikku/core/services'

  // --- local structural stand-in for @modelcontextprotocol/sdk's Transport ---
  interface Transport {
    start(): Promise<void>
    send(message: unknown, options?: unknown): Promise<void>
    close(): Promise<void>
    onclose?: () => void
    onerror?: (error: Error) => void
    onmessage?: (message: any, extra?: any) => void
    sessionId?: string
  }

  /** Constructor config (the interface is not exported by the package index). */
  interface MCPServerConfig extends CoreConfig {
    name: string
    version: string
    /** The generated `.pikku/mcp/mcp.gen.json` contents. */
    mcpJSON: any
    capabilities: Partial<{
      logging: {}
      tools: {}
      resources: {}
      prompts: {}
    }>
  }

  /** Options for connectHTTP (the interface is not exported by the package index). */
  interface MCPHttpOptions {
    port?: number
    host?: string
    path?: string
  }

  export class PikkuMCPServer {
    private config
    private logger
    private server
    private mcpEndpointRegistry
    private connected
    constructor(config: MCPServerConfig, logger: Logger)
    init(): Promise<void>
    stop(): Promise<void>
    private createConfiguredServer
    connect(transport: Transport): Promise<void>
    connectStdio(): Promise<void>
    /** Node `http` adapter over createFetchHandler. */
    createHTTPRequestHandler(options?: { path?: string }): {
      handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>
    }
    /** Stateless web-standard handler: a fresh transport and server per request. */
    createFetchHandler(options?: { path?: string }): {
      handler: (request: Request) => Promise<Response>
    }
    connectHTTP(options?: MCPHttpOptions): Promise<{
      httpServer: HttpServer
      close: () => Promise<void>
    }>
    /** A Logger that sends log lines to the MCP client as log messages. */
    createMCPLogger(): Logger
    private createMCPService
    private setupTools
    private setupResources
    private setupPrompts
  }

  export {}
}
