import { z } from 'zod'

// Schemas live in a file of their own: the CLI imports schema files when it builds JSON schemas, and a file that
// also holds wiring calls stops code generation (PKU490).

// #region DayPlanSchema
/** What the day planner returns: the to-dos worth doing today, in order, and why. */
export const DayPlanSchema = z.object({
  summary: z.string().describe('One or two sentences about the day ahead'),
  steps: z.array(
    z.object({
      todoId: z.string(),
      title: z.string(),
      reason: z.string().describe('Why this to-do is in the plan, in a few words'),
    }),
  ),
})
export type DayPlan = z.infer<typeof DayPlanSchema>
// #endregion DayPlanSchema

// #region AssistantMemorySchema
/** Facts the assistant keeps about the user for the rest of a thread. */
export const AssistantMemorySchema = z.object({
  defaultDueTime: z.string().optional().describe('Time of day the user wants new to-dos due, such as 17:00'),
  currentFocus: z.string().optional().describe('The project or area the user says they are working on'),
})
// #endregion AssistantMemorySchema
