import { pikkuMiddlewareFactory, pikkuMiddleware } from '#pikku/middleware'

/** Warns about any call slower than the threshold it is built with. */
export const slowCallWarning = pikkuMiddlewareFactory<{ thresholdMs: number }>(({ thresholdMs }) =>
  pikkuMiddleware(async ({ logger }, { wireType, functionId }, next) => {
    const started = Date.now()
    await next()
    const took = Date.now() - started
    if (took > thresholdMs) {
      logger.warn(`slow ${wireType ?? 'call'} to ${functionId ?? 'a function'}: ${took} ms`)
    }
  }),
)
