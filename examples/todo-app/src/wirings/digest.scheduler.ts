import { wireScheduler } from '#pikku/scheduler'
import { dailyDigest } from '../functions/digest.functions.js'

wireScheduler({
  name: 'daily-digest',
  schedule: '0 9 * * *',
  func: dailyDigest,
})
