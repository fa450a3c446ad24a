// The framework's inspector (@pikku/inspector), the code analysis `pikku all` runs, on a few source files written to a
// scratch folder inside the app's .behaviour/ (git-ignored, so '@pikku/core' resolves), with a logger that records
// each PKU code it reports and its severity.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { APP_DIR } from './node-process.js'

/**
 * Inspects `files` (name: source text); the codes reported, in order, the uncoded error lines it printed, and the
 * inspector's state. Removes the folder.
 * `options` adds inspector options, such as `classificationCheck: true`, which `pikku all --security` sets.
 */
export const inspectFiles = async (name: string, files: Record<string, string>, options: Record<string, unknown> = {}) => {
  const { inspect } = await import('@pikku/inspector')
  const dir = join(APP_DIR, '.behaviour', `${name}-${process.pid}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  try {
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
    const reported: Array<{ code: string; severity: string }> = []
    const errors: string[] = []
    const state = await inspect(
      {
        info() {}, debug() {}, warn() {},
        error: (message: unknown) => errors.push(String(message)),
        diagnostic: ({ severity, code }: { severity: string; code: string }) => reported.push({ code, severity }),
        critical: (code: string) => reported.push({ code, severity: 'critical' }),
        hasCriticalErrors: () => false,
      } as never,
      Object.keys(files).map((file) => join(dir, file)),
      { rootDir: dir, ...options } as never,
    )
    return { reported, errors, state }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The reported codes as `'<code> <severity>'` strings, in order, for one deepEqual. */
export const codes = (reported: Array<{ code: string; severity: string }>) => reported.map(({ code, severity }) => `${code} ${severity}`)
