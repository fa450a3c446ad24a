// A Node.js child process for tests that run Node itself (its test runner on the app's or throwaway test files).
import { spawn } from 'node:child_process'
import { join } from 'node:path'

/** The to-do app's folder, where the behaviour suite runs. */
export const APP_DIR = join(import.meta.dirname, '..', '..', '..')

/**
 * Runs `node <args>` in `cwd` as a fresh process, outside this suite's own test context (NODE_TEST_CONTEXT cleared, so
 * a `node --test` child reports for itself); resolves with its exit code and its stdout and stderr together.
 */
export const runNode = (args: string[], cwd = APP_DIR) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_TEST_CONTEXT: undefined } })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => resolve({ code, output }))
  })
