import { pikkuFunc } from '#pikku/function'
import { NotFoundError } from '#pikku/error'
import { assertWorkflowRunOwner } from '@pikku/core/workflow'
import type { WorkflowStatus } from '@pikku/core/workflow'
import { isTodoOwner } from '../permissions.js'

// #region startTodoReminder
/** Starts the reminder workflow for one of the caller's to-dos and hands back the run id. */
export const startTodoReminder = pikkuFunc<{ todoId: string }, { runId: string }>({
  description: 'Start the remind-then-escalate workflow for a to-do',
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore, workflowService }, { todoId }, { rpc, session }) => {
    const todo = await todoStore.get(todoId)
    if (!todo) throw new NotFoundError(`No to-do with id ${todoId}`)
    // The run records the caller's user id as its owner: only they may read it later. The id is passed in the
    // run's wire here because rpc.startWorkflow, called from an HTTP route, records none (core 0.12.90).
    return await workflowService.startWorkflow(
      'todoReminderWorkflow',
      { todoId },
      { type: 'http', id: 'startTodoReminder', pikkuUserId: session.userId },
      rpc,
    )
  },
})
// #endregion startTodoReminder

// #region getReminderRun
/** Where a reminder run has got to: its status and the name and status of each step so far. */
export const getReminderRun = pikkuFunc<
  { runId: string },
  { status: WorkflowStatus; steps: Array<{ name: string; status: string }> }
>({
  description: 'Read the progress of a reminder workflow run',
  readonly: true,
  errors: [NotFoundError],
  func: async ({ workflowService }, { runId }, { session }) => {
    const run = await workflowService.getRun(runId)
    if (!run || run.workflow !== 'todoReminderWorkflow') throw new NotFoundError(`No reminder run ${runId}`)
    // Throws WorkflowRunForbiddenError (403) unless the caller started this run.
    assertWorkflowRunOwner(run.wire, session)
    const runStatus = await workflowService.getRunStatus(runId)
    if (!runStatus) throw new NotFoundError(`No reminder run ${runId}`)
    return {
      status: runStatus.status,
      steps: runStatus.steps.map(({ name, status }) => ({ name, status })),
    }
  },
})
// #endregion getReminderRun
