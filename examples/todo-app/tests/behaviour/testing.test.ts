// How the app's unit tests are run (docs/core-features/testing.mdx, docs/core-features/pikku-cli.mdx): Node's own
// test runner started on the app's files and on throwaway test files, each in a child process like `node --test`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const APP_DIR = join(import.meta.dirname, '..', '..')

/** Runs `node <args>` in `cwd` as a fresh process, outside this suite's own test context. */
const runNode = (args: string[], cwd = APP_DIR) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_TEST_CONTEXT: undefined } })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => resolve({ code, output }))
  })

test('plain-node-test-needs-tsx: plain node --test cannot load the app test file, whose .js import specifiers (in its own and in the generated files) name .ts files', async () => {
  const { code, output } = await runNode(['--test', '--test-reporter=tap', 'src/functions/todos.functions.test.ts'])
  assert.notEqual(code, 0, output)
  // The first import Node cannot follow names a .js file, here one of the generated .pikku files, that exists only as .ts
  const missing = /Cannot find module '([^']+)\.js'/.exec(output)
  assert.ok(missing, output)
  assert.ok(existsSync(`${missing[1]}.ts`), `${missing[1]}.ts should exist`)
  // The same file under tsx passes: core#app-unit-tests-pass runs it with `node --import tsx --test`.
})
