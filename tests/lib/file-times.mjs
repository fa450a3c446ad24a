// A node:test reporter that prints, once the run ends, how long each test file took and the total: the figures a
// maintainer needs to keep the suite fast. Used beside the spec reporter by scripts/test.mjs. Node reports no event
// for a file's own run, so a file's time is the span from its first dequeue (the runner starts its process; all
// files are enqueued at once) to its last event, as they reach the runner (with --test-concurrency=1 the files run
// one after another).
// With $FILE_TIMES_JSON set, each file's row is appended to that file instead, a JSON object per line: scripts/test.mjs
// runs several test commands side by side and prints every file's time once, when they have all ended.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    if (!files.has(file) && event.type !== 'test:dequeue') continue;
    const entry = files.get(file) ?? { first: now, last: now, failed: false };
    entry.last = now;
    if (event.type === 'test:fail') entry.failed = true;
    files.set(file, entry);
  }
  if (!files.size) return;
  const rows = [...files].map(([file, t]) => ({
    file: relative(process.cwd(), file),
    s: (t.last - t.first) / 1000,
    failed: t.failed,
  }));
  rows.sort((a, b) => b.s - a.s);
  if (process.env.FILE_TIMES_JSON) {
    for (const r of rows) appendFileSync(process.env.FILE_TIMES_JSON, JSON.stringify(r) + '\n');
    return;
  }
  const width = Math.max(...rows.map((r) => r.file.length));
  yield '\nTime per test file:\n';
  for (const r of rows)
    yield `  ${r.file.padEnd(width)}  ${r.s.toFixed(1).padStart(6)} s${r.failed ? '  (failed)' : ''}\n`;
}
