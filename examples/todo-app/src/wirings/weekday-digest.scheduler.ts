import { wireScheduler } from '#pikku/scheduler'
import { weekdayDigest } from '../functions/weekday-digest.functions.js'

// Every day at 08:30; the function itself skips the weekend runs.
wireScheduler({
  name: 'weekday-digest',
  schedule: '30 8 * * *',
  func: weekdayDigest,
})
