import { pikkuVoidFunc } from '#pikku/function'

/** The morning digest: runs on a schedule, with no input, no output and no session. */
export const dailyDigest = pikkuVoidFunc(async ({ logger }) => {
  logger.info('Sending the daily digest of open to-dos')
})
