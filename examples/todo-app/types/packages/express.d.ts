// Typed stand-in for @pikku/express 0.12.14 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/express-server/package.json (exports: "." only)
//   packages/runtimes/express-server/src/index.ts
//   packages/runtimes/express-server/src/pikku-express-server.ts
// Express types come from the installed @types/express (5.x). The `cors` package's option
// types are not installed here, so CorsOptions / CorsOptionsDelegate are minimal
// structural copies of the shapes @types/cors declares.

declare module '@pikku/express' {
  import type { Express } from 'express'
  import type { IncomingHttpHeaders, Server } from 'http'
  import type { CoreConfig } from '@pikku/core/types'
  import type { Logger } from '@pikku/core/services'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'
  import type { LocalContentConfig } from '@pikku/core/services/local-content'

  // --- local structural stand-ins for the `cors` package's types ---
  type CorsStaticOrigin = boolean | string | RegExp | Array<boolean | string | RegExp>
  type CorsCustomOrigin = (
    requestOrigin: string | undefined,
    callback: (err: Error | null, origin?: CorsStaticOrigin) => void,
  ) => void
  interface CorsRequest {
    method?: string | undefined
    headers: IncomingHttpHeaders
  }
  interface CorsOptions {
    origin?: CorsStaticOrigin | CorsCustomOrigin | undefined
    methods?: string | string[] | undefined
    allowedHeaders?: string | string[] | undefined
    exposedHeaders?: string | string[] | undefined
    credentials?: boolean | undefined
    maxAge?: number | undefined
    preflightContinue?: boolean | undefined
    optionsSuccessStatus?: number | undefined
  }
  type CorsOptionsDelegate<T extends CorsRequest = CorsRequest> = (
    req: T,
    callback: (err: Error | null, options?: CorsOptions) => void,
  ) => void

  /** Server-specific configuration settings that extend `CoreConfig` (not exported by the package index). */
  type ExpressCoreConfig = CoreConfig & {
    /** Port to listen on. */
    port: number
    /** Host name to bind to. */
    hostname: string
    /** The path for health checks (optional, default '/health-check'). */
    healthCheckPath?: string
    /** Body-parser limits keyed by parser: json, xml, urlencoded (optional). */
    limits?: Partial<Record<string, string>>
    /** Local content (uploads / signed asset URLs) settings. */
    content?: LocalContentConfig
  }

  export class PikkuExpressServer {
    private readonly config
    private readonly logger
    app: Express
    private server
    constructor(config: ExpressCoreConfig, logger: Logger)
    enableCors(options: CorsOptions | CorsOptionsDelegate): void
    private getContentSigningJWT
    enableStaticAssets(): void
    enableReaper(): void
    init(httpOptions?: RunHTTPWiringOptions): Promise<void>
    start(): Promise<void>
    getHttpServer(): Server
    stop(): Promise<void>
    enableExitOnSigInt(): Promise<void>
  }

  export {}
}
