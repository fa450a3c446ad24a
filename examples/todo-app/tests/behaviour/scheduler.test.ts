// The to-do app's scheduled tasks and delayed calls on InMemorySchedulerService (@pikku/schedule 0.12.7), started as
// src/scheduler.ts starts it. The clock is node:test's mock timers (Date and setTimeout), so a run due at 09:00 or in
// 30 minutes is reached by moving the clock, not by waiting.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { InMemorySchedulerService } from '@pikku/schedule'
import { getScheduledTasks, runScheduledTask } from '@pikku/core/scheduler'
import { wireScheduler } from '#pikku/scheduler'
import { dailyDigest } from '../../src/functions/digest.functions.js'
import { addFunction } from '@pikku/core/function'
import { stopSingletonServices } from '@pikku/core/utils'
import { remindMeIn } from '../../src/functions/reminder-schedule.functions.js'
import { bootServices, callerAs, collectLogs, nextInfoLog, recordTraceIds, type Singletons } from './harness/queues.js'
import { waitFor } from './harness/app.js'
import { pikkuState, setSingletonServices } from '@pikku/core/state'
import { codes, inspectFiles } from './harness/inspector.js'

const MINUTE = 60_000
let services: Singletons
let scheduler: InMemorySchedulerService
const owner = { userId: 'u-lin', role: 'member' as const }
const DIGEST = /^Sending the daily digest of open to-dos$/

before(async () => {
  // As src/scheduler.ts, plus the scheduler passed in as the singleton schedulerService, so remindMeIn reaches it.
  scheduler = new InMemorySchedulerService()
  services = await bootServices({ schedulerService: scheduler })
  // The bootstrap registers a function for RPC only when the app reaches it by name or wires it; register remindMeIn here.
  addFunction('remindMeIn', remindMeIn)
})

after(async () => {
  mock.timers.reset()
  await scheduler.close()
  await stopSingletonServices()
})

/** Counts the digest runs: the wired function's own log line. */
const countDigests = () => {
  const logger = services.logger as any
  const info = logger.info
  const counter = { runs: 0, restore: () => (logger.info = info) }
  logger.info = function (this: unknown, ...args: unknown[]) {
    if (DIGEST.test(String(args[0]))) counter.runs++
    return info.apply(this, args)
  }
  return counter
}

/** Lets the promises a timer callback started settle (they need no timers themselves). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

test('wired-tasks-listed: getScheduledTasks holds every wireScheduler task by name, with its schedule', () => {
  const tasks = getScheduledTasks()
  assert.equal(tasks.get('daily-digest')?.schedule, '0 9 * * *')
  assert.equal(tasks.get('workflow-recovery')?.schedule, '*/5 * * * *')
  assert.equal(tasks.get('weekday-digest')?.schedule, '30 8 * * *')
})

test('wiring-only-registers: wireScheduler stores a task and starts no timer; the task runs only when runScheduledTask is called', async () => {
  const schedulerMeta = pikkuState(null, 'scheduler', 'meta') as Record<string, any>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, any>
  const digest = schedulerMeta['daily-digest']
  // What the CLI would generate for a wiring named 'probe-digest' with a function of its own.
  schedulerMeta['probe-digest'] = { ...digest, name: 'probe-digest', schedule: '* * * * *', pikkuFuncId: 'probeDigest' }
  functionMeta.probeDigest = { ...functionMeta[digest.pikkuFuncId], pikkuFuncId: 'probeDigest', name: 'probeDigest' }
  mock.timers.enable({ apis: ['Date', 'setTimeout', 'setInterval'], now: new Date(2026, 2, 5, 8, 0, 0) })
  let runs = 0
  try {
    wireScheduler({ name: 'probe-digest', schedule: '* * * * *', func: { func: async () => void runs++ } } as never)
    assert.equal(getScheduledTasks().get('probe-digest')?.schedule, '* * * * *')
    mock.timers.tick(10 * MINUTE)
    await settle()
    assert.equal(runs, 0)
    await runScheduledTask({ name: 'probe-digest' })
    assert.equal(runs, 1)
  } finally {
    mock.timers.reset()
    getScheduledTasks().delete('probe-digest')
    delete schedulerMeta['probe-digest']
    delete functionMeta.probeDigest
    ;(pikkuState(null, 'function', 'functions') as Map<string, unknown>).delete('probeDigest')
  }
})

test('start-fires-at-nine: after start(), every wired task has a cron job, and daily-digest runs when the local clock reaches 09:00, not before', async () => {
  // 08:00 local time (cron reads the expression in the process's time zone).
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 2, 8, 0, 0) })
  const digests = countDigests()
  const { traceIds, restore } = recordTraceIds(services)
  try {
    await scheduler.start()
    mock.timers.tick(59 * MINUTE)
    await settle()
    assert.equal(digests.runs, 0)
    const ran = nextInfoLog(services, DIGEST)
    mock.timers.tick(MINUTE)
    await ran
    assert.equal(digests.runs, 1)
    // In that hour each of the three wired tasks had a cron job of its own: every run is traced cron-<name>-<time>.
    const names = new Set(traceIds.map((id) => /^cron-(.+)-\d+$/.exec(id)?.[1]))
    assert.deepEqual([...names].sort(), ['daily-digest', 'weekday-digest', 'workflow-recovery'])
  } finally {
    restore()
    digests.restore()
    await scheduler.stop()
    mock.timers.reset()
  }
})

test('local-time-zone: in a process with TZ=Asia/Kolkata, daily-digest runs at 09:00 Kolkata time (03:30 UTC), not at 09:00 UTC', async () => {
  const tz = process.env.TZ
  process.env.TZ = 'Asia/Kolkata'
  // 03:00 UTC is 08:30 in Kolkata (UTC+5:30, no daylight saving).
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.UTC(2026, 2, 9, 3, 0, 0) })
  const digests = countDigests()
  try {
    assert.equal(new Date().getTimezoneOffset(), -330)
    await scheduler.start()
    mock.timers.tick(29 * MINUTE)
    await settle()
    assert.equal(digests.runs, 0)
    const ran = nextInfoLog(services, DIGEST)
    mock.timers.tick(MINUTE)
    await ran
    assert.equal(new Date().toISOString(), '2026-03-09T03:30:00.000Z')
  } finally {
    digests.restore()
    await scheduler.stop()
    mock.timers.reset()
    if (tz === undefined) delete process.env.TZ
    else process.env.TZ = tz
  }
})

test('stop-ends-crons: after stop(), 09:00 passes without a run of any task', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 3, 8, 59, 0) })
  const digests = countDigests()
  const { traceIds, restore } = recordTraceIds(services)
  try {
    await scheduler.start()
    await scheduler.stop()
    mock.timers.tick(2 * MINUTE)
    await settle()
    assert.equal(digests.runs, 0)
    // Nor did workflow-recovery, also due at 09:00: no task ran at all.
    assert.deepEqual(traceIds, [])
  } finally {
    restore()
    digests.restore()
    mock.timers.reset()
  }
})

test('cron-error-caught: an error thrown by a cron run is caught and logged by the cron package, not thrown', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 4, 8, 59, 59) })
  const logger = services.logger as any
  const info = logger.info
  // The digest's own log call throws, as a failing mail service would.
  logger.info = function (this: unknown, ...args: unknown[]) {
    if (DIGEST.test(String(args[0]))) throw new Error('mail service down')
    return info.apply(this, args)
  }
  const consoleError = console.error
  const reported = new Promise<unknown[]>((resolve) => {
    console.error = (...args: unknown[]) => resolve(args)
  })
  try {
    await scheduler.start()
    mock.timers.tick(1_000)
    const [label, error] = await reported
    assert.equal(label, '[Cron] error in callback')
    assert.equal((error as Error).message, 'mail service down')
  } finally {
    console.error = consoleError
    logger.info = info
    await scheduler.stop()
    mock.timers.reset()
  }
})

test('run-task-directly: runScheduledTask({ name }) runs a wired task at once, under the trace id cron-<name>-<timestamp>', async () => {
  const { traceIds, restore } = recordTraceIds(services)
  try {
    const ran = nextInfoLog(services, DIGEST)
    const before = Date.now()
    await runScheduledTask({ name: 'daily-digest' })
    await ran
    const [, stamp] = /^cron-daily-digest-(\d+)$/.exec(traceIds[0] ?? '') ?? []
    assert.ok(stamp && Number(stamp) >= before && Number(stamp) <= Date.now(), traceIds.join())
    await runScheduledTask({ name: 'daily-digest', traceId: 'k8s-daily-digest-1' })
    assert.equal(traceIds.at(-1), 'k8s-daily-digest-1')
  } finally {
    restore()
  }
})

test('session-func-forbidden: a task whose function needs a session fails its run with ForbiddenError "Authentication required", after a warning that auth was disabled; a session passed to runScheduledTask lets it run', async () => {
  // The CLI records a pikkuFunc with sessionless: false; daily-digest's function metadata is switched to that here.
  const { pikkuFuncId } = (pikkuState(null, 'scheduler', 'meta') as Record<string, { pikkuFuncId: string }>)['daily-digest']
  const meta = (pikkuState(null, 'function', 'meta') as Record<string, { sessionless?: boolean }>)[pikkuFuncId]
  const sessionless = meta.sessionless
  const warnings = collectLogs(services, 'warn')
  const digests = countDigests()
  meta.sessionless = false
  try {
    await assert.rejects(runScheduledTask({ name: 'daily-digest' }), { name: 'ForbiddenError', message: 'Authentication required' })
    assert.equal(digests.runs, 0)
    assert.ok(warnings.lines.some((line) => /requires a session but auth was explicitly disabled/.test(line)), warnings.lines.join('\n'))
    const ran = nextInfoLog(services, DIGEST)
    await runScheduledTask({ name: 'daily-digest', session: owner })
    await ran
  } finally {
    meta.sessionless = sessionless
    warnings.restore()
    digests.restore()
  }
})

test('run-task-unknown: runScheduledTask rejects an unknown name with "Scheduled task not found: Scheduled task not found: <name>", the prefix twice', async () => {
  await assert.rejects(runScheduledTask({ name: 'weekly-digest' }), (error: Error) => {
    assert.equal(error.message, 'Scheduled task not found: Scheduled task not found: weekly-digest')
    return true
  })
})

test('remind-me-in-runs: remindMeIn with delay "30m" calls sendReminder with the to-do\'s id 30 minutes later', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 5, 12, 0, 0) })
  try {
    const todo = await services.todoStore.create({ ownerId: owner.userId, title: 'Call the plumber', done: false })
    const { taskId } = await callerAs(services, owner).invoke('remindMeIn', { todoId: todo.todoId, delay: '30m' })
    const task = await scheduler.getTask(taskId)
    assert.equal(task?.rpcName, 'sendReminder')
    assert.deepEqual(task?.data, { todoId: todo.todoId })
    assert.equal(task?.status, 'scheduled')
    assert.equal(task?.scheduledFor.getTime(), Date.now() + 30 * MINUTE)
    assert.deepEqual(
      (await scheduler.getAllTasks()).map((t) => t.taskId),
      [taskId],
    )
    const reminded = nextInfoLog(services, /^Reminder for u-lin: "Call the plumber"/)
    mock.timers.tick(30 * MINUTE - 1)
    await settle()
    assert.ok(await scheduler.getTask(taskId))
    mock.timers.tick(1)
    await reminded
    // Done and forgotten: the pending list no longer has it.
    assert.equal(await scheduler.getTask(taskId), null)
  } finally {
    mock.timers.reset()
  }
})

test('long-delay-runs-at-once: a delay over 2^31-1 ms (30 days) overflows setTimeout, so InMemorySchedulerService runs the call straight away', async () => {
  // Real timers: node:test's mock timers do not overflow. Node.js prints a TimeoutOverflowWarning for this call.
  const todo = await services.todoStore.create({ ownerId: owner.userId, title: 'Renew the passport', done: false })
  const reminded = nextInfoLog(services, /^Reminder for u-lin: "Renew the passport"/)
  const taskId = await scheduler.scheduleRPC('30days', 'sendReminder', { todoId: todo.todoId })
  await reminded
  await waitFor(() => scheduler.getTask(taskId), (task) => task === null)
})

test('unschedule-cancels: unschedule answers true for a pending call, which then never runs, and false the second time', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 6, 12, 0, 0) })
  const logger = services.logger as any
  const info = logger.info
  let reminders = 0
  logger.info = function (this: unknown, ...args: unknown[]) {
    if (/^Reminder for/.test(String(args[0]))) reminders++
    return info.apply(this, args)
  }
  try {
    const todo = await services.todoStore.create({ ownerId: owner.userId, title: 'Cancelled', done: false })
    const taskId = await scheduler.scheduleRPC('5m', 'sendReminder', { todoId: todo.todoId })
    assert.equal(await scheduler.unschedule(taskId), true)
    assert.equal(await scheduler.unschedule(taskId), false)
    mock.timers.tick(10 * MINUTE)
    await settle()
    assert.equal(reminders, 0)
  } finally {
    logger.info = info
    mock.timers.reset()
  }
})

test('invalid-duration: a delay such as "1.5h" or "5 min" is refused with "Invalid duration format"', async () => {
  const todo = await services.todoStore.create({ ownerId: owner.userId, title: 'Odd delays', done: false })
  const caller = callerAs(services, owner)
  for (const delay of ['1.5h', '5 min']) {
    await assert.rejects(caller.invoke('remindMeIn', { todoId: todo.todoId, delay }), (error: Error) => {
      assert.equal(error.constructor, Error)
      assert.match(error.message, /^Invalid duration format/)
      return true
    })
  }
  assert.deepEqual(await scheduler.getAllTasks(), [])
})

test('duration-units: "500ms", "2days", "1week" and a number of milliseconds are all accepted', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 7, 12, 0, 0) })
  try {
    const now = Date.now()
    const cases: Array<[string | number, number]> = [['500ms', 500], ['30s', 30_000], ['2days', 2 * 24 * 60 * MINUTE], ['1week', 7 * 24 * 60 * MINUTE], [1234, 1234]]
    for (const [delay, ms] of cases) {
      const taskId = await scheduler.scheduleRPC(delay, 'sendReminder', { todoId: 'none' })
      assert.equal((await scheduler.getTask(taskId))?.scheduledFor.getTime(), now + ms, String(delay))
      await scheduler.unschedule(taskId)
    }
  } finally {
    mock.timers.reset()
  }
})

test('failed-delayed-rpc-logged: a delayed call whose function fails is logged as "Failed to execute delayed RPC"', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 8, 12, 0, 0) })
  const errors = collectLogs(services, 'error')
  const logged = waitFor(async () => errors.lines[0], Boolean)
  try {
    await scheduler.scheduleRPC(10, 'noSuchFunction', {})
    mock.timers.tick(10)
    assert.match(await logged, /^Failed to execute delayed RPC 'noSuchFunction': /)
  } finally {
    errors.restore()
    mock.timers.reset()
  }
})

test('wiring-without-meta-skipped: wireScheduler for a task the CLI never saw warns "Skipping scheduled task" and registers nothing', () => {
  const warn = console.warn
  const warned: string[] = []
  console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '))
  try {
    wireScheduler({ name: 'weekly-digest', schedule: '0 9 * * 1', func: dailyDigest })
  } finally {
    console.warn = warn
  }
  assert.deepEqual(warned, ["[pikku] Skipping scheduled task 'weekly-digest' — metadata not found. Consider moving this wiring to its own file."])
  assert.equal(getScheduledTasks().has('weekly-digest'), false)
})

test('inspector-schedule-shapes: code generation records a constant schedule as its source text without a diagnostic, while wireScheduler keeps the value it is given; it records no task for a variable argument or a shorthand name or schedule, and reports nothing', async () => {
  const { reported, state } = await inspectFiles('schedule-shapes', {
    'probe.ts': [
      "import { pikkuSessionlessFunc, wireScheduler } from '@pikku/core'",
      'export const tick = pikkuSessionlessFunc<void, void>({ func: async () => {} })',
      "const DAILY = '0 9 * * *'",
      "wireScheduler({ name: 'by-constant', schedule: DAILY, func: tick })",
      "const byVariable = { name: 'by-variable', schedule: '0 9 * * *', func: tick }",
      'wireScheduler(byVariable)',
      "const schedule = '0 9 * * *'",
      "wireScheduler({ name: 'shorthand-schedule', schedule, func: tick })",
      "const name = 'shorthand-name'",
      "wireScheduler({ name, schedule: '0 9 * * *', func: tick })",
    ].join('\n'),
  })
  assert.deepEqual(codes(reported), [])
  const meta = (state as any).scheduledTasks.meta
  assert.deepEqual(Object.keys(meta), ['by-constant'])
  assert.equal(meta['by-constant'].schedule, 'DAILY')
  // At run time the task holds the value the call passes, whatever the generated metadata says.
  const schedulerMeta = pikkuState(null, 'scheduler', 'meta') as Record<string, any>
  schedulerMeta['probe-constant'] = { ...schedulerMeta['daily-digest'], name: 'probe-constant', schedule: 'DAILY' }
  try {
    wireScheduler({ name: 'probe-constant', schedule: '0 9 * * *', func: dailyDigest })
    assert.equal(getScheduledTasks().get('probe-constant')?.schedule, '0 9 * * *')
  } finally {
    getScheduledTasks().delete('probe-constant')
    delete schedulerMeta['probe-constant']
  }
})

test('duplicate-name-throws: a second wireScheduler with a name already wired throws "Scheduled task already exists"', () => {
  assert.throws(() => wireScheduler({ name: 'daily-digest', schedule: '0 9 * * *', func: dailyDigest }), {
    message: 'Scheduled task already exists: daily-digest',
  })
})

test('scheduled-task-wire: a run sees wire.scheduledTask with the task\'s name and schedule', async () => {
  mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 2, 11, 8, 30) })
  try {
    const ran = nextInfoLog(services, /^Sending the weekday digest/)
    await runScheduledTask({ name: 'weekday-digest' })
    assert.equal(await ran, 'Sending the weekday digest (task weekday-digest, schedule 30 8 * * *)')
  } finally {
    mock.timers.reset()
  }
})

test('skip-rethrown: scheduledTask.skip() ends the run with a ScheduledTaskSkippedError that runScheduledTask rethrows', async () => {
  // Saturday 14 March 2026: the weekday digest skips, and its log line is never reached.
  mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 2, 14, 8, 30) })
  const logger = services.logger as any
  const info = logger.info
  let sent = false
  logger.info = function (this: unknown, ...args: unknown[]) {
    if (/^Sending the weekday digest/.test(String(args[0]))) sent = true
    return info.apply(this, args)
  }
  try {
    await assert.rejects(runScheduledTask({ name: 'weekday-digest' }), (error: Error) => {
      assert.equal(error.name, 'ScheduledTaskSkippedError')
      assert.equal(error.message, "Scheduled task 'weekday-digest' was skipped: no digest at weekends")
      return true
    })
    assert.equal(sent, false)
  } finally {
    logger.info = info
    mock.timers.reset()
  }
})

test('skip-caught-by-cron: under InMemorySchedulerService a skipped run is caught and printed by the cron package', async () => {
  // Saturday 08:29 UTC, in a process on UTC: the 08:30 run falls on a Saturday.
  const tz = process.env.TZ
  process.env.TZ = 'UTC'
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.UTC(2026, 2, 14, 8, 29, 0) })
  const consoleError = console.error
  const reported = new Promise<unknown[]>((resolve) => {
    console.error = (...args: unknown[]) => resolve(args)
  })
  try {
    await scheduler.start()
    mock.timers.tick(MINUTE)
    const [label, error] = await reported
    assert.equal(label, '[Cron] error in callback')
    assert.equal((error as Error).name, 'ScheduledTaskSkippedError')
  } finally {
    console.error = consoleError
    await scheduler.stop()
    mock.timers.reset()
    if (tz === undefined) delete process.env.TZ
    else process.env.TZ = tz
  }
})

test('start-twice-orphans-crons: a second start() on one instance gives each task a second cron job, so it runs twice, and stop() then ends only the newer jobs', async () => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 16, 8, 59, 0) })
  // The service's own map of jobs, read only to stop in `finally` the jobs its stop() can no longer reach.
  const cronJobs = (scheduler as unknown as { cronJobs: Map<string, { stop(): void }> }).cronJobs
  let firstJobs: Array<{ stop(): void }> = []
  const { traceIds, restore } = recordTraceIds(services)
  const runsOf = (name: string) => traceIds.filter((id) => id.startsWith(`cron-${name}-`)).length
  try {
    await scheduler.start()
    firstJobs = [...cronJobs.values()]
    await scheduler.start()
    mock.timers.tick(MINUTE)
    await settle()
    // 09:00: daily-digest (and workflow-recovery, every 5 minutes) start twice.
    assert.equal(runsOf('daily-digest'), 2)
    assert.equal(runsOf('workflow-recovery'), 2)
    await scheduler.stop()
    mock.timers.tick(5 * MINUTE)
    await settle()
    // 09:05: after stop(), workflow-recovery still runs, once, from the jobs of the first start().
    assert.equal(runsOf('workflow-recovery'), 3)
  } finally {
    for (const job of firstJobs) job.stop()
    restore()
    await scheduler.stop()
    mock.timers.reset()
  }
})

test('schedule-rpc-without-start: an InMemorySchedulerService whose start() was never called still runs a scheduleRPC call when it falls due', async () => {
  const fresh = new InMemorySchedulerService()
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: new Date(2026, 2, 5, 12, 0, 0) })
  try {
    const todo = await services.todoStore.create({ ownerId: owner.userId, title: 'Never started', done: false })
    const reminded = nextInfoLog(services, /"Never started"/)
    await fresh.scheduleRPC('1m', 'sendReminder', { todoId: todo.todoId })
    mock.timers.tick(MINUTE)
    await reminded
  } finally {
    await fresh.close()
    mock.timers.reset()
  }
})

test('stop-singletons-stops-scheduler: stopSingletonServices() calls stop() on the scheduler passed in as schedulerService', async () => {
  const probe = new InMemorySchedulerService()
  const stop = probe.stop
  let stops = 0
  probe.stop = async function (this: InMemorySchedulerService) {
    stops++
    return stop.call(this)
  }
  pikkuState(null, 'package', 'singletonServices', { logger: services.logger, schedulerService: probe } as never)
  try {
    await stopSingletonServices()
    assert.equal(stops, 1)
  } finally {
    setSingletonServices(services as never)
    await probe.close()
  }
})

test('stop-keeps-delayed-calls: stop() leaves a pending scheduleRPC call in place, and it still runs; close() cancels it', async () => {
  // Only setTimeout is mocked, so waitFor's deadline runs on the real clock.
  mock.timers.enable({ apis: ['setTimeout'] })
  const other = new InMemorySchedulerService()
  const logs = collectLogs(services, 'info')
  const reminders = () => logs.lines.filter((line) => /^Reminder for/.test(line))
  let keptId = ''
  try {
    const kept = await services.todoStore.create({ ownerId: owner.userId, title: 'Kept after stop', done: false })
    const dropped = await services.todoStore.create({ ownerId: owner.userId, title: 'Dropped by close', done: false })
    keptId = await scheduler.scheduleRPC('5m', 'sendReminder', { todoId: kept.todoId })
    const droppedId = await other.scheduleRPC('5m', 'sendReminder', { todoId: dropped.todoId })
    await scheduler.stop()
    await other.close()
    assert.equal((await scheduler.getTask(keptId))?.status, 'scheduled')
    assert.equal(await other.getTask(droppedId), null)
    mock.timers.tick(5 * MINUTE)
    await waitFor(async () => reminders().length, (n) => n > 0)
    await settle()
    assert.equal(reminders().length, 1)
    assert.match(reminders()[0]!, /"Kept after stop"/)
  } finally {
    logs.restore()
    // The shared scheduler's call has run by now; should the test stop early, it is taken off here.
    await scheduler.unschedule(keptId)
    await other.close()
    mock.timers.reset()
  }
})

test('stop-keeps-process-alive: after stop(), a pending scheduleRPC timer still holds a Node.js process open; after close() the process exits on its own', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/behaviour/harness/scheduler-child.ts'], { stdio: ['pipe', 'pipe', 'pipe'] })
  try {
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const report = await new Promise<{ hasRef: boolean; timeouts: number }>((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(JSON.parse(String(d))))
      exited.then(() => reject(new Error(`child exited early:\n${stderr}`)))
    })
    // stop() has run: the call's timer is still referenced, the one timeout the event loop waits for.
    assert.deepEqual(report, { hasRef: true, timeouts: 1 })
    assert.equal(child.exitCode, null)
    // close() clears it, and with nothing else to wait for the process ends by itself, with code 0.
    child.stdin.write('close\n')
    assert.equal(await exited, 0, stderr)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill()
  }
})

test('run-before-services: with no singleton services registered, runScheduledTask rejects with "Singleton services not initialized" and the task does not run', async () => {
  const digests = countDigests()
  pikkuState(null, 'package', 'singletonServices', null as never)
  try {
    await assert.rejects(runScheduledTask({ name: 'daily-digest' }), { message: 'Singleton services not initialized' })
    assert.equal(digests.runs, 0)
  } finally {
    setSingletonServices(services as never)
    digests.restore()
  }
  assert.equal(pikkuState(null, 'package', 'singletonServices'), services)
})
