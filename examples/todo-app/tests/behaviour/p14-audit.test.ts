// Checks behind the second half of the CLI error reference (PKU576 to PKU953), run on small source files with the
// inspector that `pikku all` uses (harness/inspector.ts) and, where the code is reported by a CLI step, that step of
// the installed CLI, called in process on the inspector's state.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inspectFiles } from './harness/inspector.js'

const CLI_DIST = '../../node_modules/@pikku/cli/dist'

test('pku600-unresolved-base: a SingletonServices whose CoreSingletonServices import does not resolve lists only its own services, so the services step has a list and the workflow step reports PKU600 and throws; with the base resolved it passes', async () => {
  const { pikkuWorkflow } = await import(`${CLI_DIST}/src/functions/wirings/workflow/pikku-command-workflow.js`)
  const workflow = [
    "import { pikkuWorkflowFunc } from '@pikku/core/workflow'",
    "export const remindLater = pikkuWorkflowFunc<{ todoId: string }, void>({ func: async (_services, input, { workflow }) => { await workflow.sleep('Wait a day', '1d') } })",
  ].join('\n')
  const run = async (from: string) => {
    const { state } = await inspectFiles(`pku600-${from.replace(/\W/g, '-')}`, {
      'types.ts': `import type { CoreSingletonServices } from '${from}'\nexport interface SingletonServices extends CoreSingletonServices { todoStore: { get(): void } }\n`,
      'remind.workflow.ts': workflow,
    })
    const criticals: string[] = []
    const logger = { info() {}, debug() {}, warn() {}, error() {}, critical: (code: string) => criticals.push(code) }
    let outcome = 'passed the check'
    try {
      await pikkuWorkflow.func({ logger, config: {}, getInspectorState: async () => state } as never, {} as never, {} as never)
    } catch (error) {
      outcome = (error as Error).message
    }
    const services = (state as { serviceAggregation: { allSingletonServices: string[] } }).serviceAggregation.allSingletonServices
    return { services: services.includes('workflowService') ? 'has workflowService' : services, criticals, outcome: outcome.startsWith('WorkflowState') ? outcome : 'passed the check' }
  }
  assert.deepEqual(await run('@pikku/core/no-such-path'), {
    services: ['todoStore'],
    criticals: ['PKU600'],
    outcome: 'WorkflowState service not configured but workflows are defined',
  })
  assert.deepEqual(await run('@pikku/core/types'), { services: 'has workflowService', criticals: [], outcome: 'passed the check' })
})
