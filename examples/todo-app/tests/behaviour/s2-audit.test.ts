// Checks made while auditing the skill pages of group S2 (cli, mcp, queue, queue-bullmq, queue-pg-boss, scheduler,
// kysely, yarn-workspace, aws-lambda, cloudflare) against @pikku/core 0.12.90 and the vendored runtime packages.
// The first test runs before any singleton services exist in this process, as a scheduler process that never calls
// createSingletonServices would.
import '#pikku/pikku-bootstrap.gen.js'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { InMemorySchedulerService } from '@pikku/schedule'
import { pikkuState } from '@pikku/core/state'

test('in-memory-run-without-services: with no singleton services, a cron run of InMemorySchedulerService fails on reading the logger (a TypeError the cron library prints as "[Cron] error in callback"), not with "Singleton services not initialized"', async () => {
  assert.equal(pikkuState(null, 'package', 'singletonServices'), null)
  const scheduler = new InMemorySchedulerService()
  // The service's own jobs, read to fire the daily-digest job now instead of waiting for 09:00.
  const cronJobs = (scheduler as unknown as { cronJobs: Map<string, { fireOnTick(): Promise<void> }> }).cronJobs
  const printed: unknown[][] = []
  let reported!: () => void
  const seen = new Promise<void>((resolve) => (reported = resolve))
  const original = console.error
  console.error = (...args: unknown[]) => {
    printed.push(args)
    reported()
  }
  try {
    // start() itself needs no services: it only creates the cron jobs.
    await scheduler.start()
    const job = cronJobs.get('daily-digest')
    assert.ok(job)
    await job.fireOnTick()
    await seen
    assert.equal(printed[0]?.[0], '[Cron] error in callback')
    const error = printed[0]?.[1] as Error
    assert.ok(error instanceof TypeError)
    assert.equal(error.message, "Cannot read properties of null (reading 'logger')")
  } finally {
    console.error = original
    await scheduler.stop()
  }
})
