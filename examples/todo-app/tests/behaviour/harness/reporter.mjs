// A node:test reporter that writes one JSON document: every test's id, name, file and result. The id is
// "<file name without .test.ts>#<the test name up to its first colon>", the id that pages name in their
// {/* claim: … */} markers (scripts/claims.mjs).
import { basename } from 'node:path'

export default async function* behaviourReporter(source) {
  const tests = []
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const { name, file, details, nesting } = event.data
    // Files are reported as tests of their own (nesting 0 with the file's path as name); hooks failing in
    // them show up there.
    const stem = file ? basename(file).replace(/\.test\.[cm]?[jt]sx?$/, '') : ''
    const isFile = file && name === file
    const match = /^([a-z0-9][a-z0-9-]*):\s/.exec(name)
    tests.push({
      id: !isFile && match ? `${stem}#${match[1]}` : null,
      name,
      file,
      nesting,
      passed: event.type === 'test:pass' && !event.data.skip && !event.data.todo,
      skipped: Boolean(event.data.skip || event.data.todo),
      error: event.type === 'test:fail' ? String(details?.error?.cause ?? details?.error ?? '').slice(0, 2000) : undefined,
      ms: details?.duration_ms,
    })
  }
  yield JSON.stringify({ tests }, null, 2) + '\n'
}
