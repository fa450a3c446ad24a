/**
 * Stand-in for .pikku/workflow/pikku-scenario-step-map.gen.d.ts. Modelled on
 * packages/cli/src/functions/wirings/workflow/serialize-scenario-step-map.ts (cli 0.12.113), with this app's steps
 * (src/scenarios/todo.steps.ts) filled in: one entry per step, keyed by its name, with the input and output types the
 * inspector names (`<Step>Input`, `<Step>Output`) for an inline type, and `void` for none. No deliberate differences.
 */

import type { Todo } from '../../src/todo-store.js'

export type OpensFirstOpenTodoOutput = { todoId: string; title: string }
export type MarksTodoDoneInput = { todoId: string }
export type SeesTodoDoneInput = { todoId: string }
export type SeesTodoOpenInput = { todoId: string }

interface ScenarioStepHandler<I, O> {
  input: I
  output: O
}

export type FlattenedScenarioStepMap = {
  readonly opensFirstOpenTodo: ScenarioStepHandler<void, OpensFirstOpenTodoOutput>
  readonly marksTodoDone: ScenarioStepHandler<MarksTodoDoneInput, Todo>
  readonly seesTodoDone: ScenarioStepHandler<SeesTodoDoneInput, void>
  readonly seesTodoOpen: ScenarioStepHandler<SeesTodoOpenInput, void>
}
