// A Node.js child process for tests that run Node itself (its test runner on the app's or throwaway test files).
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
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

/**
 * Compiles `files` (name: source text) with the app's TypeScript, strict, in a scratch folder inside the app (so that
 * @pikku/core resolves to the app's own copy), then removes the folder; the exit code and tsc's output. The files
 * sit two folders below the app (`.behaviour/<name>-<pid>/`), so `../../.pikku/...` reaches the generated code.
 */
export const compileScratch = async (name: string, files: Record<string, string>, { appConfig = false } = {}) => {
  const dir = join(APP_DIR, '.behaviour', `${name}-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  try {
    const compilerOptions = { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, skipLibCheck: true, types: [] }
    // With `appConfig`, the app's own tsconfig.json (its paths and its types/ folder) instead of the bare options.
    const config = appConfig
      ? { extends: '../../tsconfig.json', include: ['../../types'], files: Object.keys(files) }
      : { compilerOptions, files: Object.keys(files) }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config))
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
    return await runNode([join(APP_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
