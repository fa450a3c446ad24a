// Typed stand-in for @pikku/express-middleware 0.12.8 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/express-middleware/package.json (exports: "." only)
//   packages/runtimes/express-middleware/src/index.ts
//   packages/runtimes/express-middleware/src/pikku-express-middleware.ts
//   packages/runtimes/express-middleware/src/express-pikku-http-request.ts
//   packages/runtimes/express-middleware/src/express-pikku-http-response.ts
// Express types come from the installed @types/express (5.x).

declare module '@pikku/express-middleware' {
  import type { RequestHandler, Request as ExpressRequest, Response as ExpressResponse } from 'express'
  import type { SerializeOptions } from 'cookie'
  import type { Logger } from '@pikku/core/services'
  import type {
    RunHTTPWiringOptions,
    PikkuHTTPRequest,
    PikkuHTTPResponse,
    HTTPMethod,
    PikkuQuery,
  } from '@pikku/core/http'

  /** Arguments for configuring the Pikku middleware (not exported by the package). */
  type PikkuMiddlewareArgs = RunHTTPWiringOptions & {
    logger: Logger
    logRoutes?: boolean
    loadSchemas?: boolean
    coerceDataFromSchema?: boolean
  }

  /** Creates Express middleware that hands each request to Pikku's HTTP runner. */
  export const pikkuExpressMiddleware: (options: PikkuMiddlewareArgs) => RequestHandler

  type ExpressPikkuHTTPRequestOptions = Partial<{
    /** Body size limit in bytes (default: core's DEFAULT_MAX_BODY_SIZE). */
    maxBodySize: number
  }>

  export class ExpressPikkuHTTPRequest<In = unknown> implements PikkuHTTPRequest<In> {
    #private
    private req
    constructor(req: ExpressRequest, options?: ExpressPikkuHTTPRequestOptions)
    method(): HTTPMethod
    path(): string
    json(): Promise<unknown>
    arrayBuffer(): Promise<ArrayBuffer>
    headers(): Record<string, string>
    header(name: string): string | null
    cookie(name: string): string | null
    params(): Partial<Record<string, string | string[]>>
    setParams(params: Record<string, string | string[] | undefined>): void
    query(): PikkuQuery
    data(): Promise<In>
    private parseBody
  }

  export class ExpressPikkuHTTPResponse implements PikkuHTTPResponse {
    #private
    private res
    constructor(res: ExpressResponse)
    get statusCode(): number
    status(code: number): this
    header(name: string, value: string | string[]): this
    cookie(name: string, value: string | null, options: SerializeOptions): this
    json(data: unknown): this
    send(data: any): this
    arrayBuffer(data: any): this
    redirect(location: string, status?: number): this
    close(): void
    setMode(_mode: 'stream'): void
    get isStreaming(): boolean
    flush(): void
  }

  export {}
}
