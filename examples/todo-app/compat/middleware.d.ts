// '@pikku/core/middleware': since 0.12.85 it also owns the middleware factories and types.
export * from '../../../node_modules/@pikku/core/dist/middleware/index.js'
export {
  pikkuAgentMiddleware,
  pikkuChannelMiddleware,
  pikkuChannelMiddlewareFactory,
  pikkuMiddleware,
  pikkuMiddlewareFactory,
} from '../../../node_modules/@pikku/core/dist/index.js'
export type { CorePikkuMiddleware, MiddlewarePriority } from '../../../node_modules/@pikku/core/dist/index.js'
