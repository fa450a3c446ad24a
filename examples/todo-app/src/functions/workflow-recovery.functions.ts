import { pikkuVoidFunc } from '#pikku/function'
import { PikkuWorkflowService } from '@pikku/core/workflow'

// #region recoverWorkflowRuns
/**
 * Re-drives workflow runs whose next move was lost: runs that stalled (a worker died mid-run) and steps whose
 * queue message never arrived. The workflow service never does this on its own; a scheduled task calls it.
 */
export const recoverWorkflowRuns = pikkuVoidFunc(async ({ workflowService, logger }) => {
  // The sweeps belong to PikkuWorkflowService, the base class of the bundled stores, not to the interface.
  if (!(workflowService instanceof PikkuWorkflowService)) return
  const { resumed } = await workflowService.recoverStalledRuns()
  const { redispatched } = await workflowService.relayUndispatchedSteps()
  if (resumed.length > 0 || redispatched.length > 0) {
    logger.info(`Workflow recovery: ${resumed.length} runs resumed, ${redispatched.length} steps sent again`)
  }
})
// #endregion recoverWorkflowRuns
