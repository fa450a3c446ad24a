// Typed stand-in for @pikku/fastify-plugin 0.12.8 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/fastify-plugin/package.json (exports: "." only)
//   packages/runtimes/fastify-plugin/src/index.ts
//   packages/runtimes/fastify-plugin/src/pikku-fastify-plugin.ts
//   packages/runtimes/fastify-plugin/src/fastify-pikku-http-request.ts
//   packages/runtimes/fastify-plugin/src/fastify-pikku-http-response.ts
// Fastify types come from the installed `fastify` (5.x, a devDependency of the site). The
// default export is what `fp(pikkuPlugin, '5.x')` returns: fastify-plugin's `fp` hands back
// the plugin's own type, FastifyPluginAsync<PikkuFastifyPluginOptions>.

declare module '@pikku/fastify-plugin' {
  import type { FastifyRequest, FastifyReply, FastifyPluginAsync } from 'fastify'
  import type { SerializeOptions } from 'cookie'
  import type { Logger } from '@pikku/core/services'
  import type {
    RunHTTPWiringOptions,
    PikkuHTTPRequest,
    PikkuHTTPResponse,
    HTTPMethod,
    PikkuQuery,
  } from '@pikku/core/http'

  /** The plugin's options, all under `pikku` (the type is not exported by the package index). */
  type PikkuFastifyPluginOptions = {
    pikku: {
      logger: Logger
      logRoutes?: boolean
      loadSchemas?: boolean
    } & RunHTTPWiringOptions
  }

  /**
   * Fastify plugin that routes every request (`/*`, all methods) through Pikku's
   * HTTP runner. Register it with `app.register(pikkuFastifyPlugin, { pikku: { ... } })`.
   */
  const pikkuFastifyPlugin: FastifyPluginAsync<PikkuFastifyPluginOptions>
  export default pikkuFastifyPlugin

  type FastifyPikkuHTTPRequestOptions = Partial<{
    /** Body size limit in bytes (default: core's DEFAULT_MAX_BODY_SIZE). */
    maxBodySize: number
  }>

  export class FastifyPikkuHTTPRequest<In = unknown> implements PikkuHTTPRequest<In> {
    #private
    private req
    constructor(req: FastifyRequest, options?: FastifyPikkuHTTPRequestOptions)
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

  export class FastifyPikkuHTTPResponse implements PikkuHTTPResponse {
    #private
    private reply
    constructor(reply: FastifyReply)
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
