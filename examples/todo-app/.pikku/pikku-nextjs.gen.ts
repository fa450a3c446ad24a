// Stand-in for the server-only module `pikku all` (or `pikku nextjs`) writes to clientFiles.nextBackendFile,
// here set to ".pikku/pikku-nextjs.gen.ts" as on the Next.js runtime page. Modelled on
// packages/cli/src/functions/runtimes/nextjs/serialize-nextjs-backend-wrapper.ts (cli 0.12.113), which
// generates `pikku()`, `pikkuAPIRequest` and `removeAPIPrefix` with exactly these signatures.
// Differences: the generated module imports PikkuNextJS from @pikku/next and NextRequest from next/server.js,
// neither installed here, so the functions are declared rather than implemented, and `req` is typed with
// the Web `Request` that NextRequest extends.
import type { HTTPWiringsMap, HTTPWiringsWithMethod, HTTPWiringHandlerOf } from './http/pikku-http-wirings-map.gen.js'
import type { FlattenedRPCMap } from './rpc/pikku-rpc-wirings-map.gen.js'

type RouteContext = { params: Promise<Record<string, string | string[]>> }

type Input<Route, Method extends string> = Route extends keyof HTTPWiringsMap
  ? Method extends keyof HTTPWiringsMap[Route]
    ? HTTPWiringHandlerOf<Route, Method>['input']
    : never
  : never
type Output<Route, Method extends string> = Route extends keyof HTTPWiringsMap
  ? Method extends keyof HTTPWiringsMap[Route]
    ? HTTPWiringHandlerOf<Route, Method>['output']
    : never
  : never
type DataArgs<Route, Method extends string> =
  Input<Route, Method> extends null | undefined
    ? [data?: Input<Route, Method>]
    : [data: NonNullable<Input<Route, Method>>]

type Helpers = {
  rpc: <Name extends keyof FlattenedRPCMap>(rpcName: Name, data: FlattenedRPCMap[Name]['input']) => Promise<FlattenedRPCMap[Name]['output']>
  get: <Route extends HTTPWiringsWithMethod<'GET'>>(route: Route, ...args: DataArgs<Route, 'GET'>) => Promise<Output<Route, 'GET'>>
  post: <Route extends HTTPWiringsWithMethod<'POST'>>(route: Route, ...args: DataArgs<Route, 'POST'>) => Promise<Output<Route, 'POST'>>
  patch: <Route extends HTTPWiringsWithMethod<'PATCH'>>(route: Route, ...args: DataArgs<Route, 'PATCH'>) => Promise<Output<Route, 'PATCH'>>
  del: <Route extends HTTPWiringsWithMethod<'DELETE'>>(route: Route, ...args: DataArgs<Route, 'DELETE'>) => Promise<Output<Route, 'DELETE'>>
  staticGet: <Route extends HTTPWiringsWithMethod<'GET'>>(route: Route, ...args: DataArgs<Route, 'GET'>) => Promise<Output<Route, 'GET'>>
  staticPost: <Route extends HTTPWiringsWithMethod<'POST'>>(route: Route, ...args: DataArgs<Route, 'POST'>) => Promise<Output<Route, 'POST'>>
  staticRPC: <Name extends keyof FlattenedRPCMap>(rpcName: Name, data: FlattenedRPCMap[Name]['input']) => Promise<FlattenedRPCMap[Name]['output']>
}

/** When true (the default), a leading /api is removed from the path before routes are matched. */
export declare const removeAPIPrefix: (enable: boolean) => void

/** In-process helpers for server components and server actions. */
export declare const pikku: (_options?: any) => Helpers

/** App Router route handler: export it as GET, POST, PUT, PATCH and DELETE. */
export declare const pikkuAPIRequest: (req: Request, context: RouteContext) => Promise<Response>

