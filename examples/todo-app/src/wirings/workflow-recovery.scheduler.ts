import { wireScheduler } from '#pikku/scheduler'
import { recoverWorkflowRuns } from '../functions/workflow-recovery.functions.js'

// Every five minutes: a run counts as stalled after five idle minutes by default.
wireScheduler({
  name: 'workflow-recovery',
  schedule: '*/5 * * * *',
  func: recoverWorkflowRuns,
})
