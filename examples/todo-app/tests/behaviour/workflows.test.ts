// Workflows on the in-memory workflow service (src/services.ts): the reminder workflow started and read through the
// app's own routes (src/wirings/reminder-runs.http.ts), step retries, the day-long sleep fired with node:test's mock
// timers instead of real time, and the nudge graph.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkflowNotFoundError } from '@pikku/core/workflow'
import { rpcFor, startSessionApp, type SessionApp } from './harness/workflows.js'
import { collectLogs, waitFor, withWrappedFunction, type RegisteredFunc } from './harness/app.js'
import { compileScratch } from './harness/node-process.js'
import { withProbeRoute } from './harness/core-probes.js'

let app: SessionApp
let services: any
before(async () => {
  app = await startSessionApp()
  services = app.services
})
after(async () => {
  mock.timers.reset()
  // Clears the timers of sleeping runs, which would keep the process alive for a day.
  await services.workflowService.close()
  await app.stop()
})

const newTodo = (ownerId: string, title: string, done = false) => services.todoStore.create({ ownerId, title, done })
const day = 24 * 60 * 60 * 1000

/** Runs `start` with setTimeout mocked, moving the clock on by `step` ms until it settles. */
const withMockedTimeouts = async <T>(start: () => Promise<T>, step: number, { mockDate = false } = {}): Promise<T> => {
  mock.timers.reset()
  // With mockDate, Date moves with the mocked clock, so that each retry's record carries its own time, as it would
  // in real time (getRunStatus picks a step's latest record by time).
  mock.timers.enable(mockDate ? { apis: ['setTimeout', 'Date'], now: Date.now() } : { apis: ['setTimeout'] })
  let settled = false
  const result = start().finally(() => (settled = true))
  result.catch(() => {})
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve))
    if (!settled) mock.timers.tick(step)
  }
  return result
}

/** Collects what the app logs at error level while `body` runs. */
const loggedErrors = async (body: (errors: string[]) => Promise<void>): Promise<string[]> => {
  const errors: string[] = []
  const original = services.logger.error
  services.logger.error = (...args: unknown[]) => errors.push(args.map(String).join(' '))
  try {
    await body(errors)
  } finally {
    services.logger.error = original
  }
  return errors
}

/**
 * Registers, for one test, a DSL workflow named `name` with the body `func`, and the step functions `steps` (name:
 * function, sessionless, with `workflowQueued` where set), as the generated files would register them; `use` runs
 * with the workflow's name, and all of it is removed after.
 */
const withProbeWorkflow = async (
  name: string,
  func: (services: any, input: any, wire: any) => Promise<unknown>,
  use: (name: string) => Promise<void>,
  steps: Record<string, { func: RegisteredFunc; workflowQueued?: boolean }> = {},
) => {
  const { pikkuState } = await import('@pikku/core/state')
  const { addWorkflow } = await import('@pikku/core/workflow')
  const { addFunction } = await import('@pikku/core/function')
  const workflowsMeta = pikkuState(null, 'workflows', 'meta') as Record<string, any>
  const functionsMeta = pikkuState(null, 'function', 'meta') as Record<string, any>
  const rpcMeta = pikkuState(null, 'rpc', 'meta') as Record<string, string>
  workflowsMeta[name] = { name, pikkuFuncId: name, source: 'dsl', graphHash: `${name}-hash` }
  functionsMeta[name] = { pikkuFuncId: name, sessionless: true, inputSchemaName: null, outputSchemaName: null }
  addWorkflow(name, { func } as never)
  for (const [stepName, step] of Object.entries(steps)) {
    addFunction(stepName, { func: step.func } as never)
    functionsMeta[stepName] = { pikkuFuncId: stepName, sessionless: true, inputSchemaName: null, outputSchemaName: null, workflowQueued: step.workflowQueued }
    rpcMeta[stepName] = stepName
  }
  try {
    await use(name)
  } finally {
    delete workflowsMeta[name]
    delete functionsMeta[name]
    pikkuState(null, 'workflows', 'registrations').delete(name)
    pikkuState(null, 'function', 'functions').delete(name)
    for (const stepName of Object.keys(steps)) {
      delete functionsMeta[stepName]
      delete rpcMeta[stepName]
      pikkuState(null, 'function', 'functions').delete(stepName)
    }
  }
}

/** Core's error registry, which maps an error class to its HTTP status; the package does not export it by name. */
const errorStatuses = () => import(new URL('./error-handler.js', import.meta.resolve('@pikku/core/errors')).href)

/** Starts the probe workflow `name` inline; the run's id and, if the start rejected, its error's message. */
const startProbe = async (name: string, input: unknown = {}, wire: Record<string, unknown> = { type: 'test' }) => {
  const started = await services.workflowService.startWorkflow(name, input, wire, rpcFor(services)).then(
    ({ runId }: { runId: string }) => ({ runId, rejected: undefined as string | undefined }),
    (error: Error) => ({ runId: undefined as string | undefined, rejected: error.message }),
  )
  const runId = started.runId ?? (await services.workflowService.listRuns({ workflowName: name }))[0].id
  return { runId: runId as string, rejected: started.rejected }
}

test('http-start-parks-at-sleep: POST /todos/:todoId/reminder returns a run id once the run reaches its sleep', async () => {
  const todo = await newTodo('alice', 'Dentist')
  const started = await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)
  assert.equal(started.status, 200)
  const { runId } = await started.json()
  assert.match(runId, /^[0-9a-f-]{36}$/)
  const read = await app.call('alice', 'GET', `/reminder-runs/${runId}`)
  assert.equal(read.status, 200)
  assert.deepEqual(await read.json(), {
    status: 'running',
    steps: [
      { name: 'Remind the owner', status: 'succeeded' },
      { name: 'Give the owner a day', status: 'scheduled' },
    ],
  })
})

test('inline-step-gets-caller-wire: a step of an inline run started from an HTTP function gets that function\'s session, setSession and clearSession', async () => {
  // The step's registered function is wrapped for this test only, to record the wire it is called with.
  const wires: any[] = []
  const recordWire = (original: RegisteredFunc): RegisteredFunc => (services, data, wire) => {
    wires.push(wire)
    return original(services, data, wire)
  }
  await withWrappedFunction('sendReminder', recordWire, async () => {
    const todo = await newTodo('alice', 'Book the car in')
    const started = await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)
    assert.equal(started.status, 200)
  })
  assert.equal(wires.length, 1)
  // startTodoReminder passes its own rpc to startWorkflow; the step is called through it, with its wire.
  assert.deepEqual({ userId: wires[0].session?.userId, role: wires[0].session?.role }, { userId: 'alice', role: 'member' })
  assert.equal(typeof wires[0].setSession, 'function')
  assert.equal(typeof wires[0].clearSession, 'function')
  assert.ok(wires[0].http, 'the HTTP request of the starting call is on the step\'s wire too')
})

test('rpc-start-from-http-no-owner: a run started with rpc.startWorkflow from an HTTP function with a session records no owner, and another user may read it', async () => {
  // startTodoReminder is wrapped for this test only, to start the run the way a function usually would.
  const viaRpc = (): RegisteredFunc => async (_services, data, wire) => wire.rpc.startWorkflow('todoReminderWorkflow', { todoId: data.todoId })
  await withWrappedFunction('startTodoReminder', viaRpc, async () => {
    const todo = await newTodo('alice', 'Renew the passport', true)
    const started = await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)
    assert.equal(started.status, 200)
    const { runId } = await started.json()
    const run = await services.workflowService.getRun(runId)
    assert.equal(run.status, 'completed')
    assert.equal(run.wire.pikkuUserId, undefined)
    const read = await app.call('bob', 'GET', `/reminder-runs/${runId}`)
    assert.equal(read.status, 200)
  })
})

test('run-owner-only-403: another user reading a reminder run gets 403', async () => {
  const todo = await newTodo('alice', 'Call the bank')
  const { runId } = await (await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)).json()
  assert.equal((await services.workflowService.getRun(runId)).wire.pikkuUserId, 'alice')
  const other = await app.call('bob', 'GET', `/reminder-runs/${runId}`)
  assert.equal(other.status, 403)
  // assertWorkflowRunOwner's WorkflowRunForbiddenError, not a permission's ForbiddenError.
  const { name, message } = await other.json()
  assert.deepEqual({ name, message }, { name: 'WorkflowRunForbiddenError', message: 'Not authorized to access this workflow run' })
  assert.equal((await app.call('alice', 'GET', `/reminder-runs/${runId}`)).status, 200)
})

test('run-unknown-404: reading a run id the service does not hold answers 404', async () => {
  const response = await app.call('alice', 'GET', `/reminder-runs/${crypto.randomUUID()}`)
  assert.equal(response.status, 404)
})

test('run-not-found-404: continuing a run the service does not hold throws WorkflowRunNotFoundError, a 404', async () => {
  const { WorkflowRunNotFoundError } = await import('@pikku/core/workflow')
  const { getErrorResponse } = await errorStatuses()
  const error = await services.workflowService.runWorkflowJob(crypto.randomUUID(), rpcFor(services)).catch((e: Error) => e)
  assert.ok(error instanceof WorkflowRunNotFoundError)
  assert.equal(getErrorResponse(error)?.status, 404)
})

test('start-needs-todo-owner-403: starting the reminder of another user\'s to-do answers 403', async () => {
  const todo = await newTodo('alice', 'Water the plants')
  const response = await app.call('bob', 'POST', `/todos/${todo.todoId}/reminder`)
  assert.equal(response.status, 403)
})

test('done-todo-closed: a to-do that is already done ends the run as completed after one step, output closed', async () => {
  const todo = await newTodo('alice', 'Already done', true)
  const { runId } = await (await app.call('alice', 'POST', `/todos/${todo.todoId}/reminder`)).json()
  const read = await (await app.call('alice', 'GET', `/reminder-runs/${runId}`)).json()
  assert.deepEqual(read, { status: 'completed', steps: [{ name: 'Remind the owner', status: 'succeeded' }] })
  const run = await services.workflowService.getRun(runId)
  assert.deepEqual(run.output, { outcome: 'closed' })
  // workflow.do stored sendReminder's result under the step's name, and the body read it from there.
  const history = await services.workflowService.getRunHistory(runId)
  assert.deepEqual(history.map((s: any) => [s.stepName, s.result]), [['Remind the owner', { reminded: false }]])
})

test('run-to-completion-output: runToCompletion returns the output of the run', async () => {
  const todo = await newTodo('alice', 'Done before due', true)
  const output = await services.workflowService.runToCompletion('todoReminderWorkflow', { todoId: todo.todoId }, rpcFor(services))
  assert.deepEqual(output, { outcome: 'closed' })
})

test('sleep-timer-resume-needs-queue: when the in-memory sleep timer fires, the resume fails without a queue service and the run stays running', async () => {
  const todo = await newTodo('carol', 'Renew passport')
  const { runId } = await withMockedTimeouts<{ runId: string }>(
    () => services.workflowService.startWorkflow('todoReminderWorkflow', { todoId: todo.todoId }, { type: 'test' }, rpcFor(services)),
    1,
  )
  const sleepStep = () => services.workflowService.getStepState(runId, 'Give the owner a day')
  assert.equal((await sleepStep()).status, 'scheduled')
  const errors = await loggedErrors(async (errors) => {
    mock.timers.tick(day - 1)
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal((await sleepStep()).status, 'scheduled')
    mock.timers.tick(1)
    await waitFor(sleepStep, (step: any) => step.status === 'succeeded')
    await waitFor(async () => errors.length, (n) => n > 0)
  })
  mock.timers.reset()
  assert.match(errors.join('\n'), /QueueService not configured\. Remote workflows require a queue service\./)
  const status = await services.workflowService.getRunStatus(runId)
  assert.equal(status.status, 'running')
  assert.deepEqual(status.steps.map((s: any) => s.name), ['Remind the owner', 'Give the owner a day'])

  // The recovery sweep finds the run (nothing in flight) but cannot resume it either. A run counts as stalled when its
  // last activity is before now minus stalledAfterMs, strictly; -1 also counts a run last touched in this millisecond,
  // which 0 would skip on a fast machine.
  const recovery = await loggedErrors(async () => {
    const { resumed } = await services.workflowService.recoverStalledRuns({ stalledAfterMs: -1 })
    assert.deepEqual(resumed, [])
  })
  assert.match(recovery.join('\n'), new RegExp(`Failed to resume stalled workflow run ${runId}: QueueService not configured`))
})

test('step-retry-then-succeed: a step that fails twice is called again after retryDelay and the run carries on', async () => {
  const todo = await newTodo('dave', 'Book flights')
  const realGet = services.todoStore.get
  let calls = 0
  services.todoStore.get = async (id: string) => {
    calls++
    if (calls <= 2) throw new Error('store briefly down')
    return realGet.call(services.todoStore, id)
  }
  try {
    // retryDelay is '30s': the mocked clock moves 30 s at a time.
    const { runId } = await withMockedTimeouts<{ runId: string }>(
      () => services.workflowService.startWorkflow('todoReminderWorkflow', { todoId: todo.todoId }, { type: 'test' }, rpcFor(services)),
      30_000,
      { mockDate: true },
    )
    mock.timers.reset()
    assert.equal(calls, 3)
    const history = await services.workflowService.getRunHistory(runId)
    assert.deepEqual(
      history.filter((s: any) => s.stepName === 'Remind the owner').map((s: any) => [s.attemptCount, s.status]),
      [[1, 'failed'], [2, 'failed'], [3, 'succeeded']],
    )
    const status = await services.workflowService.getRunStatus(runId)
    assert.equal(status.status, 'running')
    assert.deepEqual(status.steps.map((s: any) => [s.name, s.status, s.attempts]), [
      ['Remind the owner', 'succeeded', 3],
      ['Give the owner a day', 'scheduled', 1],
    ])
  } finally {
    services.todoStore.get = realGet
    mock.timers.reset()
  }
})

test('step-retries-exhausted: with retries 3 a failing step is called three times, then the run fails with its error', async () => {
  const todo = await newTodo('dave', 'Fix the bike')
  const realGet = services.todoStore.get
  let calls = 0
  services.todoStore.get = async () => {
    calls++
    throw new Error('store down')
  }
  try {
    const outcome = await withMockedTimeouts(
      () =>
        services.workflowService
          .startWorkflow('todoReminderWorkflow', { todoId: todo.todoId }, { type: 'test' }, rpcFor(services))
          .then(() => 'resolved', (error: Error) => error),
      30_000,
      { mockDate: true },
    )
    mock.timers.reset()
    assert.equal(calls, 3)
    // An inline run that fails rejects startWorkflow with the step's own error.
    assert.ok(outcome instanceof Error)
    assert.equal(outcome.message, 'store down')
    const runs = await services.workflowService.listRuns({ workflowName: 'todoReminderWorkflow' })
    const failed = runs.find((run: any) => run.input.todoId === todo.todoId)
    const status = await services.workflowService.getRunStatus(failed.id)
    assert.equal(status.status, 'failed')
    assert.deepEqual(status.error, { message: 'store down' })
    assert.deepEqual(status.steps.map((s: any) => [s.name, s.status, s.attempts]), [['Remind the owner', 'failed', 3]])
    const history = await services.workflowService.getRunHistory(failed.id)
    assert.deepEqual(
      history.filter((s: any) => s.stepName === 'Remind the owner').map((s: any) => [s.attemptCount, s.status]),
      [[1, 'failed'], [2, 'failed'], [3, 'failed']],
    )
  } finally {
    services.todoStore.get = realGet
    mock.timers.reset()
  }
})

test('step-retries-zero-one-call: with retries 0 or 1 a failing step is called once, with no retry, and the run fails', async () => {
  for (const retries of [0, 1]) {
    let calls = 0
    const flaky = async () => {
      calls++
      throw new Error('flaky down')
    }
    await withProbeWorkflow(
      `retriesProbe${retries}`,
      async (_services, _input, { workflow }) => workflow.do('Flaky', 'probeFlakyStep', {}, { retries }),
      async (name) => {
        const { runId, rejected } = await startProbe(name)
        assert.deepEqual([retries, calls, rejected], [retries, 1, 'flaky down'])
        assert.equal((await services.workflowService.getRun(runId)).status, 'failed')
        const history = await services.workflowService.getRunHistory(runId)
        assert.deepEqual(history.map((s: any) => [s.stepName, s.attemptCount, s.status]), [['Flaky', 1, 'failed']])
      },
      { probeFlakyStep: { func: flaky } },
    )
  }
})

test('step-retry-delay-not-a-duration: with a retryDelay string that is not a duration, the first failure of an in-process step fails the run with "Invalid duration format" instead of retrying it', async () => {
  let calls = 0
  const flaky: RegisteredFunc = async () => {
    calls++
    throw new Error('printer jammed')
  }
  const body = async (_services: any, _input: any, { workflow }: any) => {
    await workflow.do('Print the label', 'flakyPrintProbe', {}, { retries: 3, retryDelay: '30 seconds' })
    return { printed: true }
  }
  await withProbeWorkflow('retryDelayProbe', body, async (name) => {
    const { runId, rejected } = await startProbe(name)
    assert.match(rejected ?? '', /^Invalid duration format: 30 seconds\./)
    assert.equal(calls, 1)
    const run = await services.workflowService.getRun(runId)
    assert.equal(run.status, 'failed')
    assert.match(run.error.message, /^Invalid duration format: 30 seconds\./)
  }, { flakyPrintProbe: { func: flaky } })
})

test('step-onerror-inline-not-called: a step retried in the process running the body fails the run without calling its onError function', async () => {
  let compensated = 0
  await withProbeWorkflow(
    'onErrorInlineProbe',
    async (_services, _input, { workflow }) => workflow.do('Charge', 'probeChargeStep', {}, { retries: 2, onError: 'probeRefundStep' }),
    async (name) => {
      const { runId, rejected } = await startProbe(name)
      assert.equal(rejected, 'card declined')
      assert.equal((await services.workflowService.getRun(runId)).status, 'failed')
      assert.equal(compensated, 0)
      const history = await services.workflowService.getRunHistory(runId)
      assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['Charge', 'failed'], ['Charge', 'failed']])
    },
    {
      probeChargeStep: { func: async () => { throw new Error('card declined') } },
      probeRefundStep: { func: async () => { compensated++ } },
    },
  )
})

test('queued-step-failed-attempt-replayed: a replay of the run between a failed attempt of a queued step and the queue\'s retry finds the step failed, calls its onError function and fails the run with attempts left', async () => {
  let compensated = 0
  const jobs: any[] = []
  services.queueService = { add: async (queue: string, data: any) => { jobs.push({ queue, step: data.stepName }); return 'job' } }
  try {
    await withProbeWorkflow(
      'queuedReplayProbe',
      async (_services, _input, { workflow }) => workflow.do('Charge', 'probeQueuedCharge', {}, { onError: 'probeQueuedRefund' }),
      async (name) => {
        const rpc = rpcFor(services)
        const { runId } = await services.workflowService.startWorkflow(name, {}, { type: 'test' }, rpc, { inline: true })
        assert.deepEqual(jobs, [{ queue: 'pikku-workflow-step-worker', step: 'Charge' }])
        // The step worker's first attempt fails; 5 retries are left, so the worker does not resume the run.
        await assert.rejects(services.workflowService.executeWorkflowStep(runId, 'Charge', 'probeQueuedCharge', {}, rpc), { message: 'card declined' })
        const [step] = await services.workflowService.getRunHistory(runId)
        assert.deepEqual([step.status, step.attemptCount, step.retries], ['failed', 1, 5])
        assert.equal((await services.workflowService.getRun(runId)).status, 'running')
        // An orchestrator job for the run arriving before the queue retries the step (a redelivery, another step's resume).
        await assert.rejects(services.workflowService.orchestrateWorkflow(runId, rpc), { message: 'card declined' })
        assert.equal(compensated, 1)
        const run = await services.workflowService.getRun(runId)
        assert.deepEqual([run.status, run.error.message], ['failed', 'card declined'])
      },
      {
        probeQueuedCharge: { func: async () => { throw new Error('card declined') }, workflowQueued: true },
        probeQueuedRefund: { func: async () => { compensated++ } },
      },
    )
  } finally {
    delete services.queueService
  }
})

test('do-child-workflow-step: a do step naming a workflow fails when the child fails or is cancelled, starting a new child on each retry; a child that suspends gives the step no output and the parent carries on', async () => {
  const { WorkflowCancelledException } = await import('@pikku/core/workflow')
  const parentOf = (child: string) => async (_services: any, _input: any, { workflow }: any) => ({
    got: await workflow.do('Call the child', child, {}, { retries: 2 }),
  })
  const childRuns = async (child: string, parentRunId: string) =>
    (await services.workflowService.listRuns({ workflowName: child })).filter((r: any) => (r.wire ?? {}).parentRunId === parentRunId)
  for (const [child, body] of [
    ['brokenChildProbe', async () => { throw new Error('child broke') }],
    ['cancelledChildProbe', async (_s: any, _i: any, { workflow }: any) => { throw new WorkflowCancelledException(workflow.runId, 'Not needed') }],
  ] as const) {
    await withProbeWorkflow(child, body as any, async () => {
      await withProbeWorkflow(`${child}Parent`, parentOf(child), async (parent) => {
        const { runId } = await startProbe(parent)
        assert.equal((await services.workflowService.getRun(runId)).status, 'failed')
        const history = await services.workflowService.getRunHistory(runId)
        assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['Call the child', 'failed'], ['Call the child', 'failed']])
        assert.equal((await childRuns(child, runId)).length, 2)
      })
    })
  }
  await withSuspendProbe('suspendingChildProbe', async (child) => {
    await withProbeWorkflow('suspendingChildParent', parentOf(child), async (parent) => {
      const { runId, rejected } = await startProbe(parent)
      assert.equal(rejected, undefined)
      const run = await services.workflowService.getRun(runId)
      assert.equal(run.status, 'completed')
      assert.deepStrictEqual(run.output, { got: undefined })
      const [childRun] = await childRuns(child, runId)
      assert.equal(childRun.status, 'suspended')
    })
  })
})

test('step-name-ordinals: a step name reached again in one run is recorded as name#1, name#2', async () => {
  await withProbeWorkflow(
    'stepOrdinalsProbe',
    async (_services, input, { workflow }) => {
      const seen: unknown[] = []
      for (const n of input.items) seen.push(await workflow.do('Check', 'probeEchoStep', { n }))
      return seen
    },
    async (name) => {
      const { runId, rejected } = await startProbe(name, { items: [1, 2, 3] })
      assert.equal(rejected, undefined)
      const history = await services.workflowService.getRunHistory(runId)
      assert.deepEqual(history.map((s: any) => [s.stepName, s.result]), [['Check', { n: 1 }], ['Check#1', { n: 2 }], ['Check#2', { n: 3 }]])
      assert.deepEqual((await services.workflowService.getRun(runId)).output, [{ n: 1 }, { n: 2 }, { n: 3 }])
    },
    { probeEchoStep: { func: async (_services, data) => data } },
  )
})

test('do-names-typed: against the app\'s generated TypedWorkflow, a misspelt function name in workflow.do and a wrong input type both fail to compile (TS2769, no overload matches)', async () => {
  const { output } = await compileScratch(
    'workflow-do-names',
    {
      'steps.ts': [
        "import type { TypedWorkflow } from '../../.pikku/workflow/pikku-workflow-types.gen.js'",
        'declare const workflow: TypedWorkflow',
        "export const misspelt = workflow.do('remind', 'sendReminders', { todoId: 't' })",
        "export const wrongInput = workflow.do('remind', 'sendReminder', { todoId: 5 })",
        "export const right = workflow.do('remind', 'sendReminder', { todoId: 't' })",
      ].join('\n'),
    },
    { appConfig: true },
  )
  const probeErrors = [...output.matchAll(/\bsteps\.ts\((\d+),\d+\): error (TS\d+)/g)].map(([, line, code]) => `${line} ${code}`)
  assert.deepEqual(probeErrors, ['3 TS2769', '4 TS2769'], output)
})

test('step-wire-workflow-step: a do step\'s function gets workflowStep with runId, stepId, attemptCount, invocationId (the same on a retry) and fromInvocationId; the in-memory store gives a retry a new stepId', async () => {
  const seen: Record<string, any[]> = { first: [], second: [] }
  let secondCalls = 0
  await withProbeWorkflow(
    'stepWireProbe',
    async (_services, _input, { workflow }) => {
      await workflow.do('First', 'probeFirstStep', {})
      await workflow.do('Second', 'probeSecondStep', {}, { retries: 2 })
    },
    async (name) => {
      const { runId, rejected } = await startProbe(name)
      assert.equal(rejected, undefined)
      const [first] = seen.first
      assert.deepEqual([first.runId, first.attemptCount, first.fromInvocationId, typeof first.stepId], [runId, 1, undefined, 'string'])
      assert.deepEqual(seen.second.map((w) => w.attemptCount), [1, 2])
      assert.equal(seen.second[0].invocationId, seen.second[1].invocationId)
      assert.notEqual(seen.second[0].invocationId, first.invocationId)
      assert.deepEqual(seen.second.map((w) => w.fromInvocationId), [first.invocationId, first.invocationId])
      assert.notEqual(seen.second[0].stepId, seen.second[1].stepId)
    },
    {
      probeFirstStep: { func: async (_services, _data, wire) => { seen.first.push(wire.workflowStep) } },
      probeSecondStep: {
        func: async (_services, _data, wire) => {
          seen.second.push(wire.workflowStep)
          if (++secondCalls === 1) throw new Error('once')
        },
      },
    },
  )
})

test('queued-step-without-queue-service: a workflowQueued step with no queue service throws before its function is called, is not retried, stays pending, and the run fails', async () => {
  let calls = 0
  await withProbeWorkflow(
    'queuedStepProbe',
    async (_services, _input, { workflow }) => workflow.do('Heavy', 'probeQueuedStep', {}),
    async (name) => {
      assert.equal(services.queueService, undefined)
      const { runId, rejected } = await startProbe(name)
      assert.equal(rejected, "Workflow step 'Heavy' (function 'probeQueuedStep') is marked 'workflowQueued: true' but no queue service is configured.")
      assert.equal(calls, 0)
      const history = await services.workflowService.getRunHistory(runId)
      assert.deepEqual(history.map((s: any) => [s.stepName, s.status, s.attemptCount]), [['Heavy', 'pending', 1]])
      assert.equal((await services.workflowService.getRun(runId)).status, 'failed')
    },
    { probeQueuedStep: { func: async () => { calls++ }, workflowQueued: true } },
  )
})

test('queued-step-job-options: an inline run with a queue service sends a workflowQueued step to the step-worker queue with retries + 1 attempts (6 by default) and exponential backoff with no delay (none for retries: 0), and leaves the step scheduled; a step with an actor is called through it instead', async () => {
  const jobs: any[] = []
  let called = 0
  services.queueService = { add: async (queue: string, data: any, options: any) => { jobs.push({ queue, step: data.stepName, options }); return 'job' } }
  try {
    await withProbeWorkflow(
      'queuedStepOptionsProbe',
      async (_services, input, { workflow }) => {
        if (input.actor) return workflow.do('Via actor', 'probeQueuedStep', {}, { actor: { invoke: async () => ({ by: 'actor' }) } })
        return workflow.do('Charge', 'probeQueuedStep', {}, input.retries === undefined ? {} : { retries: input.retries })
      },
      async (name) => {
        // retries: 0 leaves no retry, and the job gets no backoff.
        for (const [retries, attempts, backoff] of [[undefined, 6, 'exponential'], [2, 3, 'exponential'], [0, 1, undefined]] as const) {
          jobs.length = 0
          // Inline, as runToCompletion starts a run: with a queue service, startWorkflow would otherwise queue the body.
          const { runId } = await services.workflowService.startWorkflow(name, { retries }, { type: 'test' }, rpcFor(services), { inline: true })
          assert.deepEqual(jobs.map((job) => [job.queue, job.step, job.options.attempts, job.options.backoff]), [['pikku-workflow-step-worker', 'Charge', attempts, backoff]])
          const history = await services.workflowService.getRunHistory(runId)
          assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['Charge', 'scheduled']])
        }
        // With the actor option the step is not dispatched: the actor is called in this process, and the run completes.
        jobs.length = 0
        const viaActor = await services.workflowService.startWorkflow(name, { actor: true }, { type: 'test' }, rpcFor(services), { inline: true })
        assert.deepEqual(jobs, [])
        const run = await services.workflowService.getRun(viaActor.runId)
        assert.deepEqual([run.status, run.output], ['completed', { by: 'actor' }])
        assert.equal(called, 0)
      },
      { probeQueuedStep: { func: async () => { called++ }, workflowQueued: true } },
    )
  } finally {
    delete services.queueService
  }
})

test('cancelled-exception-cancels-run: a body that throws WorkflowCancelledException ends the run as cancelled with its reason', async () => {
  const { WorkflowCancelledException } = await import('@pikku/core/workflow')
  await withProbeWorkflow(
    'cancelProbe',
    async (_services, _input, { workflow }) => {
      throw new WorkflowCancelledException(workflow.runId, 'Nothing left to do')
    },
    async (name) => {
      const { runId } = await startProbe(name)
      const run = await services.workflowService.getRun(runId)
      assert.equal(run.status, 'cancelled')
      assert.equal(run.error.message, 'Nothing left to do')
    },
  )
})

test('run-to-completion-internal-wire: runToCompletion records the wire { type: \'internal\' } unless its options carry one, and a run with no recorded owner passes assertWorkflowRunOwner for any session', async () => {
  const { assertWorkflowRunOwner } = await import('@pikku/core/workflow')
  await withProbeWorkflow('internalWireProbe', async () => ({ done: true }), async (name) => {
    const wf = services.workflowService
    assert.deepEqual(await wf.runToCompletion(name, {}, rpcFor(services)), { done: true })
    await wf.runToCompletion(name, {}, rpcFor(services), { wire: { type: 'test', pikkuUserId: 'alice' } })
    const runs = await wf.listRuns({ workflowName: name })
    const wires = runs.map((run: any) => run.wire)
    assert.equal(wires.length, 2)
    assert.ok(wires.some((wire: any) => wire.type === 'internal' && wire.pikkuUserId === undefined), JSON.stringify(wires))
    assert.ok(wires.some((wire: any) => wire.pikkuUserId === 'alice'), JSON.stringify(wires))
    const internal = wires.find((wire: any) => wire.type === 'internal')
    assert.doesNotThrow(() => assertWorkflowRunOwner(internal, { userId: 'bob' } as never))
    assert.throws(() => assertWorkflowRunOwner(wires.find((wire: any) => wire.pikkuUserId === 'alice'), { userId: 'bob' } as never), { name: 'WorkflowRunForbiddenError' })
  })
})

test('run-to-completion-failure-error: runToCompletion of a run whose step fails throws that step\'s error, not WorkflowRunFailedError', async () => {
  const todo = await newTodo('dave', 'Paint the fence')
  const realGet = services.todoStore.get
  services.todoStore.get = async () => {
    throw new Error('store down')
  }
  try {
    const error = await withMockedTimeouts(
      () =>
        services.workflowService
          .runToCompletion('todoReminderWorkflow', { todoId: todo.todoId }, rpcFor(services))
          .then(() => undefined, (e: Error) => e),
      30_000,
      { mockDate: true },
    )
    assert.ok(error instanceof Error)
    assert.equal(error.name, 'Error')
    assert.equal(error.message, 'store down')
  } finally {
    services.todoStore.get = realGet
    mock.timers.reset()
  }
})

test('run-to-completion-graph-and-cancel: runToCompletion of a graph whose node fails rejects with WorkflowRunFailedError (422), of a graph that completes resolves with no value, and of a run that cancels rejects with WorkflowRunCancelledError (409)', async () => {
  const { WorkflowCancelledException } = await import('@pikku/core/workflow')
  const { getErrorResponse } = await errorStatuses()
  await withTestGraph('rtcGraph', { check: { nodeId: 'check', rpcName: 'isTodoOpen', input: {} } }, ['check'], async () => {
    // isTodoOpen is called with {} and refuses it: the inline graph records a failed run instead of throwing.
    const failed = await services.workflowService.runToCompletion('rtcGraph', {}, rpcFor(services)).catch((e: Error) => e)
    assert.equal(failed.constructor.name, 'WorkflowRunFailedError')
    assert.equal(getErrorResponse(failed)?.status, 422)
  })
  await withTestGraph('rtcDoneGraph', { ok: { nodeId: 'ok', rpcName: 'health', input: {} } }, ['ok'], async () => {
    assert.equal(await services.workflowService.runToCompletion('rtcDoneGraph', {}, rpcFor(services)), undefined)
  })
  await withProbeWorkflow(
    'rtcCancelProbe',
    async (_services, _input, { workflow }) => {
      throw new WorkflowCancelledException(workflow.runId, 'Nothing left to do')
    },
    async (name) => {
      const cancelled = await services.workflowService.runToCompletion(name, {}, rpcFor(services)).catch((e: Error) => e)
      assert.equal(cancelled.constructor.name, 'WorkflowRunCancelledError')
      assert.equal(getErrorResponse(cancelled)?.status, 409)
    },
  )
})

test('unknown-workflow-404: starting a name that is not a generated workflow throws WorkflowNotFoundError', async () => {
  await assert.rejects(
    services.workflowService.startWorkflow('noSuchWorkflow', {}, { type: 'test' }, rpcFor(services)),
    (error: Error) => error instanceof WorkflowNotFoundError && error.message === 'Workflow not found: noSuchWorkflow',
  )
})

test('graph-foreach-steps: the nudge graph lists the open to-dos, then runs remind once per id as remind[0], remind[1]', async () => {
  const first = await newTodo('erin', 'First')
  const second = await newTodo('erin', 'Second')
  await newTodo('erin', 'Finished', true)
  const { runId } = await services.workflowService.startWorkflow(
    'nudgeOwnerGraph',
    { ownerId: 'erin' },
    { type: 'test', pikkuUserId: 'erin' },
    rpcFor(services, 'erin'),
  )
  const run = await services.workflowService.getRun(runId)
  assert.equal(run.status, 'completed')
  // The wire passed to startWorkflow is recorded as it is: its user id is the run's owner.
  assert.equal(run.wire.pikkuUserId, 'erin')
  const history = await services.workflowService.getRunHistory(runId)
  assert.deepEqual(
    history.map((s: any) => [s.stepName, s.status, s.result]),
    [
      ['findOpen', 'succeeded', { todoIds: [first.todoId, second.todoId] }],
      ['remind[0]', 'succeeded', { reminded: true }],
      ['remind[1]', 'succeeded', { reminded: true }],
    ],
  )
})

test('graph-start-node-refused: a startNode that is not an entry node is refused before any node runs', async () => {
  const before = (await services.workflowService.listRuns({ workflowName: 'nudgeOwnerGraph' })).length
  await assert.rejects(
    services.workflowService.startWorkflow('nudgeOwnerGraph', { ownerId: 'erin' }, { type: 'test' }, rpcFor(services), {
      startNode: 'remind',
    }),
    { message: "Workflow graph 'nudgeOwnerGraph': 'remind' is not a declared entry node" },
  )
  assert.equal((await services.workflowService.listRuns({ workflowName: 'nudgeOwnerGraph' })).length, before)
})

test('no-workflow-service: rpc.startWorkflow in a process without a workflowService throws "WorkflowService service not available"', async () => {
  const { workflowService: _, ...withoutWorkflows } = services
  await assert.rejects(rpcFor(withoutWorkflows).startWorkflow('todoReminderWorkflow', { todoId: 'x' }), {
    message: 'WorkflowService service not available',
  })
})

test('generated-routes-not-enabled-404: the app does not turn on the workflow scaffold, so POST /workflow/:workflowName/start answers 404', async () => {
  const response = await app.call('alice', 'POST', '/workflow/todoReminderWorkflow/start', { data: { todoId: 'x' } })
  assert.equal(response.status, 404)
})

test('dsl-shapes-inspector: the inspector refuses a let or destructured for...of variable, an unawaited step, a destructured input, a top-level declaration of two names and a destructured step result with PKU641, accepts an array pattern over a Promise.all of steps and a destructure of a value that is not a step, lets a call inside an array literal through, leaves a plain throw out of the graph silently while a thrown WorkflowCancelledException becomes a cancel step, and lets a pikkuWorkflowComplexFunc destructure its input', async () => {
  const { codes, inspectFiles } = await import('./harness/inspector.js')
  const step = "await workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId })"
  const loopStep = "await workflow.do('Escalate', 'escalateTodo', { todoId })"
  // One workflow per shape, all inspected in one pass (the inspector is the slow part); `allow` lets the complex one in.
  const shapes: Record<string, [body: string, param?: string, factory?: string]> = {
    constLoop: [`for (const todoId of input.todoIds) {\n${loopStep}\n}`],
    letLoop: [`for (let todoId of input.todoIds) {\n${loopStep}\n}`],
    destructuredLoop: ["for (const { id } of input.items) {\nawait workflow.do('Escalate', 'escalateTodo', { todoId: id })\n}"],
    unawaited: ["workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId })"],
    inArray: [`const calls = [workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId })]\n${step}`],
    plainThrow: [`if (!input.todoId) {\nthrow new Error('no id')\n}\n${step}`],
    cancelThrow: [`${step}\nthrow new WorkflowCancelledException(input.todoId, 'nothing left')`],
    destructuredInput: ["await workflow.do('Escalate', 'escalateTodo', { todoId })", '{ todoId }'],
    complexDestructured: ["await workflow.do('Escalate', 'escalateTodo', { todoId })", '{ todoId }', 'pikkuWorkflowComplexFunc'],
    // Top-level declarations: two names in one statement, even plain constants, and a destructured step result are refused.
    twoNames: [`const first = 1, second = 2\n${step}`],
    destructuredStep: ["const { escalationKey } = await workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId })"],
    pairFromAll: [
      "const [one, two] = await Promise.all([workflow.do('Escalate', 'escalateTodo', { todoId: input.todoId }), workflow.do('Escalate again', 'escalateTodo', { todoId: input.todoId })])",
    ],
    // Destructuring a value that is not a step, two names in one statement, is let through.
    destructuredValue: ["const { todoId, todoIds } = input\nawait workflow.do('Escalate', 'escalateTodo', { todoId })"],
  }
  const file = [
    "import { pikkuWorkflowFunc, pikkuWorkflowComplexFunc, WorkflowCancelledException } from '#pikku/workflow'",
    ...Object.entries(shapes).map(([name, [body, param = 'input', factory = 'pikkuWorkflowFunc']]) =>
      [
        `export const ${name} = ${factory}<{ todoId: string; todoIds: string[]; items: { id: string }[] }, void>({`,
        `  func: async (_services, ${param}, { workflow }) => {`,
        body,
        '  },',
        '})',
      ].join('\n'),
    ),
  ].join('\n')
  const { reported, state } = await inspectFiles('dsl-shapes', { 'probe.workflow.ts': file }, { allow: { complexWorkflows: true } })
  assert.deepEqual(codes(reported), Array(6).fill('PKU641 critical'))
  const types = Object.fromEntries(Object.keys(shapes).map((name) => [name, state.workflows.meta[name]?.steps?.map((s: any) => s.type) ?? 'refused']))
  assert.deepEqual(types, {
    constLoop: ['fanout'],
    letLoop: 'refused',
    destructuredLoop: 'refused',
    unawaited: 'refused',
    // The call in the array passes the await check and is left out of the graph.
    inArray: ['rpc'],
    // The branch holds only the throw, which is not in the graph.
    plainThrow: ['branch', 'rpc'],
    // A thrown WorkflowCancelledException is in the graph, as a cancel step.
    cancelThrow: ['rpc', 'cancel'],
    destructuredInput: 'refused',
    complexDestructured: ['rpc'],
    twoNames: 'refused',
    destructuredStep: 'refused',
    pairFromAll: ['parallel'],
    destructuredValue: ['rpc'],
  })
})

test('changed-definition-fails-run: a run replayed after its workflow\'s graph hash changed fails when no version of the old definition was stored', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const todo = await newTodo('frank', 'Book the car service')
  const { runId } = await services.workflowService.startWorkflow('todoReminderWorkflow', { todoId: todo.todoId }, { type: 'test' }, rpcFor(services))
  assert.equal((await services.workflowService.getStepState(runId, 'Give the owner a day')).status, 'scheduled')
  // A new deployment with an edited body: the generated hash differs from the one the run recorded. Restored below.
  const meta = pikkuState(null, 'workflows', 'meta').todoReminderWorkflow
  const recordedHash = meta.graphHash
  meta.graphHash = 'an-edited-definition'
  try {
    // What the orchestrator queue worker does when the sleep ends.
    await services.workflowService.runWorkflowJob(runId, rpcFor(services))
  } finally {
    meta.graphHash = recordedHash
  }
  const run = await services.workflowService.getRun(runId)
  assert.equal(run.status, 'failed')
  assert.equal(run.error.message, `Workflow 'todoReminderWorkflow' version '${recordedHash}' not found. Cannot resume with changed definition.`)
})

/**
 * Registers, for one test, a DSL workflow named `name` that suspends with the reason 'Wait for a review' and, once
 * resumed, returns what `resumed()` gives ({ passed: true } unless set), as the generated files would register it;
 * `use` runs with it, and it is removed after.
 */
const withSuspendProbe = (name: string, use: (name: string) => Promise<void>, resumed: () => unknown = () => ({ passed: true })) =>
  withProbeWorkflow(
    name,
    async (_services, _input, { workflow }) => {
      await workflow.suspend('Wait for a review')
      return resumed()
    },
    use,
  )

test('suspend-passed-by-any-decision: a decision for any reason wakes a suspended run, and the replay walks past workflow.suspend', async () => {
  const jobs: unknown[] = []
  await withSuspendProbe('suspendProbeWorkflow', async (name) => {
    const { runId } = await services.workflowService.startWorkflow(name, {}, { type: 'test' }, rpcFor(services))
    assert.equal((await services.workflowService.getRun(runId)).status, 'suspended')
    // The suspension point is recorded as succeeded at the moment the run suspends.
    const history = await services.workflowService.getRunHistory(runId)
    assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['__workflow_suspend:Wait for a review', 'succeeded']])

    // A queue service that only records its jobs, so that resumeWorkflow can put the run on the orchestrator queue.
    services.queueService = { add: async (queue: string, data: unknown) => { jobs.push({ queue, data }); return 'job' } }
    try {
      // No approval gate has this reason; the decision is stored and the run woken all the same.
      await services.workflowService.approveStep(runId, 'a gate this workflow does not have', { ok: true })
    } finally {
      delete services.queueService
    }
    assert.deepEqual(jobs, [{ queue: 'pikku-workflow-orchestrator', data: { runId } }])
    // What the orchestrator queue worker does with that job.
    await services.workflowService.orchestrateWorkflow(runId, rpcFor(services))
    const run = await services.workflowService.getRun(runId)
    assert.equal(run.status, 'completed')
    assert.deepEqual(run.output, { passed: true })
  })
})

test('suspended-error-kept: a suspended run that resumes and completes keeps the suspension reason as its error on the in-memory store', async () => {
  await withSuspendProbe('suspendErrorProbeWorkflow', async (name) => {
    const { runId } = await services.workflowService.startWorkflow(name, {}, { type: 'test' }, rpcFor(services))
    assert.equal((await services.workflowService.getRun(runId)).status, 'suspended')
    // What the orchestrator queue worker does once resumeWorkflow has queued the run.
    await services.workflowService.orchestrateWorkflow(runId, rpcFor(services))
    const run = await services.workflowService.getRun(runId)
    assert.equal(run.status, 'completed')
    assert.deepEqual(run.output, { passed: true })
    assert.equal(run.error.code, 'WORKFLOW_SUSPENDED')
    const status = await services.workflowService.getRunStatus(runId)
    assert.equal(status.status, 'completed')
    assert.deepEqual(status.error, { message: 'Wait for a review' })
  })
})

test('resume-without-queue-stays-suspended: resumeWorkflow in a process without a queue service throws and the run stays suspended', async () => {
  await withSuspendProbe('resumeNoQueueProbe', async (name) => {
    const { runId } = await startProbe(name)
    assert.equal(services.queueService, undefined)
    await assert.rejects(services.workflowService.resumeWorkflow(runId), {
      message: 'QueueService not configured. Remote workflows require a queue service.',
    })
    assert.equal((await services.workflowService.getRun(runId)).status, 'suspended')
  })
})

test('run-to-completion-suspend-no-output: runToCompletion of a run that suspends resolves with no output and the run stays suspended', async () => {
  await withSuspendProbe('completionSuspendProbe', async (name) => {
    const output = await services.workflowService.runToCompletion(name, {}, rpcFor(services))
    assert.equal(output, undefined)
    const [run] = await services.workflowService.listRuns({ workflowName: name })
    assert.equal(run.status, 'suspended')
  })
})

test('run-to-completion-sleep-holds: on the in-memory store runToCompletion of a workflow that sleeps, with no queue service, parks the run at the sleep still running and goes on reading it without settling', async () => {
  const wf = services.workflowService
  const todo = await newTodo('ivan', 'Water the plants')
  const getRun = wf.getRun
  let reads = 0
  wf.getRun = (...args: unknown[]) => (reads++, getRun.apply(wf, args))
  let settled = false
  const call = wf.runToCompletion('todoReminderWorkflow', { todoId: todo.todoId }, rpcFor(services), { pollIntervalMs: 10 })
  call.then(() => (settled = true), () => (settled = true))
  let runId: string | undefined
  try {
    const run = await waitFor(
      async () => (await wf.listRuns({ workflowName: 'todoReminderWorkflow' })).find((r: any) => r.input?.todoId === todo.todoId),
      (r: any) => r !== undefined,
    )
    runId = run.id as string
    await waitFor(() => wf.getStepState(runId, 'Give the owner a day').catch(() => undefined), (step: any) => step?.status === 'scheduled')
    const parkedAt = reads
    await waitFor(async () => reads, (n) => n >= parkedAt + 5)
    assert.equal((await getRun.call(wf, runId)).status, 'running')
    assert.equal(settled, false)
  } finally {
    wf.getRun = getRun
    // Ends the call: a cancelled run is an end state for it.
    if (runId) await wf.updateRunStatus(runId, 'cancelled')
    await call.catch(() => undefined)
  }
})

test('approval-expiry-wake-needs-queue: reaching an approval with an expiry puts a delayed wake-up on the orchestrator queue; without a queue service that only logs a warning and the run stays suspended past its expiry', async () => {
  const { z } = await import('zod')
  const reason = 'Approve within the hour'
  await withProbeWorkflow(
    'approvalExpiryProbe',
    async (_services, _input, { workflow }) => workflow.approval(reason, { schema: z.object({ ok: z.boolean() }), expiry: 50 }),
    async (name) => {
      const wf = services.workflowService
      const warnings = collectLogs(services, 'warn')
      try {
        // No queue service: the wake-up cannot be queued, so it is only logged.
        const { runId } = await startProbe(name)
        const wakeWarnings = warnings.lines.filter((w) => w.startsWith('Failed to schedule approval expiry wake'))
        assert.equal(wakeWarnings.length, 1, wakeWarnings.join('\n'))
        assert.ok(wakeWarnings[0].startsWith(`Failed to schedule approval expiry wake for run ${runId}; expiry will still resolve on the next replay`))
        const [record] = Object.values(await wf.getRunState(runId)) as any[]
        await waitFor(async () => Date.now(), (now) => now > Date.parse(record.expiresAt))
        assert.equal((await wf.getRun(runId)).status, 'suspended')
        // With a queue service, the same gate queues the run's orchestrator job with the expiry as its delay.
        const jobs: any[] = []
        services.queueService = { add: async (queue: string, data: unknown, options: any) => { jobs.push({ queue, data, delay: options?.delay }); return 'job' } }
        try {
          const queued = await services.workflowService.startWorkflow(name, {}, { type: 'test' }, rpcFor(services), { inline: true })
          assert.deepEqual(jobs, [{ queue: 'pikku-workflow-orchestrator', data: { runId: queued.runId }, delay: 50 }])
        } finally {
          delete services.queueService
        }
      } finally {
        warnings.restore()
      }
    },
  )
})

test('approval-decision-then-resume: a decision is stored before the resume throws without a queue service; a decision failing the schema closes the gate again; the owner policy refuses another user with 403 at the gate; a settled gate answers 409', async () => {
  const { z } = await import('zod')
  const { getErrorResponse } = await errorStatuses()
  const { WorkflowApprovalForbiddenError, WorkflowApprovalResolvedError } = await import('@pikku/core/workflow')
  const reason = 'Approve the escalation'
  const recordingQueue = { add: async () => 'job' }
  await withProbeWorkflow(
    'approvalProbe',
    async (_services, _input, { workflow }) => workflow.approval(reason, { schema: z.object({ ok: z.boolean() }), approvers: 'owner' }),
    async (name) => {
      const wf = services.workflowService
      const { runId } = await startProbe(name, {}, { type: 'test', pikkuUserId: 'alice' })
      assert.equal((await wf.getRun(runId)).status, 'suspended')
      // Another user, once the run has reached the gate: refused with 403, nothing stored.
      const refused = await wf.approveStep(runId, reason, { ok: true }, { userId: 'bob' }).catch((e: Error) => e)
      assert.ok(refused instanceof WorkflowApprovalForbiddenError)
      assert.equal(getErrorResponse(refused)?.status, 403)
      // No queue service: the decision is stored, then the resume throws.
      await assert.rejects(wf.approveStep(runId, reason, { ok: 'yes' }, { userId: 'alice' }), {
        message: 'QueueService not configured. Remote workflows require a queue service.',
      })
      const stored = Object.values(await wf.getRunState(runId)) as any[]
      assert.deepEqual(stored.map((r) => r.decision), [{ ok: 'yes' }])
      // That decision fails the schema: the replay clears it and the run suspends again instead of failing.
      await wf.orchestrateWorkflow(runId, rpcFor(services))
      assert.equal((await wf.getRun(runId)).status, 'suspended')
      assert.deepEqual((Object.values(await wf.getRunState(runId)) as any[]).map((r) => r.decision), [undefined])
      services.queueService = recordingQueue
      try {
        await wf.approveStep(runId, reason, { ok: true }, { userId: 'alice' })
      } finally {
        delete services.queueService
      }
      await wf.orchestrateWorkflow(runId, rpcFor(services))
      const run = await wf.getRun(runId)
      assert.equal(run.status, 'completed')
      assert.deepEqual([run.output.status, run.output.data, run.output.decidedBy.userId], ['decided', { ok: true }, 'alice'])
      const settled = await wf.approveStep(runId, reason, { ok: false }, { userId: 'alice' }).catch((e: Error) => e)
      assert.ok(settled instanceof WorkflowApprovalResolvedError)
      assert.equal(getErrorResponse(settled)?.status, 409)
    },
  )
})

test('workflow-route-errors: a route that throws MissingServiceError answers 500, or with sse: true 200 with an error and a done event; a route approving a gate without a queue service answers 500 after the decision is stored', async () => {
  const { MissingServiceError } = await import('@pikku/core/errors')
  // What the generated workflow routes throw when their service is missing (serialize-workflow-routes.ts).
  const missing = { auth: false, func: async () => { throw new MissingServiceError('workflowService is required') } }
  await withProbeRoute('probeWfMissing', '/probe-wf-missing', missing, {}, async () => {
    assert.equal((await fetch(`${app.url}/probe-wf-missing`)).status, 500)
  })
  await withProbeRoute('probeWfMissingStream', '/probe-wf-missing-stream', missing, { sse: true }, async () => {
    const response = await fetch(`${app.url}/probe-wf-missing-stream`, { headers: { accept: 'text/event-stream' } })
    assert.equal(response.status, 200)
    const frames = (await response.text()).split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)))
    assert.deepEqual(frames, [{ type: 'error', errorText: 'A required service is not configured' }, { type: 'done' }])
  })
  const reason = 'Sign off the release'
  const { z } = await import('zod')
  const schema = z.object({ ok: z.boolean() })
  await withProbeWorkflow('approveRouteProbe', async (_services, _input, { workflow }) => workflow.approval(reason, { schema }), async (name) => {
    const { runId, rejected } = await startProbe(name)
    assert.equal((await services.workflowService.getRun(runId)).status, 'suspended', rejected)
    // The generated approve route's call: approveStep(runId, reason, decision, session).
    const approve = {
      auth: false,
      func: async ({ workflowService }: any, data: any, { session }: any) => {
        await workflowService.approveStep(runId, reason, data, session)
        return { ok: true }
      },
    }
    await withProbeRoute('probeWfApprove', '/probe-wf-approve', approve, { method: 'post' }, async () => {
      const response = await fetch(`${app.url}/probe-wf-approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ok":true}' })
      assert.equal(response.status, 500)
    })
    const stored = Object.values(await services.workflowService.getRunState(runId)) as any[]
    assert.deepEqual(stored.map((r) => r.decision), [{ ok: true }])
    assert.equal((await services.workflowService.getRun(runId)).status, 'suspended')
  })
})

/**
 * Runs both sweeps (recoverStalledRuns, relayUndispatchedSteps) with no age threshold, over a queue service that
 * only records its jobs, and checks that neither picks the run.
 */
const assertSweepsSkip = async (runId: string) => {
  const wf = services.workflowService
  const jobs: any[] = []
  services.queueService = { add: async (queue: string, data: unknown) => { jobs.push({ queue, data }); return 'job' } }
  try {
    const { resumed } = await wf.recoverStalledRuns({ stalledAfterMs: -1 })
    const { redispatched } = await wf.relayUndispatchedSteps({ undispatchedAfterMs: -1 })
    assert.equal(resumed.includes(runId), false)
    assert.equal(redispatched.includes(runId), false)
    assert.equal(jobs.some((job) => job.data.runId === runId), false)
  } finally {
    delete services.queueService
  }
}

test('claimed-step-not-recovered: a step left running by a step worker that died is neither run again on redelivery nor swept', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const wf = services.workflowService
  const todo = await newTodo('grace', 'Pay the rent')
  const graphHash = pikkuState(null, 'workflows', 'meta').todoReminderWorkflow.graphHash
  // A queued run whose first step a step worker claimed (running) before its process died.
  const runId = await wf.createRun('todoReminderWorkflow', { todoId: todo.todoId }, false, graphHash, { type: 'test' })
  const step = await wf.insertStepState(runId, 'Remind the owner', 'sendReminder', { todoId: todo.todoId }, { retries: 5 })
  await wf.setStepRunning(step.stepId)
  // The queue delivers the step job again: the claim reads `running` and returns without calling the function.
  await wf.executeWorkflowStep(runId, 'Remind the owner', 'sendReminder', { todoId: todo.todoId }, rpcFor(services))
  const after = await wf.getStepState(runId, 'Remind the owner')
  assert.equal(after.status, 'running')
  assert.equal(after.result, undefined)
  // Neither sweep picks the run: a run with a running step is not stalled, and the relay looks at pending steps only.
  await assertSweepsSkip(runId)
  assert.equal((await wf.getRun(runId)).status, 'running')
})

test('scheduled-step-not-recovered: a run whose step is scheduled is not swept, even when nothing will ever wake it', async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const wf = services.workflowService
  const todo = await newTodo('heidi', 'Return the library books')
  const graphHash = pikkuState(null, 'workflows', 'meta').todoReminderWorkflow.graphHash
  // A run parked at its sleep, as if the scheduler's timer had been lost with a process that restarted.
  const runId = await wf.createRun('todoReminderWorkflow', { todoId: todo.todoId }, false, graphHash, { type: 'test' })
  const step = await wf.insertStepState(runId, 'Give the owner a day', null, { duration: day })
  await wf.setStepScheduled(step.stepId)
  await assertSweepsSkip(runId)
  assert.equal((await wf.getStepState(runId, 'Give the owner a day')).status, 'scheduled')
  assert.equal((await wf.getRun(runId)).status, 'running')
})

test('sweep-backoff: the relay picks a step pending over 30 s and the stall sweep a run idle over 5 min; a pick by either holds the run off both for 30 s, then twice as long after each pick up to 10 min, also when the resume throws', async () => {
  const wf = services.workflowService
  const jobs: string[] = []
  mock.timers.reset()
  mock.timers.enable({ apis: ['Date'], now: Date.now() })
  let runId: string | undefined
  try {
    runId = (await wf.createRun('todoReminderWorkflow', {}, false, 'sweep-hash', { type: 'test' })) as string
    await wf.insertStepState(runId, 'Remind the owner', 'sendReminder', {}, { retries: 5 })
    services.queueService = {
      add: async (_queue: string, data: { runId: string }) => {
        jobs.push(data.runId)
        return 'job'
      },
    }
    const picked = async (sweep: () => Promise<unknown>) => {
      const before = jobs.length
      await sweep()
      return jobs.slice(before).includes(runId!)
    }
    const relay = () => picked(() => wf.relayUndispatchedSteps())
    const stall = (options?: object) => picked(() => wf.recoverStalledRuns(options))
    // The defaults: pending for more than 30 s, idle for more than 5 min.
    mock.timers.tick(30_000)
    assert.equal(await relay(), false)
    mock.timers.tick(1)
    assert.equal(await relay(), true)
    mock.timers.tick(270_000 - 1)
    assert.equal(await stall(), false)
    mock.timers.tick(1)
    // 270 s after the relay's pick, past its 30 s hold.
    assert.equal(await stall(), true)
    // The hold is shared by the two sweeps, and doubles from 60 s (this second pick) up to 10 min.
    assert.equal(await relay(), false)
    for (const seconds of [60, 120, 240, 480, 600, 600]) {
      mock.timers.tick(seconds * 1000 - 1)
      assert.equal(await stall({ stalledAfterMs: 0 }), false, `held for ${seconds} s`)
      mock.timers.tick(1)
      assert.equal(await stall({ stalledAfterMs: 0 }), true, `picked after ${seconds} s`)
    }
    // Without a queue service the resume throws, and the run is held off just the same.
    delete services.queueService
    const failures = (errors: string[]) => errors.filter((e) => e.startsWith(`Failed to resume stalled workflow run ${runId}:`)).length
    mock.timers.tick(600_000)
    assert.equal(failures(await loggedErrors(async () => void (await wf.recoverStalledRuns({ stalledAfterMs: 0 })))), 1)
    mock.timers.tick(600_000 - 1)
    assert.equal(failures(await loggedErrors(async () => void (await wf.recoverStalledRuns({ stalledAfterMs: 0 })))), 0)
    mock.timers.tick(1)
    assert.equal(failures(await loggedErrors(async () => void (await wf.recoverStalledRuns({ stalledAfterMs: 0 })))), 1)
  } finally {
    delete services.queueService
    mock.timers.reset()
    if (runId) await wf.updateRunStatus(runId, 'cancelled')
  }
})

test('sweep-thresholds-and-limit: recoverStalledRuns and relayUndispatchedSteps take their age threshold and a limit, which is 100 by default', async () => {
  const { InMemoryWorkflowService } = await import('@pikku/core/services')
  // Each count on a store of its own, since a run a sweep picks is held off later sweeps of the same store.
  const storeWith101Runs = async () => {
    const store = new InMemoryWorkflowService()
    for (let i = 0; i < 101; i++) {
      const runId = await store.createRun('todoReminderWorkflow', {}, false, 'sweep-hash', { type: 'test' })
      await store.insertStepState(runId, 'Remind the owner', 'sendReminder', {}, { retries: 5 })
    }
    return store
  }
  services.queueService = { add: async () => 'job' }
  try {
    assert.equal((await (await storeWith101Runs()).relayUndispatchedSteps({ undispatchedAfterMs: -1 })).redispatched.length, 100)
    assert.equal((await (await storeWith101Runs()).relayUndispatchedSteps({ undispatchedAfterMs: -1, limit: 2 })).redispatched.length, 2)
    assert.equal((await (await storeWith101Runs()).relayUndispatchedSteps({ undispatchedAfterMs: 60_000 })).redispatched.length, 0)
    assert.equal((await (await storeWith101Runs()).recoverStalledRuns({ stalledAfterMs: -1 })).resumed.length, 100)
    assert.equal((await (await storeWith101Runs()).recoverStalledRuns({ stalledAfterMs: -1, limit: 2 })).resumed.length, 2)
    assert.equal((await (await storeWith101Runs()).recoverStalledRuns({ stalledAfterMs: 60_000 })).resumed.length, 0)
  } finally {
    delete services.queueService
  }
})

/**
 * Registers a graph's generated metadata for one test, in the shape `pikku all` writes it
 * (.pikku/workflow/meta/*.gen.json), runs `body`, and removes it again.
 */
const withTestGraph = async (name: string, nodes: Record<string, any>, entryNodeIds: string[], body: () => Promise<void>) => {
  const { pikkuState } = await import('@pikku/core/state')
  const workflowsMeta = pikkuState(null, 'workflows', 'meta') as Record<string, any>
  workflowsMeta[name] = { name, pikkuFuncId: name, source: 'graph', nodes, entryNodeIds, graphHash: `${name}-hash` }
  try {
    await body()
  } finally {
    delete workflowsMeta[name]
  }
}

test('graph-node-input-defaults: an entry node with no input gets the run\'s whole input, a later node with no input gets {}', async () => {
  await withTestGraph(
    'inputDefaultsGraph',
    {
      list: { nodeId: 'list', rpcName: 'listOpenTodoIds', input: {}, next: 'check' },
      check: { nodeId: 'check', rpcName: 'isTodoOpen', input: {} },
    },
    ['list'],
    async () => {
      const start = async (input: unknown) => {
        const { runId } = await services.workflowService.startWorkflow('inputDefaultsGraph', input, { type: 'test' }, rpcFor(services))
        const history = await services.workflowService.getRunHistory(runId)
        return { run: await services.workflowService.getRun(runId), history }
      }
      // The whole run input reaches listOpenTodoIds, whose schema refuses the field it does not declare.
      const extra = await start({ ownerId: 'hank', todoId: 'x' })
      assert.equal(extra.run.status, 'failed')
      assert.equal(extra.run.error.message, 'Property "todoId" does not match additional properties schema., False boolean schema.')
      assert.deepEqual(extra.history.map((s: any) => [s.stepName, s.status]), [['list', 'failed']])
      // With only ownerId, list runs; check, which declares no input, is called with {} and fails validation.
      const plain = await start({ ownerId: 'hank' })
      assert.equal(plain.run.status, 'failed')
      assert.equal(plain.run.error.message, 'Instance does not have required property "todoId".')
      assert.deepEqual(plain.history.map((s: any) => [s.stepName, s.status]), [['list', 'succeeded'], ['check', 'failed']])
    },
  )
})

test('graph-ref-on-branch-not-taken: a node that refs a node of the branch not taken never runs; the run stays running when the taken branch leads to it, and completes when only the branch not taken does', async () => {
  const todo = await newTodo('ivy', 'Water the plants', true)
  // isTodoOpen is wrapped for this test only, to take a branch as a graph node's function does.
  const takeBranch = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    const result = await original(services, data, wire)
    wire.graph?.branch(result.open ? 'open' : 'done')
    return result
  }
  await withWrappedFunction('isTodoOpen', takeBranch, async () => {
    await withTestGraph(
      'branchNotTakenGraph',
      {
        check: { nodeId: 'check', rpcName: 'isTodoOpen', input: { todoId: { $ref: 'trigger', path: 'todoId' } }, next: { open: 'remind', done: 'list' } },
        remind: { nodeId: 'remind', rpcName: 'sendReminder', input: { todoId: { $ref: 'trigger', path: 'todoId' } }, next: 'list' },
        // list reads remind's output, so it waits for remind, which the 'done' branch never runs.
        list: { nodeId: 'list', rpcName: 'listOpenTodoIds', input: { ownerId: { $ref: 'remind', path: 'reminded' } } },
      },
      ['check'],
      async () => {
        const { runId } = await services.workflowService.startWorkflow(
          'branchNotTakenGraph', { todoId: todo.todoId }, { type: 'test' }, rpcFor(services),
        )
        const history = await services.workflowService.getRunHistory(runId)
        assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['check', 'succeeded']])
        assert.equal((await services.workflowService.getRun(runId)).status, 'running')
      },
    )
    await withTestGraph(
      'branchNotTakenOnlyGraph',
      {
        check: { nodeId: 'check', rpcName: 'isTodoOpen', input: { todoId: { $ref: 'trigger', path: 'todoId' } }, next: { open: 'remind', done: 'list' } },
        remind: { nodeId: 'remind', rpcName: 'sendReminder', input: { todoId: { $ref: 'trigger', path: 'todoId' } }, next: 'again' },
        // again reads remind and only the 'open' branch leads to it: on the 'done' branch it is skipped, not waited for.
        again: { nodeId: 'again', rpcName: 'listOpenTodoIds', input: { ownerId: { $ref: 'remind', path: 'reminded' } } },
        list: { nodeId: 'list', rpcName: 'listOpenTodoIds', input: { ownerId: { $ref: 'trigger', path: 'ownerId' } } },
      },
      ['check'],
      async () => {
        const { runId } = await services.workflowService.startWorkflow(
          'branchNotTakenOnlyGraph', { todoId: todo.todoId, ownerId: 'ivy' }, { type: 'test' }, rpcFor(services),
        )
        const history = await services.workflowService.getRunHistory(runId)
        assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['check', 'succeeded'], ['list', 'succeeded']])
        assert.equal((await services.workflowService.getRun(runId)).status, 'completed')
      },
    )
  })
})

test('graph-child-workflow-needs-queue: without a queueService a graph node that names a workflow with a body fails, one that names a graph does not, and the child run records no owner', async () => {
  const todo = await newTodo('jack', 'Return the library books', true)
  await withTestGraph(
    'childWorkflowGraph',
    { remindOnce: { nodeId: 'remindOnce', rpcName: 'todoReminderWorkflow', input: { todoId: { $ref: 'trigger', path: 'todoId' } } } },
    ['remindOnce'],
    async () => {
      const start = async () => {
        // inline, as runToCompletion asks, so that the run stays in this process when a queue service is set below.
        const { runId } = await services.workflowService.startWorkflow(
          'childWorkflowGraph', { todoId: todo.todoId }, { type: 'test', pikkuUserId: 'jack' }, rpcFor(services, 'jack'), { inline: true },
        )
        const [step] = await services.workflowService.getRunHistory(runId)
        // Found by its parent: when the child's start throws, the step never records the child's run id.
        const runs = await services.workflowService.listRuns({ workflowName: 'todoReminderWorkflow' })
        const childId = runs.find((r: any) => (r.wire ?? {}).parentRunId === runId)?.id
        return { runId, run: await services.workflowService.getRun(runId), step, child: await services.workflowService.getRun(childId) }
      }
      // The child's body returns { outcome: 'closed' } (the to-do is done), then the service tries to put the graph
      // run back on the orchestrator queue, and that throws; the child and the graph run both end failed.
      const alone = await start()
      const message = 'QueueService not configured. Remote workflows require a queue service.'
      assert.deepEqual([alone.run.status, alone.run.error.message], ['failed', message])
      assert.deepEqual([alone.child.status, alone.child.error.message], ['failed', message])
      // The child run records the graph run as its parent, but not the graph run's owner.
      assert.equal(alone.run.wire.pikkuUserId, 'jack')
      assert.equal(alone.child.wire.parentRunId, alone.runId)
      assert.equal(alone.child.wire.pikkuUserId, undefined)

      // A node that names a graph instead: the child graph runs inline and does not resume its parent through the
      // queue, so without a queue service both runs complete.
      await withTestGraph(
        'childGraph',
        { open: { nodeId: 'open', rpcName: 'isTodoOpen', input: { todoId: { $ref: 'trigger', path: 'todoId' } } } },
        ['open'],
        async () => {
          await withTestGraph(
            'parentOfGraph',
            { sub: { nodeId: 'sub', rpcName: 'childGraph', input: { todoId: { $ref: 'trigger', path: 'todoId' } } } },
            ['sub'],
            async () => {
              const { runId } = await services.workflowService.startWorkflow(
                'parentOfGraph', { todoId: todo.todoId }, { type: 'test' }, rpcFor(services), { inline: true },
              )
              assert.equal((await services.workflowService.getRun(runId)).status, 'completed')
              const runs = await services.workflowService.listRuns({ workflowName: 'childGraph' })
              const child = runs.find((r: any) => (r.wire ?? {}).parentRunId === runId)
              assert.equal(child.status, 'completed')
            },
          )
        },
      )

      // A queue service that only records its jobs: the same graph completes, and a job for the finished run is queued.
      const jobs: any[] = []
      services.queueService = { add: async (queue: string, data: unknown) => { jobs.push({ queue, data }); return 'job' } }
      try {
        const queued = await start()
        assert.equal(queued.run.status, 'completed')
        assert.deepEqual(queued.step.result, { outcome: 'closed' })
        assert.equal(queued.child.status, 'completed')
        assert.deepEqual(jobs, [{ queue: 'pikku-workflow-orchestrator', data: { runId: queued.runId } }])
      } finally {
        delete services.queueService
      }
    },
  )
})

test('graph-inline-retries-onerror-running: an inline graph node with retries above 0 and onError that fails leaves the run running; with retries 0 the run fails', async () => {
  await withTestGraph(
    'retriesOnErrorGraph',
    {
      // retries as the inspector records it from a node config; check is called with {} and fails validation.
      check: { nodeId: 'check', rpcName: 'isTodoOpen', input: {}, retries: 2, onError: 'recover' },
      recover: { nodeId: 'recover', rpcName: 'health', input: {} },
    },
    ['check'],
    async () => {
      const { runId } = await services.workflowService.startWorkflow('retriesOnErrorGraph', {}, { type: 'test' }, rpcFor(services))
      const history = await services.workflowService.getRunHistory(runId)
      assert.deepEqual(history.map((s: any) => [s.stepName, s.status, s.attemptCount]), [['check', 'failed', 1], ['recover', 'succeeded', 1]])
      // One call, then nothing: the failed node still has attempts left on record, so the run is neither failed nor completed.
      assert.equal((await services.workflowService.getRun(runId)).status, 'running')
    },
  )
  // With retries 0 the record allows one attempt, which is spent: the run ends failed although recover ran.
  await withTestGraph(
    'noRetriesOnErrorGraph',
    {
      check: { nodeId: 'check', rpcName: 'isTodoOpen', input: {}, retries: 0, onError: 'recover' },
      recover: { nodeId: 'recover', rpcName: 'health', input: {} },
    },
    ['check'],
    async () => {
      const { runId } = await services.workflowService.startWorkflow('noRetriesOnErrorGraph', {}, { type: 'test' }, rpcFor(services))
      const history = await services.workflowService.getRunHistory(runId)
      assert.deepEqual(history.map((s: any) => [s.stepName, s.status]), [['check', 'failed'], ['recover', 'succeeded']])
      const run = await services.workflowService.getRun(runId)
      assert.deepEqual([run.status, run.error.message], ['failed', "Graph node 'check' failed after exhausting retries"])
    },
  )
})

test('graph-onerror-node-is-entry: the inspector makes a node that only onError points at an entry node, so it runs at the start of a run that does not fail', async () => {
  const { inspectFiles } = await import('./harness/inspector.js')
  const file = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "import { pikkuWorkflowGraph } from '#pikku/workflow'",
    'export const work = pikkuSessionlessFunc<{}, { ok: boolean }>({ func: async () => ({ ok: true }) })',
    'export const undo = pikkuSessionlessFunc<{}, { ok: boolean }>({ func: async () => ({ ok: true }) })',
    'export const onErrorGraph = pikkuWorkflowGraph({',
    "  nodes: { doWork: 'work', undoWork: 'undo' },",
    "  config: { doWork: { onError: 'undoWork' } },",
    '})',
  ].join('\n')
  const { state } = await inspectFiles('graph-onerror-entry', { 'probe.graph.ts': file })
  const graphs = state.workflows.graphMeta as Record<string, any>
  const meta = Object.values(graphs).find((graph: any) => graph.nodes?.doWork)
  assert.deepEqual([...meta.entryNodeIds].sort(), ['doWork', 'undoWork'])
  // Run with the generated nodes, each pointed at health: both nodes run, though nothing failed.
  const nodes = Object.fromEntries(Object.entries(meta.nodes as Record<string, any>).map(([id, node]) => [id, { ...node, rpcName: 'health' }]))
  await withTestGraph('onErrorEntryGraph', nodes, meta.entryNodeIds, async () => {
    const { runId } = await services.workflowService.startWorkflow('onErrorEntryGraph', {}, { type: 'test' }, rpcFor(services))
    const history = await services.workflowService.getRunHistory(runId)
    assert.deepEqual(history.map((s: any) => [s.stepName, s.status]).sort(), [['doWork', 'succeeded'], ['undoWork', 'succeeded']])
    assert.equal((await services.workflowService.getRun(runId)).status, 'completed')
  })
})

test('graph-object-input-dropped: the inspector records a node input only from an arrow function, so an input written as a plain object is dropped and the node is called as if it had none', async () => {
  const { inspectFiles } = await import('./harness/inspector.js')
  const file = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "import { pikkuWorkflowGraph } from '#pikku/workflow'",
    'export const probe = pikkuSessionlessFunc<{ label?: string }, { ok: boolean }>({ func: async () => ({ ok: true }) })',
    'export const objectInputGraph = pikkuWorkflowGraph({',
    "  nodes: { first: 'probe', second: 'probe' },",
    "  config: { first: { input: { label: 'fixed' }, next: 'second' }, second: { input: () => ({ label: 'fixed' }) } },",
    '})',
  ].join('\n')
  const { state } = await inspectFiles('graph-object-input', { 'probe.graph.ts': file })
  const graphs = state.workflows.graphMeta as Record<string, any>
  const meta = Object.values(graphs).find((graph: any) => graph.nodes?.first)
  assert.deepEqual([meta.nodes.first.input, meta.nodes.second.input], [{}, { label: 'fixed' }])
  // Run with the generated nodes, each pointed at health (wrapped to record its input): the entry node gets the run's input.
  const calls: unknown[] = []
  const record = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    calls.push(data)
    return original(services, {}, wire)
  }
  await withWrappedFunction('health', record, async () => {
    const nodes = Object.fromEntries(Object.entries(meta.nodes as Record<string, any>).map(([id, node]) => [id, { ...node, rpcName: 'health' }]))
    await withTestGraph('objectInputGraph', nodes, meta.entryNodeIds, async () => {
      const { runId } = await services.workflowService.startWorkflow('objectInputGraph', { from: 'run' }, { type: 'test' }, rpcFor(services))
      assert.equal((await services.workflowService.getRun(runId)).status, 'completed')
      assert.deepEqual(calls, [{ from: 'run' }, { label: 'fixed' }])
    })
  })
})

test('graph-if-next-not-evaluated: a next written as { if, then, else }, which the generated type accepts, is recorded as a branch record keyed if, then and else, so a run refuses to start when the if value is not a node id', async () => {
  const { inspectFiles } = await import('./harness/inspector.js')
  const file = [
    "import { pikkuSessionlessFunc } from '#pikku/function'",
    "import { pikkuWorkflowGraph } from '#pikku/workflow'",
    'export const probe = pikkuSessionlessFunc<{}, { ok: boolean }>({ func: async () => ({ ok: true }) })',
    'export const ifNextGraph = pikkuWorkflowGraph({',
    "  nodes: { check: 'probe', yes: 'probe', no: 'probe' },",
    "  config: { check: { next: { if: 'ok', then: 'yes', else: 'no' } } },",
    '})',
  ].join('\n')
  const { state } = await inspectFiles('graph-if-next', { 'probe.graph.ts': file })
  const graphs = state.workflows.graphMeta as Record<string, any>
  const meta = Object.values(graphs).find((graph: any) => graph.nodes?.check)
  assert.deepEqual(meta.nodes.check.next, { if: 'ok', then: 'yes', else: 'no' })
  assert.deepEqual(meta.entryNodeIds, ['check'])
  const nodes = Object.fromEntries(Object.entries(meta.nodes as Record<string, any>).map(([id, node]) => [id, { ...node, rpcName: 'health' }]))
  await withTestGraph('ifNextGraph', nodes, meta.entryNodeIds, async () => {
    await assert.rejects(
      services.workflowService.startWorkflow('ifNextGraph', {}, { type: 'test' }, rpcFor(services)),
      { message: "Workflow graph 'ifNextGraph': node 'check' routes to unknown node 'ok'" },
    )
  })
})

test('graph-inline-node-called-once: inline, a failing node is called once whatever its retries, which are recorded; its onError nodes get { error: { message } }, and with retries unset the run fails with "failed after exhausting retries"; the same with a queue service when the run is started inline', async () => {
  const calls: unknown[] = []
  // health is wrapped for this test only: it records each input and throws when asked to.
  const failOnDemand = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    calls.push(data)
    if (data?.fail) throw new Error('printer jammed')
    return original(services, data, wire)
  }
  await withWrappedFunction('health', failOnDemand, async () => {
    const run = async (name: string, check: Record<string, unknown>) => {
      let outcome: any
      await withTestGraph(
        name,
        { check: { nodeId: 'check', rpcName: 'health', input: { fail: true }, ...check }, recover: { nodeId: 'recover', rpcName: 'health', input: {} } },
        ['check'],
        async () => {
          calls.length = 0
          const { runId } = await services.workflowService.startWorkflow(name, {}, { type: 'test' }, rpcFor(services))
          outcome = { run: await services.workflowService.getRun(runId), history: await services.workflowService.getRunHistory(runId) }
        },
      )
      return outcome
    }
    // retries 3 and no onError: one call, the retries are recorded on the step, and the run fails with the node's error.
    const noOnError = await run('onceRetriesGraph', { retries: 3 })
    assert.deepEqual(calls, [{ fail: true }])
    assert.deepEqual(noOnError.history.map((s: any) => [s.stepName, s.status, s.attemptCount, s.retries]), [['check', 'failed', 1, 3]])
    assert.deepEqual([noOnError.run.status, noOnError.run.error.message], ['failed', 'printer jammed'])
    // retries unset and an onError: one call of check, then recover with the error as its input, and the run fails.
    const withOnError = await run('onceOnErrorGraph', { onError: 'recover' })
    assert.deepEqual(calls, [{ fail: true }, { error: { message: 'printer jammed' } }])
    assert.deepEqual(withOnError.history.map((s: any) => [s.stepName, s.status, s.retries]), [['check', 'failed', 0], ['recover', 'succeeded', 0]])
    assert.deepEqual([withOnError.run.status, withOnError.run.error.message], ['failed', "Graph node 'check' failed after exhausting retries"])
    // With a queue service, a run started with { inline: true } (as runToCompletion starts one) also calls the node once.
    const jobs: unknown[] = []
    services.queueService = { add: async (queue: string) => { jobs.push(queue); return 'job' } }
    try {
      await withTestGraph('onceInlineGraph', { check: { nodeId: 'check', rpcName: 'health', input: { fail: true }, retries: 3 } }, ['check'], async () => {
        calls.length = 0
        const { runId } = await services.workflowService.startWorkflow('onceInlineGraph', {}, { type: 'test' }, rpcFor(services), { inline: true })
        assert.deepEqual(calls, [{ fail: true }])
        assert.deepEqual(jobs, [])
        assert.equal((await services.workflowService.getRun(runId)).status, 'failed')
      })
    } finally {
      delete services.queueService
    }
  })
})

test('graph-branch-no-edge: a node with a next record whose function takes no branch, or a key the record lacks, leads nowhere and the run completes with no error, unless an earlier run on the in-memory store took a branch at a node of that name; a node\'s wire has graph, not workflowStep, and workflowQueued does not send an inline node to the queue', async () => {
  const wires: any[] = []
  // health is wrapped for this test only: it records its wire and takes the branch named in its input, if any.
  const branchOnDemand = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    wires.push(wire)
    if (data?.key) wire.graph?.branch(data.key)
    return original(services, {}, wire)
  }
  const functionsMeta = (await import('@pikku/core/state')).pikkuState(null, 'function', 'meta') as Record<string, any>
  const healthMeta = functionsMeta.health
  const start = async (name: string, input: unknown) => {
    const { runId } = await services.workflowService.startWorkflow(name, input, { type: 'test' }, rpcFor(services))
    const history = await services.workflowService.getRunHistory(runId)
    return { runId, run: await services.workflowService.getRun(runId), steps: history.map((s: any) => [s.stepName, s.status]) }
  }
  await withWrappedFunction('health', branchOnDemand, async () => {
    await withTestGraph(
      'branchNoEdgeGraph',
      {
        // A node id no other test uses: the in-memory store mixes up the branches of nodes that share an id (below).
        pickBranch: { nodeId: 'pickBranch', rpcName: 'health', input: { key: { $ref: 'trigger', path: 'key' } }, next: { go: 'after' } },
        after: { nodeId: 'after', rpcName: 'health', input: {} },
      },
      ['pickBranch'],
      async () => {
        for (const input of [{}, { key: 'elsewhere' }]) {
          wires.length = 0
          const { runId, run, steps } = await start('branchNoEdgeGraph', input)
          assert.deepEqual(steps, [['pickBranch', 'succeeded']])
          assert.deepEqual([run.status, run.error], ['completed', undefined])
          // The node's function gets graph on its wire, and no workflowStep.
          assert.deepEqual([wires[0].graph.runId, wires[0].graph.graphName, wires[0].graph.nodeId], [runId, 'branchNoEdgeGraph', 'pickBranch'])
          assert.equal(typeof wires[0].graph.setState, 'function')
          assert.equal(typeof wires[0].graph.getState, 'function')
          assert.equal(wires[0].workflowStep, undefined)
        }
        // The key the record holds does lead on, so the two runs above did stop for want of an edge.
        const went = await start('branchNoEdgeGraph', { key: 'go' })
        try {
          assert.deepEqual(went.steps, [['pickBranch', 'succeeded'], ['after', 'succeeded']])
          // In core 0.12.90 the in-memory store reads the branch keys of every run it holds: once a run took 'go', a
          // later run whose node takes no branch follows 'go' as well.
          assert.deepEqual((await start('branchNoEdgeGraph', {})).steps, [['pickBranch', 'succeeded'], ['after', 'succeeded']])
          // A run that takes a branch itself reads its own key, stored after the earlier runs' keys: a key the record
          // lacks still stops it.
          assert.deepEqual((await start('branchNoEdgeGraph', { key: 'elsewhere' })).steps, [['pickBranch', 'succeeded']])
        } finally {
          // Deleting the run that took 'go' drops its branch key from the shared store.
          assert.equal(await services.workflowService.deleteRun(went.runId), true)
        }
        assert.deepEqual((await start('branchNoEdgeGraph', {})).steps, [['pickBranch', 'succeeded']])
      },
    )
    // Marked workflowQueued, with no queue service: an inline graph still calls the function in this process.
    await withTestGraph('queuedFlagGraph', { solo: { nodeId: 'solo', rpcName: 'health', input: {} } }, ['solo'], async () => {
      functionsMeta.health = { ...healthMeta, workflowQueued: true }
      try {
        wires.length = 0
        const queued = await start('queuedFlagGraph', {})
        assert.equal(wires.length, 1)
        assert.deepEqual([queued.run.status, queued.steps], ['completed', [['solo', 'succeeded']]])
      } finally {
        functionsMeta.health = healthMeta
      }
    })
  })
})

test('graph-references-checked-at-start: a graph that refs, fans out over, routes to or starts at a node it does not have, or whose start nodes all read another node, is refused before a run is created or a node is called', async () => {
  let called = 0
  const count = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    called++
    return original(services, data, wire)
  }
  const cases: Array<[Record<string, any>, string[], string]> = [
    [{ a: { nodeId: 'a', rpcName: 'health', input: { x: { $ref: 'ghost', path: 'x' } } } }, ['a'], "node 'a' references unknown node 'ghost' in input"],
    [{ a: { nodeId: 'a', rpcName: 'health', input: {}, next: 'ghost' } }, ['a'], "node 'a' routes to unknown node 'ghost'"],
    [{ a: { nodeId: 'a', rpcName: 'health', input: {}, onError: 'ghost' } }, ['a'], "node 'a' onError targets unknown node 'ghost'"],
    [{ a: { nodeId: 'a', rpcName: 'health', input: {} } }, ['ghost'], "entry node 'ghost' is not defined"],
    [{ a: { nodeId: 'a', rpcName: 'health', input: {}, forEach: { $ref: 'ghost', path: 'ids' } } }, ['a'], "node 'a' references unknown node 'ghost' in forEach"],
  ]
  // Start nodes that all read another node: here `b`, picked with startNode, reads `a` through a ref.
  const readsA = { a: { nodeId: 'a', rpcName: 'health', input: {} }, b: { nodeId: 'b', rpcName: 'health', input: { x: { $ref: 'a', path: 'x' } } } }
  await withWrappedFunction('health', count, async () => {
    for (const [nodes, entries, message] of cases) {
      await withTestGraph('badRefsGraph', nodes, entries, async () => {
        await assert.rejects(services.workflowService.startWorkflow('badRefsGraph', {}, { type: 'test' }, rpcFor(services)), {
          message: `Workflow graph 'badRefsGraph': ${message}`,
        })
      })
    }
    await withTestGraph('badRefsGraph', readsA, ['a', 'b'], async () => {
      await assert.rejects(services.workflowService.startWorkflow('badRefsGraph', {}, { type: 'test' }, rpcFor(services), { startNode: 'b' }), {
        message: "Workflow graph 'badRefsGraph': no entry nodes have satisfied dependencies",
      })
    })
  })
  assert.equal(called, 0)
  assert.deepEqual(await services.workflowService.listRuns({ workflowName: 'badRefsGraph' }), [])
})

test('graph-queued-node-job-options: with a queue service, a graph run sends its entry nodes to the step-worker queue with retries + 1 attempts (6 by default), exponential backoff with no delay when retryDelay is unset or \'exponential\', none when retries is 0 and retryDelay unset, and a fixed one for a duration', async () => {
  const jobs: any[] = []
  services.queueService = { add: async (queue: string, data: any, options: any) => { jobs.push({ queue, node: data.stepName, options }); return 'job' } }
  try {
    await withTestGraph(
      'queuedOptionsGraph',
      {
        plain: { nodeId: 'plain', rpcName: 'health', input: {} },
        none: { nodeId: 'none', rpcName: 'health', input: {}, retries: 0 },
        fixed: { nodeId: 'fixed', rpcName: 'health', input: {}, retries: 2, retryDelay: '30s' },
        named: { nodeId: 'named', rpcName: 'health', input: {}, retries: 2, retryDelay: 'exponential' },
      },
      ['plain', 'none', 'fixed', 'named'],
      async () => {
        const { runId } = await services.workflowService.startWorkflow('queuedOptionsGraph', {}, { type: 'test' }, rpcFor(services))
        // Nothing ran here: the nodes are waiting for a step worker.
        const history = await services.workflowService.getRunHistory(runId)
        assert.ok(history.every((s: any) => s.status === 'pending'))
      },
    )
    const byNode = Object.fromEntries(jobs.map((job) => [job.node, job]))
    assert.deepEqual(Object.keys(byNode).sort(), ['fixed', 'named', 'none', 'plain'])
    for (const job of jobs) assert.equal(job.queue, 'pikku-workflow-step-worker')
    assert.deepEqual([byNode.plain.options.attempts, byNode.plain.options.backoff], [6, 'exponential'])
    assert.deepEqual([byNode.none.options.attempts, byNode.none.options.backoff], [1, undefined])
    assert.deepEqual([byNode.fixed.options.attempts, byNode.fixed.options.backoff], [3, { type: 'fixed', delay: 30_000 }])
    assert.deepEqual([byNode.named.options.attempts, byNode.named.options.backoff], [3, 'exponential'])
  } finally {
    delete services.queueService
  }
})

test('graph-child-workflow-parked-succeeds: a graph node whose workflow parks (workflow.suspend, or a sleep) is recorded succeeded with no result, the next node gets undefined from it, and the graph run completes while the child is still parked', async () => {
  const inputs: unknown[] = []
  // health is wrapped for this test only, to record the input the next node is called with.
  const recordInput = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    inputs.push(data)
    return original(services, data, wire)
  }
  /** Runs a graph whose node `park` names `child`, followed by `after` (health) reading `park`'s output. */
  const runParked = async (child: string, input: unknown, childInput: unknown) => {
    let outcome: any
    await withTestGraph(
      'parkedChildGraph',
      {
        park: { nodeId: 'park', rpcName: child, input: childInput, next: 'after' },
        after: { nodeId: 'after', rpcName: 'health', input: { passed: { $ref: 'park', path: 'passed' } } },
      },
      ['park'],
      async () => {
        const { runId } = await services.workflowService.startWorkflow('parkedChildGraph', input, { type: 'test' }, rpcFor(services))
        const history = await services.workflowService.getRunHistory(runId)
        const runs = await services.workflowService.listRuns({ workflowName: child })
        const childRun = runs.find((r: any) => (r.wire ?? {}).parentRunId === runId)
        outcome = { run: await services.workflowService.getRun(runId), history, childRun }
      },
    )
    return outcome
  }
  await withWrappedFunction('health', recordInput, async () => {
    // A child that suspends: the child run is suspended, yet its node succeeded with no result.
    await withSuspendProbe('parkedChildProbeWorkflow', async (child) => {
      const suspended = await runParked(child, {}, {})
      assert.equal(suspended.childRun.status, 'suspended')
      assert.deepEqual(suspended.history.map((s: any) => [s.stepName, s.status, s.result]), [['park', 'succeeded', undefined], ['after', 'succeeded', { status: 'ok' }]])
      assert.equal(suspended.history[0].childRunId, suspended.childRun.id)
      assert.deepStrictEqual(inputs, [{ passed: undefined }])
      assert.equal(suspended.run.status, 'completed')
    })
    // A child that sleeps: the reminder workflow of an open to-do waits a day, and the graph run does not.
    const todo = await newTodo('kim', 'Book the dentist')
    inputs.length = 0
    const sleeping = await runParked('todoReminderWorkflow', { todoId: todo.todoId }, { todoId: { $ref: 'trigger', path: 'todoId' } })
    assert.equal(sleeping.childRun.status, 'running')
    assert.deepEqual(sleeping.history.map((s: any) => [s.stepName, s.status, s.result]), [['park', 'succeeded', undefined], ['after', 'succeeded', { status: 'ok' }]])
    assert.deepStrictEqual(inputs, [{ passed: undefined }])
    assert.equal(sleeping.run.status, 'completed')
  })
})

test('graph-parked-child-ends-after-graph: when the parked child of an inline graph node later completes or fails, it rewrites that node\'s step in the completed graph run and queues the graph run, which then stays completed and runs no node again; getRunStatus reports the rewritten step in that completed run', async () => {
  const inputs: unknown[] = []
  const recordInput = (original: RegisteredFunc): RegisteredFunc => async (services, data, wire) => {
    inputs.push(data)
    return original(services, data, wire)
  }
  /** Starts a graph whose node park names the suspending child, then wakes the child and its parent as queue workers would. */
  const runAndResume = async (child: string) => {
    let outcome: any
    await withTestGraph(
      'parkedThenEndedGraph',
      {
        park: { nodeId: 'park', rpcName: child, input: {}, next: 'after' },
        after: { nodeId: 'after', rpcName: 'health', input: { passed: { $ref: 'park', path: 'passed' } } },
      },
      ['park'],
      async () => {
        const wf = services.workflowService
        inputs.length = 0
        const { runId } = await wf.startWorkflow('parkedThenEndedGraph', {}, { type: 'test' }, rpcFor(services))
        assert.equal((await wf.getRun(runId)).status, 'completed')
        const childRunId = (await wf.getRunHistory(runId))[0].childRunId
        assert.equal((await wf.getRun(childRunId)).status, 'suspended')
        // A queue service that only records its jobs, so that the child's end can put its parent on the orchestrator queue.
        const jobs: any[] = []
        services.queueService = { add: async (queue: string, data: unknown) => { jobs.push({ queue, data }); return 'job' } }
        try {
          // What the orchestrator queue worker does once the child is woken (see suspend-passed-by-any-decision).
          await wf.orchestrateWorkflow(childRunId, rpcFor(services)).catch((error: Error) => error)
          const history = await wf.getRunHistory(runId)
          const parentJobs = jobs.filter((job) => job.data.runId === runId)
          // ...and what it does with the job queued for the graph run.
          await wf.orchestrateWorkflow(runId, rpcFor(services))
          outcome = { child: await wf.getRun(childRunId), run: await wf.getRun(runId), history, after: await wf.getRunHistory(runId), status: await wf.getRunStatus(runId), parentJobs }
        } finally {
          delete services.queueService
        }
      },
    )
    return outcome
  }
  await withWrappedFunction('health', recordInput, async () => {
    // The child completes: its output replaces the node's empty result, but after already ran with undefined.
    await withSuspendProbe('endsLaterProbeWorkflow', async (child) => {
      const done = await runAndResume(child)
      assert.equal(done.child.status, 'completed')
      assert.deepEqual(done.parentJobs, [{ queue: 'pikku-workflow-orchestrator', data: { runId: done.run.id } }])
      assert.deepEqual(done.history.map((s: any) => [s.stepName, s.status, s.result]), [['park', 'succeeded', { passed: true }], ['after', 'succeeded', { status: 'ok' }]])
      assert.deepStrictEqual(inputs, [{ passed: undefined }])
      assert.equal(done.run.status, 'completed')
      assert.deepEqual(done.after, done.history)
      assert.deepEqual(done.status.steps.map((s: any) => [s.name, s.status]), [['park', 'succeeded'], ['after', 'succeeded']])
    })
    // The child fails: the node's step turns failed, yet the graph run stays completed with no error.
    await withSuspendProbe('failsLaterProbeWorkflow', async (child) => {
      const failed = await runAndResume(child)
      assert.deepEqual([failed.child.status, failed.child.error.message], ['failed', 'Review rejected'])
      assert.equal(failed.parentJobs.length, 1)
      assert.deepEqual(failed.history.map((s: any) => [s.stepName, s.status, s.error?.message]), [['park', 'failed', 'Review rejected'], ['after', 'succeeded', undefined]])
      assert.deepStrictEqual(inputs, [{ passed: undefined }])
      assert.deepEqual([failed.run.status, failed.run.error], ['completed', undefined])
      assert.deepEqual(failed.after, failed.history)
      // getRunStatus, which the generated workflowStatus route returns, reports the same: a completed run, no error, a failed step.
      assert.deepEqual(
        [failed.status.status, failed.status.error, failed.status.steps.map((s: any) => [s.name, s.status])],
        ['completed', undefined, [['park', 'failed'], ['after', 'succeeded']]],
      )
    }, () => {
      throw new Error('Review rejected')
    })
  })
})

test('graph-node-rpc-not-found: a graph node whose function is not registered suspends the run with "RPC \'…\' not found. Deploy the missing function and resume."', async () => {
  await withTestGraph(
    'missingFunctionGraph',
    { ghost: { nodeId: 'ghost', rpcName: 'noSuchGraphFunction', input: {} } },
    ['ghost'],
    async () => {
      const { runId } = await services.workflowService.startWorkflow('missingFunctionGraph', {}, { type: 'test' }, rpcFor(services))
      const run = await services.workflowService.getRun(runId)
      assert.equal(run.status, 'suspended')
      assert.deepEqual(run.error, { message: "RPC 'noSuchGraphFunction' not found. Deploy the missing function and resume.", code: 'RPC_NOT_FOUND' })
      const history = await services.workflowService.getRunHistory(runId)
      assert.deepEqual(
        history.map((s: any) => [s.stepName, s.status, s.error?.name, s.error?.message]),
        [['ghost', 'failed', 'RPCNotFoundError', 'RPC function not found: noSuchGraphFunction']],
      )
    },
  )
})
