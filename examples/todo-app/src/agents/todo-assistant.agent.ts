import { pikkuAgent } from '#pikku/agent'
import { createTodo, listTodos, updateTodo } from '../functions/todos.functions.js'
import { deleteTodoWithApproval } from './assistant-tools.functions.js'
import { AssistantMemorySchema, DayPlanSchema } from './agent.schemas.js'
import { todayInInstructions, toolAudit } from './agent-middleware.js'

// #region dayPlanner
export const dayPlanner = pikkuAgent({
  name: 'day-planner',
  description: "Orders the user's open to-dos into a plan for today",
  goal: 'List the open to-dos and choose the ones worth doing today, the most urgent first. Judge urgency by due date. Never invent a to-do that listTodos did not return.',
  model: 'openai/gpt-4o-mini',
  tools: [listTodos],
  output: DayPlanSchema,
  maxSteps: 3,
})
// #endregion dayPlanner

// #region todoAssistant
export const todoAssistant = pikkuAgent({
  name: 'todo-assistant',
  description: "Manages the signed-in user's to-dos in plain language",
  role: 'You are the assistant inside a team to-do app.',
  personality: 'Brief and matter-of-fact. After a change, say in one sentence what you changed.',
  goal: 'Help the user list, add, change and delete their own to-dos. When they ask what to do today, ask the day planner.',
  model: 'openai/gpt-4o-mini',
  auth: true,
  tools: [listTodos, createTodo, updateTodo, deleteTodoWithApproval],
  agents: [dayPlanner],
  memory: { lastMessages: 12, workingMemory: AssistantMemorySchema },
  maxSteps: 6,
  agentMiddleware: [todayInInstructions, toolAudit],
})
// #endregion todoAssistant
