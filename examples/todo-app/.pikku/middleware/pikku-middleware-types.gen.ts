/**
 * Stand-in for .pikku/middleware/pikku-middleware-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/middleware/serialize-middleware-types.ts (cli 0.12.113).
 */
import type { CorePikkuMiddleware, MiddlewarePriority } from '@pikku/core/middleware'
import {
  addGlobalMiddleware as addGlobalMiddlewareCore,
  addTagMiddleware as addTagMiddlewareCore,
  pikkuMiddleware as pikkuMiddlewareCore,
} from '@pikku/core/middleware'
import { addHTTPMiddleware as addHTTPMiddlewareCore } from '@pikku/core/http'
import {
  addChannelMiddleware as addChannelMiddlewareCore,
  type CorePikkuChannelMiddleware,
  type CorePikkuChannelMiddlewareFactory,
} from '@pikku/core/channel'
import type { PikkuAgentMiddlewareHooks } from '@pikku/core/agent'
import type { Services, SingletonServices } from '../function/pikku-function-types.gen.js'
import type { RequiredSingletonServices } from '../pikku-services.gen.js'

export { cors } from '@pikku/core/middleware'
export type { MiddlewarePriority }

type WiredSingletonServices = RequiredSingletonServices & SingletonServices

export type PikkuMiddleware<RequiredServices extends SingletonServices = WiredSingletonServices> =
  CorePikkuMiddleware<RequiredServices>

type PikkuMiddlewareConfig<RequiredServices extends SingletonServices = WiredSingletonServices> = {
  func: PikkuMiddleware<RequiredServices>
  name?: string
  description?: string
  priority?: MiddlewarePriority
}

export const pikkuMiddleware = <RequiredServices extends SingletonServices = WiredSingletonServices>(
  middleware: PikkuMiddleware<RequiredServices> | PikkuMiddlewareConfig<RequiredServices>,
): PikkuMiddleware<RequiredServices> => pikkuMiddlewareCore(middleware as never) as PikkuMiddleware<RequiredServices>

export const pikkuMiddlewareFactory = <In = unknown>(
  factory: (input: In) => PikkuMiddleware,
): ((input: In) => PikkuMiddleware) => factory

export const addGlobalMiddleware = (middleware: PikkuMiddleware[]): void => {
  addGlobalMiddlewareCore(middleware as never)
}

export const addTagMiddleware = (tag: string, middleware: PikkuMiddleware[]): void => {
  addTagMiddlewareCore(tag, middleware as never)
}

export const addHTTPMiddleware = (routeOrMiddleware: PikkuMiddleware[] | string, middleware?: PikkuMiddleware[]): void => {
  addHTTPMiddlewareCore(routeOrMiddleware as never, middleware as never)
}

export type PikkuChannelMiddleware<RequiredServices extends Services = Services, Event = unknown> =
  CorePikkuChannelMiddleware<RequiredServices, Event>

export const pikkuChannelMiddleware = <RequiredServices extends Services = Services, Event = unknown>(
  middleware: PikkuChannelMiddleware<RequiredServices, Event>,
): PikkuChannelMiddleware<RequiredServices, Event> => middleware

export const pikkuChannelMiddlewareFactory = <In = unknown>(
  factory: CorePikkuChannelMiddlewareFactory<In>,
): CorePikkuChannelMiddlewareFactory<In> => factory

export const addChannelMiddleware = (tag: string, middleware: PikkuChannelMiddleware[]) =>
  addChannelMiddlewareCore(tag, middleware as never)

// Agent middleware: hooks around an agent's model calls and tool calls. As generated, the hooks receive the
// singleton services (no session, no wire services).
export const pikkuAgentMiddleware = <
  State extends Record<string, unknown> = Record<string, unknown>,
  RequiredServices extends SingletonServices = WiredSingletonServices,
>(
  hooks: PikkuAgentMiddlewareHooks<State, RequiredServices>,
): PikkuAgentMiddlewareHooks<State, RequiredServices> => hooks
