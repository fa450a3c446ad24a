// The code-generation checks that docs/ai-agents/memory-and-output.mdx describes for agent output schemas, run on
// small source files with the inspector that `pikku all` uses (harness/inspector.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { codes, inspectFiles } from './harness/inspector.js'

test('schema-inline-and-colocated: code generation rejects an inline output schema with PKU489, and a file holding a Zod schema and an HTTP route with PKU490; a schema next to a wireChannel or an agent passes', async () => {
  const agent = (output: string) =>
    [
      "import { z } from 'zod'",
      "import { pikkuAgent } from '#pikku/agent'",
      "export const PlanSchema = z.object({ summary: z.string() })",
      `export const probeAgent = pikkuAgent({ name: 'probe-agent', description: 'probe', goal: 'probe', model: 'openai/gpt-4o-mini', tools: [], output: ${output} })`,
    ].join('\n')
  const critical = (reported: Array<{ code: string; severity: string }>) => codes(reported).filter((c) => /^PKU(489|490) /.test(c))
  assert.deepEqual(critical((await inspectFiles('pku489-inline', { 'probe.agent.ts': agent('z.object({ summary: z.string() })') })).reported), ['PKU489 critical'])
  assert.deepEqual(critical((await inspectFiles('pku489-named', { 'probe.agent.ts': agent('PlanSchema') })).reported), [])
  const withWiring = (wiring: string[]) =>
    [
      "import { z } from 'zod'",
      "import { pikkuFunc, pikkuChannelConnectionFunc } from '#pikku/function'",
      "import { wireHTTP } from '#pikku/http'",
      "import { wireChannel } from '#pikku/channel'",
      'export const NoteInput = z.object({ text: z.string() })',
      'export const addNote = pikkuFunc({ input: NoteInput, func: async () => {} })',
      'export const hello = pikkuChannelConnectionFunc(async () => {})',
      ...wiring,
    ].join('\n')
  const http = await inspectFiles('pku490-http', { 'probe.ts': withWiring(["wireHTTP({ method: 'post', route: '/notes', func: addNote })"]) })
  assert.deepEqual(critical(http.reported), ['PKU490 critical'])
  const channel = await inspectFiles('pku490-channel', { 'probe.ts': withWiring(["wireChannel({ name: 'notes', route: '/notes', onConnect: hello })"]) })
  assert.deepEqual(critical(channel.reported), [])
})
