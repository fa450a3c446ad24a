import { pikkuVoidFunc } from '#pikku/function'

/** The digest's weekday variant: on Saturdays and Sundays (UTC) the run is skipped, and the logs say why. */
export const weekdayDigest = pikkuVoidFunc(async ({ logger }, _input, { scheduledTask }) => {
  const day = scheduledTask?.executionTime.getUTCDay()
  if (day === 0 || day === 6) {
    // Throws, so the line below does not run.
    scheduledTask?.skip('no digest at weekends')
  }
  logger.info(`Sending the weekday digest (task ${scheduledTask?.name}, schedule ${scheduledTask?.schedule})`)
})
