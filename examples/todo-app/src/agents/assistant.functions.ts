import { pikkuFunc } from '#pikku/function'
import { DayPlanSchema, type DayPlan } from './agent.schemas.js'

// #region turnTypes
/** A tool call the agent made that waits for the user's yes or no. */
export type PendingApproval = {
  toolCallId: string
  toolName: string
  args: unknown
  reason?: string
  runId: string
}

/**
 * What rpc.agent.run and rpc.agent.approve resolve to for the assistant. The generated type of run declares
 * runId, result and usage; a run that stopped to wait for approval also carries status and pendingApprovals.
 */
type AssistantRun = {
  runId: string
  result: string
  status?: 'completed' | 'suspended'
  pendingApprovals?: PendingApproval[]
}

/**
 * What the app's clients get back from one turn with the assistant. The functions below declare their output as
 * `Readonly<AssistantTurn>`: at CLI 0.12.113 a bare named type as a whole input or output is reported as PKU463 on
 * a clean .pikku/ even when it is exported and its schema is written, while a wrapped one is named after the
 * function and is not reported.
 */
export type AssistantTurn = {
  runId: string
  reply: string
  pendingApprovals: PendingApproval[]
}
// #endregion turnTypes

// #region askAssistant
export const askAssistant = pikkuFunc<{ message: string; threadId: string }, Readonly<AssistantTurn>>({
  description: 'Send one message to the to-do assistant and wait for its answer',
  func: async (_services, { message, threadId }, { rpc, session }) => {
    const run: AssistantRun = await rpc.agent.run('todoAssistant', { message, threadId, resourceId: session.userId })
    return { runId: run.runId, reply: run.result, pendingApprovals: run.pendingApprovals ?? [] }
  },
})
// #endregion askAssistant

// #region answerApproval
export const answerApproval = pikkuFunc<{ runId: string; toolCallId: string; approved: boolean }, Readonly<AssistantTurn>>({
  description: 'Approve or decline a tool call the assistant is waiting on, and continue the run',
  func: async (_services, { runId, toolCallId, approved }, { rpc }) => {
    const run: AssistantRun = await rpc.agent.approve(runId, [{ toolCallId, approved }], 'todoAssistant')
    return { runId: run.runId, reply: run.result, pendingApprovals: run.pendingApprovals ?? [] }
  },
})
// #endregion answerApproval

// #region streamAssistant
export const streamAssistant = pikkuFunc<{ message: string; threadId: string }, void>({
  description: 'Send one message to the to-do assistant and stream its answer as server-sent events',
  func: async (_services, { message, threadId }, { rpc, session }) => {
    await rpc.agent.stream('todoAssistant', { message, threadId, resourceId: session.userId })
  },
})
// #endregion streamAssistant

// #region resumeAssistant
export const resumeAssistant = pikkuFunc<{ runId: string; toolCallId: string; approved: boolean }, void>({
  description: 'Answer an approval request from a streamed run and stream the rest of the answer',
  func: async (_services, { runId, toolCallId, approved }, { rpc }) => {
    await rpc.agent.resume(runId, { toolCallId, approved })
  },
})
// #endregion resumeAssistant

// #region planMyDay
export const planMyDay = pikkuFunc<void, DayPlan>({
  description: "Ask the day planner for today's plan, as structured data the app can render",
  func: async (_services, _data, { rpc, session }) => {
    const { result } = await rpc.agent.run('dayPlanner', {
      message: 'Plan my day.',
      threadId: crypto.randomUUID(),
      resourceId: session.userId,
    })
    // @pikku/ai-vercel 0.12.13 asks the model for a structured object only when the agent has no tools. The day
    // planner has one, so the result arrives as the model's text, a JSON string: parse and validate it here.
    const plan: unknown = result
    return typeof plan === 'string' ? DayPlanSchema.parse(JSON.parse(plan)) : result
  },
})
// #endregion planMyDay
