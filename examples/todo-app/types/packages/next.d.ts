// PARTIAL typed stand-in for @pikku/next 0.12.10 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/runtimes/next/package.json (exports: ".", "./pikku-next-request", "./pikku-session")
//   packages/runtimes/next/src/index.ts
//   packages/runtimes/next/src/pikku-next.ts
//   packages/runtimes/next/src/pikku-next-worker-rpc.ts
//   packages/runtimes/next/src/pikku-session.ts
// Left out (see the stand-in report): `toNextJsAuthHandler` and `nextCookies`, which the
// index re-exports from src/better-auth.ts and which are typed over `better-auth` and
// @pikku/better-auth (neither installed here); and "./pikku-next-request", an exports
// entry with no matching source file (src/pikku-next-request.ts does not exist at HEAD).

declare module '@pikku/next/pikku-session' {
  import type { CoreSingletonServices, CoreUserSession } from '@pikku/core/types'
  import type { CorePikkuMiddleware } from '@pikku/core/middleware'

  /**
   * Runs the given middleware against a Next.js request (any NextRequest version is
   * accepted) and returns the session it set, if any.
   */
  export const getSession: <UserSession extends CoreUserSession>(
    nextRequest: Request,
    singletonServices: CoreSingletonServices,
    middleware: CorePikkuMiddleware<CoreSingletonServices, UserSession>[],
  ) => Promise<UserSession | undefined>

  export {}
}

declare module '@pikku/next' {
  import type { CoreConfig, CoreSingletonServices, CreateConfig } from '@pikku/core/types'
  import type { RunHTTPWiringOptions } from '@pikku/core/http'

  /** Runs Pikku functions inside a Next.js server: API routes, actions and SSR calls. */
  export class PikkuNextJS<
    C extends CoreConfig = CoreConfig,
    S extends CoreSingletonServices<C> = CoreSingletonServices<C>,
  > {
    private readonly createConfig
    private readonly createSingletonServices
    private singletonServices
    private singletonServicesPromise
    constructor(createConfig: CreateConfig<C> | undefined, createSingletonServices: (config: C) => Promise<S>)
    actionRequest<In extends Record<string, any>, Out>(route: unknown, method: unknown, data: In): Promise<Out>
    /** Like actionRequest, but skips the user session. */
    staticActionRequest<In extends Record<string, any>, Out>(route: unknown, method: unknown, data: In): Promise<Out>
    /** For an App Router route handler; `maxBodySize` is enforced before the body is buffered. */
    apiRequest(req: Request, options?: RunHTTPWiringOptions): Promise<Response>
    private getSingletonServices
  }

  export type Fetcher = {
    fetch(req: Request): Promise<Response>
  }

  /** Same surface as PikkuNextJS, but every call is sent through `fetcher` instead of running in-process. */
  export class PikkuNextJSWorkerRPC {
    private readonly options
    constructor(options: { fetcher: Fetcher })
    actionRequest<In extends Record<string, any>, Out>(route: unknown, method: unknown, data: In): Promise<Out>
    staticActionRequest<In extends Record<string, any>, Out>(route: unknown, method: unknown, data: In): Promise<Out>
    apiRequest(req: Request): Promise<Response>
  }

  export {}
}
