// Temporary folders of the behaviour suite, named after the run: scripts/behaviour.mjs sets BEHAVIOUR_RUN, and after
// the run it reports and removes any `todo-<kind>-<run>-` folder still there (a test stopped at its timeout never
// reaches its `after` or `finally`), never those of another run on the same machine.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const RUN = process.env.BEHAVIOUR_RUN ?? 'direct'

/** A new, empty folder in the system's temporary folder, outside any project: `todo-<kind>-<run>-XXXXXX`. */
export const runTempDir = (kind: string) => mkdtempSync(join(tmpdir(), `todo-${kind}-${RUN}-`))
