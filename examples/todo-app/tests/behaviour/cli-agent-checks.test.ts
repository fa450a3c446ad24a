// The inspector check behind PKU146 of the CLI error reference, run on small source files with the inspector that `pikku all` uses (harness/inspector.ts). Kept out of
// cli-errors.test.ts so that each file stays within the suite's per-file time limit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'

test('pku146-model-as-written: an agent model with no "/" that is not a key of modelAliases is a critical PKU146, even a constant holding "openai/gpt-4o-mini"; "openai/gpt-4o-mini" written out, or an alias the table has, passes', async () => {
  const agent = (model: string) =>
    [
      "import { pikkuAgent } from '#pikku/agent'",
      "const DEFAULT_MODEL = 'openai/gpt-4o-mini'",
      `export const probeAgent = pikkuAgent({ name: 'probe-agent', description: 'probe', goal: 'probe', model: ${model}, tools: [] })`,
    ].join('\n')
  const cases: Record<string, [string, Record<string, string>]> = {
    alias: ["'fast'", {}],
    constant: ['DEFAULT_MODEL', {}],
    written: ["'openai/gpt-4o-mini'", {}],
    configured: ["'fast'", { fast: 'openai/gpt-4o-mini' }],
    otherCase: ["'Fast'", { fast: 'openai/gpt-4o-mini' }],
  }
  const found: Record<string, string[]> = {}
  for (const [name, [model, modelAliases]] of Object.entries(cases)) {
    const { reported } = await inspectFiles(`pku146-${name}`, { 'probe.agent.ts': agent(model) }, { modelAliases })
    found[name] = codes(reported).filter((c) => c.startsWith('PKU146'))
  }
  assert.deepEqual(found, {
    alias: ['PKU146 critical'],
    constant: ['PKU146 critical'],
    written: [],
    configured: [],
    otherCase: ['PKU146 critical'],
  })
})
