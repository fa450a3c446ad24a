import { pikkuMiddleware } from '#pikku/middleware'

/** Logs each call with how long it took, whichever transport it came in on. */
export const requestLogger = pikkuMiddleware(async ({ logger }, { wireType, functionId }, next) => {
  const started = Date.now()
  try {
    await next()
  } finally {
    logger.info(`${wireType ?? 'call'} ${functionId ?? ''} took ${Date.now() - started} ms`)
  }
})
