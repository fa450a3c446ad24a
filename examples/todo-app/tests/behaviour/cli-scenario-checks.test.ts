// The inspector check behind PKU679 of the CLI error reference, run on small source files with the inspector that `pikku all` uses (harness/inspector.ts). Kept out of
// cli-errors.test.ts so that each file stays within the suite's per-file time limit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'

test('pku679-func-form: a pikkuScenario whose func is a function expression, or an arrow function kept in a const and passed by name, is a critical PKU679; the same body as an arrow function written in place is not reported', async () => {
  const body = "await scenario.then('Alice sees it done', 'seesTodoDone', { todoId: 't1' })"
  const forms: Record<string, string> = {
    inPlace: `export const probe = pikkuScenario<void, void>({ description: 'probe', func: async (_services, _data, { scenario }) => { ${body} } })`,
    functionExpression: `export const probe = pikkuScenario<void, void>({ description: 'probe', func: async function (_services, _data, { scenario }) { ${body} } })`,
    constant: `const run = async (_services: any, _data: void, { scenario }: any) => { ${body} }\nexport const probe = pikkuScenario<void, void>({ description: 'probe', func: run })`,
  }
  const found: Record<string, string[]> = {}
  for (const [name, source] of Object.entries(forms)) {
    const { reported } = await inspectFiles(`pku679-${name}`, {
      'probe.scenario.ts': `import { pikkuScenario } from '#pikku/scenarios'\n${source}\n`,
    })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU679'))
  }
  assert.deepEqual(found, { inPlace: [], functionExpression: ['PKU679 critical'], constant: ['PKU679 critical'] })
})
