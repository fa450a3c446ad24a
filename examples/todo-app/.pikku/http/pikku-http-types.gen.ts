/**
 * Stand-in for .pikku/http/pikku-http-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/http/serialize-http-types.ts (cli 0.12.113).
 */
import {
  defineHTTPRoutes as defineHTTPRoutesCore,
  wireHTTP as wireHTTPCore,
  wireHTTPRoutes as wireHTTPRoutesCore,
} from '@pikku/core/http'
import type {
  AssertHTTPWiringParams,
  CoreHTTPFunctionWiring,
  HTTPMethod,
  HTTPRouteBaseConfig,
} from '@pikku/core/http'
import type { PikkuFunction, PikkuFunctionConfig, PikkuFunctionSessionless } from '../function/pikku-function-types.gen.js'
import type { PikkuPermission } from '../auth/pikku-auth-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'

type HTTPWiring<In, Out, Route extends string> = CoreHTTPFunctionWiring<
  In,
  Out,
  Route,
  PikkuFunction<In, Out, 'rpc' | 'session'>,
  PikkuFunctionSessionless<In, Out, 'rpc' | 'session'>,
  PikkuPermission<In>,
  PikkuMiddleware
>

/** Wires a function to one HTTP route. Every `:param` in the route must be a field of the function's input. */
export const wireHTTP = <In, Out, Route extends string>(
  httpWiring: HTTPWiring<In, Out, Route> & AssertHTTPWiringParams<In, Route>,
): void => {
  wireHTTPCore(httpWiring as never)
}

type HTTPRouteConfig = HTTPRouteBaseConfig & {
  method: HTTPMethod
  route: string
  func: PikkuFunctionConfig<any, any, any, any, any, any>
  auth?: boolean
  middleware?: PikkuMiddleware[]
  sse?: boolean
}

type TypedHTTPRouteMap = {
  [key: string]: HTTPRouteConfig | TypedHTTPRouteMap | TypedHTTPRouteContract
}

type TypedHTTPRoutesGroupConfig = {
  basePath?: string
  tags?: string[]
  auth?: boolean
  middleware?: PikkuMiddleware[]
}

type TypedHTTPRouteContract<T extends TypedHTTPRouteMap = TypedHTTPRouteMap> = TypedHTTPRoutesGroupConfig & {
  routes: T
}

type TypedWireHTTPRoutesConfig = TypedHTTPRoutesGroupConfig & {
  routes: TypedHTTPRouteMap | HTTPRouteConfig[]
}

export function defineHTTPRoutes<T extends TypedHTTPRouteMap>(routes: T): TypedHTTPRouteContract<T>
export function defineHTTPRoutes<T extends TypedHTTPRouteMap>(
  config: TypedHTTPRoutesGroupConfig & { routes: T },
): TypedHTTPRouteContract<T>
export function defineHTTPRoutes<T extends TypedHTTPRouteMap>(
  configOrRoutes: T | (TypedHTTPRoutesGroupConfig & { routes: T }),
): TypedHTTPRouteContract<T> {
  return defineHTTPRoutesCore(configOrRoutes as never) as unknown as TypedHTTPRouteContract<T>
}

export const wireHTTPRoutes = (config: TypedWireHTTPRoutesConfig): void => {
  wireHTTPRoutesCore(config as never)
}
