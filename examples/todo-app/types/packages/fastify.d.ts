// Typed stand-in for @pikku/fastify 0.12.9 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/fastify-server/package.json (exports: "." only)
//   packages/runtimes/fastify-server/src/index.ts
//   packages/runtimes/fastify-server/src/pikku-fastify-server.ts
// Fastify types come from the installed `fastify` (5.x). In the source `app` is
// `Fastify({})`, whose type (default http server overload) is
// FastifyInstance & SafePromiseLike<FastifyInstance>.

declare module '@pikku/fastify' {
  import type { FastifyInstance, SafePromiseLike } from 'fastify'
  import type { CoreConfig } from '@pikku/core/types'
  import type { Logger } from '@pikku/core/services'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'

  /** Server configuration (not exported by the package index). */
  type FastifyCoreConfig = CoreConfig & {
    /** Port to listen on. */
    port: number
    /** Host name to bind to. */
    hostname: string
    /** The path for health checks (optional, default '/health-check'). */
    healthCheckPath?: string
  }

  export class PikkuFastifyServer {
    private readonly config
    private readonly logger
    /** The underlying Fastify app. */
    app: FastifyInstance & SafePromiseLike<FastifyInstance>
    constructor(config: FastifyCoreConfig, logger: Logger)
    /** Not implemented at HEAD: always throws 'Method not implemented.' */
    enableCors(_options: any): void
    /** Registers the health check route and the Pikku Fastify plugin. */
    init(httpOptions?: RunHTTPWiringOptions): Promise<void>
    start(): Promise<void>
    stop(): Promise<void>
    enableExitOnSigInt(): Promise<void>
  }

  export {}
}
