// The serverless entry files run locally: src/runtimes/lambda.ts (@pikku/lambda) called with synthetic API Gateway,
// SQS and EventBridge invocations, and src/runtimes/cloudflare.ts (@pikku/cloudflare) called with a fetch Request,
// both in Node.js. No AWS or Cloudflare service is reached: nothing here publishes a job.
import { after, before, mock, test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash, createHmac, generateKeyPairSync } from 'node:crypto'
import { Readable } from 'node:stream'
import type { APIGatewayEvent, APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda'
import { getSingletonServices, pikkuState, setSingletonServices } from '@pikku/core/state'
import { ForbiddenError } from '@pikku/core/errors'
import { stopSingletonServices } from '@pikku/core/utils'
import { AWSSecrets, S3Content, SQSQueueService } from '@pikku/aws-services'
import { createLambdaHandler, SQSQueueService as LambdaSQSQueueService } from '@pikku/lambda'
import { runFetchV2 } from '@pikku/lambda/http'
import { collectLogs, HELD_STREAM_ANSWER, holdHealthStream, quiet, withWrappedFunction, type RegisteredFunc } from './harness/app.js'
import { createTestJWT } from './harness/http.js'
import { sqliteDatabase, startRedis } from './harness/services.js'
import { recordingLogger } from './harness/core-probes.js'
import { recordTraceIds } from './harness/queues.js'
import { withEnv } from './harness/env.js'

process.env.AWS_REGION ??= 'eu-west-1'
const QUEUE_URL_PREFIX = 'http://127.0.0.1:9/000000000000/'
const lambda = await import('../../src/runtimes/lambda.js')

const restEvent = (method: string, path: string, headers: Record<string, string> = {}, body: string | null = null) =>
  ({
    httpMethod: method,
    path,
    headers: { host: 'localhost', ...headers },
    queryStringParameters: null,
    body,
    isBase64Encoded: false,
  }) as unknown as APIGatewayEvent

/** An HTTP API (payload 2.0) OPTIONS preflight for /todos from the front end's origin. */
const v2PreflightEvent = () =>
  ({
    rawPath: '/todos',
    rawQueryString: '',
    headers: { host: 'localhost', origin: 'http://localhost:5173' },
    requestContext: { http: { method: 'OPTIONS' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2

const sqsEvent = (records: { id: string; body: string; queue?: string }[]): SQSEvent => ({
  Records: records.map(({ id, body, queue = 'todo-reminders' }) => ({
    messageId: id,
    body,
    eventSourceARN: `arn:aws:sqs:eu-west-1:000000000000:${queue}`,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) },
  })) as never,
})

/** Records the ids sendReminder looks up in the to-do store, which it does first thing; `restore()` puts the real method back. */
const watchTodoLookups = () => {
  const store = (getSingletonServices() as unknown as { todoStore: { get(todoId: string): Promise<unknown> } }).todoStore
  const get = store.get
  const ids: string[] = []
  store.get = async (todoId: string) => (ids.push(todoId), get.call(store, todoId))
  return { ids, restore: () => void (store.get = get) }
}

let coldStartError: unknown
before(async () => {
  // The first call builds the services (the entry file's cold start). It is made once without
  // SQS_QUEUE_URL_PREFIX, which fails, then with it. A preflight logs nothing; then the logger is quieted.
  delete process.env.SQS_QUEUE_URL_PREFIX
  await lambda.http(restEvent('OPTIONS', '/health')).catch((error: unknown) => (coldStartError = error))
  process.env.SQS_QUEUE_URL_PREFIX = QUEUE_URL_PREFIX
  await lambda.http(restEvent('OPTIONS', '/health'))
  quiet(getSingletonServices() as never)
})
after(() => stopSingletonServices())

test('lambda-rest-health: a REST API event for GET /health answers statusCode 200 and {"status":"ok"}', async () => {
  const result = await lambda.http(restEvent('GET', '/health'))
  assert.equal(result.statusCode, 200)
  assert.deepEqual(JSON.parse(result.body), { status: 'ok' })
})

test('lambda-channel-path-200: a REST API GET on the channel\'s path swallows the router\'s TypeError and answers an empty 200', async () => {
  // The bootstrap registers the todos channel here too, so GET /todos/live finds the channel's path and no HTTP wiring.
  assert.ok(pikkuState(null, 'channel', 'channels').size > 0)
  const result = await lambda.http(restEvent('GET', '/todos/live'))
  assert.equal(result.statusCode, 200)
  assert.equal(result.body, '')
  // Any other id still reaches getTodo, which needs a session.
  assert.equal((await lambda.http(restEvent('GET', '/todos/no-such-id'))).statusCode, 403)
})

test('lambda-session-403: a session route called with no credential answers 403 on Lambda too', async () => {
  const result = await lambda.http(restEvent('GET', '/todos'))
  assert.equal(result.statusCode, 403)
})

test('lambda-failed-start-retried: a cold start that fails (a missing environment variable) is not kept; the next call starts again', () => {
  assert.equal((coldStartError as Error | undefined)?.message, 'Environment variable SQS_QUEUE_URL_PREFIX is not set')
  // before() then made a second call, which built the services.
  assert.ok(getSingletonServices())
})

test('lambda-services-once: the singleton services are built on the first call and reused by the next', async () => {
  const first = getSingletonServices()
  await lambda.http(restEvent('GET', '/health'))
  assert.equal(getSingletonServices(), first)
})

test('lambda-options-preflight: runFetch answers OPTIONS itself with 200 and fixed allow headers, no origin', async () => {
  const result = await lambda.http(restEvent('OPTIONS', '/todos', { origin: 'http://localhost:5173' }))
  assert.equal(result.statusCode, 200)
  assert.match(String(result.headers?.['access-control-allow-methods']), /PATCH/)
  assert.match(String(result.headers?.['access-control-allow-headers']), /Authorization/)
  assert.equal(result.headers?.['access-control-allow-origin'], undefined)
})

test('lambda-v2-options-origin: runFetchV2 answers OPTIONS itself with 200, the same fixed allow headers, and the request origin echoed', async () => {
  const result = (await runFetchV2(v2PreflightEvent())) as { statusCode: number; headers: Record<string, string> }
  assert.equal(result.statusCode, 200)
  assert.equal(result.headers['access-control-allow-methods'], 'OPTIONS,DELETE,GET,HEAD,PATCH,POST,PUT')
  assert.match(result.headers['access-control-allow-headers'], /Authorization/)
  assert.equal(result.headers['access-control-allow-origin'], 'http://localhost:5173')
})

test('lambda-options-no-credentials: neither runFetch nor runFetchV2 sends Access-Control-Allow-Credentials on its OPTIONS answer, although the app\'s cors() allows credentials', async () => {
  const rest = await lambda.http(restEvent('OPTIONS', '/todos', { origin: 'http://localhost:5173' }))
  assert.equal(rest.statusCode, 200)
  assert.equal(rest.headers?.['access-control-allow-credentials'], undefined)
  const v2 = (await runFetchV2(v2PreflightEvent())) as { statusCode: number; headers: Record<string, string> }
  assert.equal(v2.statusCode, 200)
  assert.equal(v2.headers['access-control-allow-credentials'], undefined)
})

test('lambda-v2-health: runFetchV2 serves an HTTP API (payload 2.0) event', async () => {
  const event = {
    rawPath: '/health',
    rawQueryString: '',
    headers: { host: 'localhost' },
    requestContext: { http: { method: 'GET' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2
  const result = (await runFetchV2(event)) as { statusCode: number; body: string }
  assert.equal(result.statusCode, 200)
  assert.deepEqual(JSON.parse(result.body), { status: 'ok' })
})

test('lambda-v2-cookies-ignored: runFetchV2 does not read the cookies field of an HTTP API event, so a todo_session cookie there is not seen (403); copied into a cookie header it is (200)', async () => {
  // The Lambda entry's services have no `jwt`; lend them the test one, which authCookie decodes the cookie with.
  const services = getSingletonServices() as unknown as Record<string, unknown>
  const jwt = await createTestJWT()
  const previousJwt = services.jwt
  services.jwt = jwt
  try {
    const cookie = `todo_session=${await jwt.encode({ value: 1, unit: 'hour' }, { userId: 'u_v2_cookie', role: 'member' })}`
    const listTodos = (extra: Record<string, unknown>) =>
      ({
        rawPath: '/todos',
        rawQueryString: '',
        headers: { host: 'localhost' },
        requestContext: { http: { method: 'GET' } },
        isBase64Encoded: false,
        ...extra,
      }) as unknown as APIGatewayProxyEventV2
    // Payload 2.0 delivers the request's cookies in `cookies`, not among the headers.
    const inCookiesField = (await runFetchV2(listTodos({ cookies: [cookie] }))) as { statusCode: number }
    assert.equal(inCookiesField.statusCode, 403)
    // The workaround: copy the cookies field into a cookie header before calling runFetchV2.
    const cookies = ['theme=dark', cookie]
    const copied = (await runFetchV2(listTodos({ cookies, headers: { host: 'localhost', cookie: cookies.join('; ') } }))) as { statusCode: number }
    assert.equal(copied.statusCode, 200)
  } finally {
    services.jwt = previousJwt
    if (previousJwt === undefined) delete services.jwt
  }
})

test('sqs-worker-by-queue-name: runSQSQueueWorker runs the worker named by the ARN and reports only failed records, among them one whose body fails input validation before the function runs', async () => {
  const lookups = watchTodoLookups()
  try {
    const result = await lambda.reminders(
      sqsEvent([
        { id: 'm-ok', body: JSON.stringify({ todoId: 'gone' }) },
        { id: 'm-bad', body: JSON.stringify({ notATodoId: 1 }) },
      ]),
    )
    assert.deepEqual(result, { batchItemFailures: [{ itemIdentifier: 'm-bad' }] })
    // sendReminder ran for m-ok only: m-bad was refused by the input schema before the function was called.
    assert.deepEqual(lookups.ids, ['gone'])
  } finally {
    lookups.restore()
  }
})

test('sqs-discard-processed: runSQSQueueWorker counts a job whose function awaits queue.discard() as processed: it logs the discard and leaves the record out of batchItemFailures', async () => {
  const infos = collectLogs(getSingletonServices() as never, 'info')
  try {
    const result = await lambda.reminders(
      sqsEvent([{ id: 'm-discard', body: JSON.stringify({ todoId: 'gone-strict' }), queue: 'todo-reminders-strict' }]),
    )
    assert.deepEqual(result, { batchItemFailures: [] })
    assert.ok(infos.lines.includes('SQS job m-discard discarded: Queue job m-discard discarded: to-do gone-strict no longer exists'), infos.lines.join('\n'))
  } finally {
    infos.restore()
  }
})

test('sqs-unknown-queue-fails: a record from a queue no worker is wired to is reported as failed', async () => {
  const result = await lambda.reminders(sqsEvent([{ id: 'm-other', body: '{}', queue: 'todo-other' }]))
  assert.deepEqual(result, { batchItemFailures: [{ itemIdentifier: 'm-other' }] })
})

test('sqs-record-without-arn-rejects: one record without an eventSourceARN makes the whole invocation reject before any job runs, the valid records with it', async () => {
  const event = sqsEvent([
    { id: 'm-ok', body: JSON.stringify({ todoId: 'gone' }) },
    { id: 'm-no-arn', body: JSON.stringify({ todoId: 'gone' }) },
  ])
  delete (event.Records[1] as { eventSourceARN?: string }).eventSourceARN
  const lookups = watchTodoLookups()
  try {
    await assert.rejects(lambda.reminders(event), { message: 'SQS record does not have eventSourceARN' })
    // Not even the valid record's job ran: sendReminder never looked its to-do up.
    assert.deepEqual(lookups.ids, [])
  } finally {
    lookups.restore()
  }
})

test('scheduled-daily-digest: the dailyDigest handler runs the daily-digest task and no other wired task', async () => {
  // The app wires other tasks too (weekday-digest, workflow-recovery): record which task functions run.
  const taskMeta = pikkuState(null, 'scheduler', 'meta') as Record<string, { pikkuFuncId: string }>
  const functions = pikkuState(null, 'function', 'functions') as Map<string, { func: (...args: any[]) => unknown }>
  const ran: string[] = []
  const restore: Array<() => void> = []
  for (const [name, { pikkuFuncId }] of Object.entries(taskMeta)) {
    const config = functions.get(pikkuFuncId)!
    const original = config.func
    config.func = (...args) => {
      ran.push(name)
      return original(...args)
    }
    restore.push(() => (config.func = original))
  }
  const logged: string[] = []
  const logger = getSingletonServices().logger
  const original = logger.info
  logger.info = ((message: string) => void logged.push(String(message))) as never
  try {
    await lambda.dailyDigest()
  } finally {
    logger.info = original
    for (const undo of restore) undo()
  }
  assert.ok(Object.keys(taskMeta).length > 1)
  assert.deepEqual(ran, ['daily-digest'])
  assert.ok(logged.includes('Sending the daily digest of open to-dos'))
})

test('scheduled-failure-rejects: a daily-digest run that throws, a skip() included, makes the dailyDigest handler reject, while runLambdaScheduled prints the error with console.error and resolves', async () => {
  const { runLambdaScheduled } = await import('@pikku/lambda/scheduled')
  const { pikkuFuncId } = (pikkuState(null, 'scheduler', 'meta') as Record<string, { pikkuFuncId: string }>)['daily-digest']!
  const skipped = { name: 'ScheduledTaskSkippedError', message: "Scheduled task 'daily-digest' was skipped: probe" }
  const printed: unknown[][] = []
  const consoleError = console.error
  console.error = (...args: unknown[]) => void printed.push(args)
  try {
    await withWrappedFunction(pikkuFuncId, () => async (_services, _data, wire) => wire.scheduledTask.skip('probe'), async () => {
      await assert.rejects(lambda.dailyDigest(), skipped)
      await runLambdaScheduled({} as never)
    })
    await withWrappedFunction(pikkuFuncId, () => async () => {
      throw new Error('digest failed')
    }, async () => {
      await assert.rejects(lambda.dailyDigest(), { message: 'digest failed' })
    })
  } finally {
    console.error = consoleError
  }
  const digestErrors = printed.filter(([label]) => String(label).startsWith("Scheduled task 'daily-digest'"))
  assert.equal(digestErrors.length, 1)
  assert.equal((digestErrors[0]![1] as Error).name, 'ScheduledTaskSkippedError')
})

test('lambda-bundle-imports-aws-services-peers: bundled with the page\'s esbuild options (@aws-sdk/* external), the Lambda entry still imports the S3, Secrets Manager, CloudFront signer and S3 presigner packages, peers of @pikku/aws-services, beside client-sqs', async () => {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: ['src/runtimes/lambda.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: ['@aws-sdk/*'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const [output] = Object.values(result.metafile.outputs)
  const sdk = [...new Set(output.imports.filter((i) => i.external && i.path.startsWith('@aws-sdk/')).map((i) => i.path))].sort()
  assert.deepEqual(sdk, [
    '@aws-sdk/client-s3',
    '@aws-sdk/client-secrets-manager',
    '@aws-sdk/client-sqs',
    '@aws-sdk/cloudfront-signer',
    '@aws-sdk/s3-request-presigner',
  ])
})

test('sqs-service-needs-options: SQSQueueService from @pikku/aws-services without options fails with "Cannot read properties of undefined"', () => {
  assert.throws(() => new (SQSQueueService as any)(), { name: 'TypeError', message: /Cannot read properties of undefined/ })
})

test('sqs-delay-limit: SQSQueueService refuses a delay above 900 seconds before sending anything', async () => {
  const queue = new SQSQueueService({ region: 'eu-west-1', queueUrlPrefix: 'http://127.0.0.1:9/000000000000/' })
  await assert.rejects(queue.add('todo-reminders', { todoId: 't' }, { delay: 901_000 }), {
    message: 'SQS delay cannot exceed 900 seconds (15 minutes). Requested: 901s',
  })
})

test('sqs-queue-reminder-tomorrow-fails: with the Lambda entry\'s @pikku/aws-services queue service, queueReminder for a to-do due tomorrow rejects on the delay limit before sending anything', async () => {
  const { queueReminder } = await import('../../src/functions/reminder-jobs.functions.js')
  const services = getSingletonServices() as unknown as {
    todoStore: { create(todo: Record<string, unknown>): Promise<{ todoId: string }>; remove(todoId: string): Promise<boolean> }
  }
  const todo = await services.todoStore.create({
    ownerId: 'u_sqs_delay',
    title: 'Due tomorrow',
    done: false,
    dueAt: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
  })
  try {
    // The function itself, on the services lambda.ts built: its delay runs until an hour before the due date (about 23 hours).
    // The queue URLs point at a closed local port, so an attempt to send would fail with a network error instead.
    await assert.rejects(queueReminder.func(services as never, { todoId: todo.todoId }, {} as never), {
      message: /^SQS delay cannot exceed 900 seconds \(15 minutes\)\. Requested: 8\d{4}s$/,
    })
  } finally {
    // The to-do was added to the store the other tests of this file share.
    await services.todoStore.remove(todo.todoId)
  }
})

test('sqs-deploy-names-mismatch: with the queue names pikku deploy -p serverless generates, the @pikku/lambda producer finds no URL and the runner no worker', async () => {
  // For a project 'todo-app' on stage 'dev', the generated serverless.yml names the queue todo-app-todo-reminders-dev
  // and sets its URL in SQS_QUEUE_URL_TODO_APP_TODO_REMINDERS (@pikku/deploy-serverless 0.12.4).
  process.env.SQS_QUEUE_URL_TODO_APP_TODO_REMINDERS = 'http://127.0.0.1:9/000000000000/todo-app-todo-reminders-dev'
  try {
    await assert.rejects(new LambdaSQSQueueService().add('todo-reminders', { todoId: 't' }), {
      message:
        'SQS queue URL not found for queue "todo-reminders". Set environment variable SQS_QUEUE_URL_TODO_REMINDERS or pass queueUrlMap to constructor.',
    })
  } finally {
    delete process.env.SQS_QUEUE_URL_TODO_APP_TODO_REMINDERS
  }
  const result = await lambda.reminders(
    sqsEvent([{ id: 'm-gen', body: JSON.stringify({ todoId: 'gone' }), queue: 'todo-app-todo-reminders-dev' }]),
  )
  assert.deepEqual(result, { batchItemFailures: [{ itemIdentifier: 'm-gen' }] })
})

test('deploy-handler-export-stub: for a unit with only a queue worker or a scheduled task, the handler export of createLambdaHandler answers 200 "Lambda active" and builds no services, runs nothing and reports no failure', async () => {
  // The entry pikku deploy -p serverless writes for such a unit calls createLambdaHandler(factories, ['queue']) or
  // (..., ['scheduled']), and its serverless.yml points the SQS and schedule events at <unit>/bundle.handler, not at the
  // queue or scheduled export (@pikku/deploy-serverless 0.12.4, adapter.ts and serverless-yml.ts).
  let built = 0
  const factories = {
    createConfig: async () => {
      built++
      return {}
    },
    createSingletonServices: async () => {
      built++
      return {} as never
    },
  }
  for (const type of ['queue', 'scheduled']) {
    const handlers = createLambdaHandler(factories, [type]) as Record<string, (event: unknown) => Promise<unknown>>
    assert.equal(typeof handlers[type], 'function')
    const answer = await handlers.handler!(sqsEvent([{ id: 'm-stub', body: JSON.stringify({ todoId: 'gone' }) }]))
    assert.deepEqual(answer, { statusCode: 200, body: `Lambda active (handlers: ${type})` })
  }
  assert.equal(built, 0)
})

test('sqs-lambda-delay-capped: the SQSQueueService of @pikku/lambda caps a longer delay at 900 seconds instead of throwing', async () => {
  const queue = new LambdaSQSQueueService({ 'todo-reminders': 'http://127.0.0.1:9/000000000000/todo-reminders' })
  const sent: Array<Record<string, unknown>> = []
  // The AWS client is replaced so that nothing leaves the process; what it would send is recorded.
  ;(queue as unknown as { client: unknown }).client = {
    send: async (command: { input: Record<string, unknown> }) => (sent.push(command.input), { MessageId: 'm-1' }),
  }
  assert.equal(await queue.add('todo-reminders', { todoId: 't' }, { delay: 2 * 24 * 60 * 60 * 1000 }), 'm-1')
  assert.equal(sent[0]!.DelaySeconds, 900)
})

// @pikku/aws-services beyond SQS. S3 calls go to a closed local port; the Secrets Manager client is replaced.
// The error lines a recordingLogger was given.
const errorLines = (lines: { level: string; text: string }[]) => lines.filter((l) => l.level === 'error').map((l) => l.text)
const s3Config = { bucketName: 'todo-files', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' }

test('s3-sign-failure-unsigned: S3Content signs links with the CloudFront key pair on https://<bucketName>/, and returns the URL unsigned when signing fails', async () => {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  const good = new S3Content(s3Config, recordingLogger().logger as never, { keyPairId: 'K1', privateKey })
  const link = await good.signContentKey({ bucket: 'attachments', contentKey: 't1/f', dateLessThan: new Date(Date.now() + 3_600_000) })
  assert.match(link, /^https:\/\/todo-files\/attachments\/t1\/f\?Expires=\d+&Key-Pair-Id=K1&Signature=/)
  const { lines, logger } = recordingLogger()
  const bad = new S3Content(s3Config, logger as never, { keyPairId: 'K1', privateKey: 'not a key' })
  const url = 'https://cdn.example.com/attachments/t1/f'
  assert.equal(await bad.signURL({ url, dateLessThan: new Date(Date.now() + 3_600_000) }), url)
  assert.deepEqual(errorLines(lines), [`Error signing url: ${url}`])
})

test('s3-errors-return-false: S3Content logs a failed write, copy or delete and returns false; a failed read rejects', async () => {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY }
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE'
  process.env.AWS_SECRET_ACCESS_KEY = 'example'
  try {
    const { lines, logger } = recordingLogger()
    const s3 = new S3Content(s3Config, logger as never, { keyPairId: 'K1', privateKey: '' })
    const args = { bucket: 'attachments', key: 't1/f' }
    assert.equal(await s3.writeFile({ ...args, stream: Readable.from(['x']) }), false)
    assert.equal(await s3.copyFile({ ...args, fromAbsolutePath: new URL(import.meta.url).pathname }), false)
    assert.equal(await s3.deleteFile(args), false)
    const errors = errorLines(lines)
    assert.equal(errors.length, 3)
    assert.match(errors[2]!, /^Error deleting file, key: attachments\/t1\/f .*ECONNREFUSED/)
    await assert.rejects(s3.readFile(args), /ECONNREFUSED/)
    await assert.rejects(s3.readFileAsBuffer(args), /ECONNREFUSED/)
  } finally {
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID
    else process.env.AWS_ACCESS_KEY_ID = saved.id
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret
  }
})

const exampleKeys = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example' }
const uploadArgs = { bucket: 'attachments', fileKey: 't1/f', contentType: 'image/png' }
/** The SigV4 signature of a presigned S3 PUT URL whose only signed header is host, over every query parameter but X-Amz-Signature. */
const sigV4QuerySignature = (url: URL, secret: string) => {
  const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  const query = [...url.searchParams]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  const canonical = ['PUT', url.pathname, query, `host:${url.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n')
  const amzDate = url.searchParams.get('X-Amz-Date')!
  const scope = url.searchParams.get('X-Amz-Credential')!.split('/').slice(1).join('/')
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n')
  const key = scope.split('/').reduce<Buffer | string>((k, part) => createHmac('sha256', k).update(part).digest(), `AWS4${secret}`)
  return createHmac('sha256', key).update(toSign).digest('hex')
}

test('s3-upload-url-empty-checksum: S3Content signs its PUT URL for 3600 seconds with x-amz-checksum-crc32=AAAAAA==, the CRC32 of an empty body, unless AWS_REQUEST_CHECKSUM_CALCULATION is WHEN_REQUIRED', async () => {
  const { crc32 } = await import('node:zlib')
  const emptyBodyCrc = Buffer.alloc(4).fill(0).toString('base64')
  assert.equal(crc32(Buffer.alloc(0)), 0)
  const uploadUrl = (setting: string | undefined) =>
    withEnv({ ...exampleKeys, AWS_REQUEST_CHECKSUM_CALCULATION: setting }, async () => {
      const s3 = new S3Content({ bucketName: 'todo-files', region: 'eu-west-1' }, recordingLogger().logger as never, { keyPairId: 'K1', privateKey: '' })
      return new URL((await s3.getUploadURL(uploadArgs)).uploadUrl)
    })
  const byDefault = await uploadUrl(undefined)
  assert.equal(byDefault.searchParams.get('X-Amz-Expires'), '3600')
  assert.equal(byDefault.searchParams.get('x-amz-checksum-crc32'), emptyBodyCrc)
  // The checksum is one of the query parameters the signature covers, so a client cannot drop it: the SigV4 signature
  // recomputed over the URL's query matches X-Amz-Signature, and recomputed without the checksum it does not.
  const signature = byDefault.searchParams.get('X-Amz-Signature')
  assert.equal(sigV4QuerySignature(byDefault, exampleKeys.AWS_SECRET_ACCESS_KEY), signature)
  const dropped = new URL(byDefault)
  dropped.searchParams.delete('x-amz-checksum-crc32')
  assert.notEqual(sigV4QuerySignature(dropped, exampleKeys.AWS_SECRET_ACCESS_KEY), signature)
  const whenRequired = await uploadUrl('WHEN_REQUIRED')
  assert.equal(whenRequired.searchParams.get('x-amz-checksum-crc32'), null)
  assert.equal(whenRequired.searchParams.get('X-Amz-Expires'), '3600')
})

test('s3-needs-sdk-credentials: S3Content takes no credentials of its own; with none for the AWS SDK to find, getUploadURL rejects with "Could not load credentials from any providers"', async () => {
  await withEnv(
    // Every source the SDK's default chain reads is closed: the environment, the shared files, SSO and web identity, the
    // container and instance endpoints, so a developer's ~/.aws cannot make the call succeed.
    {
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_SESSION_TOKEN: undefined,
      AWS_PROFILE: undefined,
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
      AWS_CONFIG_FILE: '/nonexistent/aws-config',
      AWS_WEB_IDENTITY_TOKEN_FILE: undefined,
      AWS_ROLE_ARN: undefined,
      AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: undefined,
      AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined,
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    async () => {
      const s3 = new S3Content({ bucketName: 'todo-files', region: 'eu-west-1' }, recordingLogger().logger as never, { keyPairId: 'K1', privateKey: '' })
      await assert.rejects(s3.getUploadURL(uploadArgs), { name: 'CredentialsProviderError', message: 'Could not load credentials from any providers' })
    },
  )
})

test('s3-endpoint-host-style: given an endpoint that is a host name, S3Content puts the bucket in the URL\'s host name; given an IP address, or a bucket name that cannot be a host name (capitals, an underscore, a dot over https), in its path', async () => {
  const url = (endpoint: string, bucketName = 'todo-files') =>
    withEnv(exampleKeys, async () => {
      const s3 = new S3Content({ bucketName, region: 'eu-west-1', endpoint }, recordingLogger().logger as never, { keyPairId: 'K1', privateKey: '' })
      const { origin, pathname } = new URL((await s3.getUploadURL(uploadArgs)).uploadUrl)
      return `${origin}${pathname}`
    })
  assert.equal(await url('http://localhost:4566'), 'http://todo-files.localhost:4566/attachments/t1/f')
  assert.equal(await url('http://127.0.0.1:4566'), 'http://127.0.0.1:4566/todo-files/attachments/t1/f')
  // The exceptions on a named host: a name that cannot be a host label, and a dotted name over https.
  assert.equal(await url('http://localhost:4566', 'Todo_Files'), 'http://localhost:4566/Todo_Files/attachments/t1/f')
  assert.equal(await url('https://s3.example.com', 'todo.files'), 'https://s3.example.com/todo.files/attachments/t1/f')
  assert.equal(await url('http://localhost:4566', 'todo.files'), 'http://todo.files.localhost:4566/attachments/t1/f')
})

test('sqs-options-only-delay: SQSQueueService from @pikku/aws-services sends the queue URL, the JSON body and DelaySeconds and nothing else: jobId, attempts, backoff and priority are dropped, and 999 ms goes out as 0 seconds', async () => {
  const queue = new SQSQueueService({ region: 'eu-west-1', queueUrlPrefix: QUEUE_URL_PREFIX })
  const sent: Array<Record<string, unknown>> = []
  // The AWS client is replaced so that nothing leaves the process; what it would send is recorded.
  ;(queue as unknown as { client: unknown }).client = {
    send: async (command: { input: Record<string, unknown> }) => (sent.push(command.input), { MessageId: 'm-1' }),
  }
  const options = { jobId: 'reminder-t', attempts: 3, backoff: { type: 'exponential' as const, delay: 1000 }, priority: 1, delay: 999 }
  assert.equal(await queue.add('todo-reminders', { todoId: 't' }, options), 'm-1')
  assert.deepEqual(sent, [{ QueueUrl: `${QUEUE_URL_PREFIX}todo-reminders`, MessageBody: '{"todoId":"t"}', DelaySeconds: 0 }])
})

test('sqs-delay-negative: SQSQueueService from @pikku/aws-services refuses a negative delay before sending anything', async () => {
  const queue = new SQSQueueService({ region: 'eu-west-1', queueUrlPrefix: QUEUE_URL_PREFIX })
  let sends = 0
  ;(queue as unknown as { client: unknown }).client = { send: async () => (sends++, { MessageId: 'm-1' }) }
  await assert.rejects(queue.add('todo-reminders', { todoId: 't' }, { delay: -1 }), { message: 'SQS delay cannot be negative. Requested: -1s' })
  assert.equal(sends, 0)
})

test('aws-secrets-json-and-denied: AWSSecrets parses a secret string as JSON, and an access error reads as a missing secret to hasSecret and getSecrets', async () => {
  const secrets = new AWSSecrets({ awsRegion: 'eu-west-1' })
  const useClient = (send: () => Promise<unknown>) => ((secrets as unknown as { client: unknown }).client = { send })
  // A key/value secret, as the Secrets Manager console stores one, comes back as an object.
  useClient(async () => ({ SecretString: '{"JWT_SECRET":"a-signing-key"}' }))
  assert.deepEqual((await secrets.getSecret('JWT_SECRET')).reveal(), { JWT_SECRET: 'a-signing-key' })
  useClient(async () => ({ SecretString: 'a-signing-key' }))
  assert.equal((await secrets.getSecret('JWT_SECRET')).reveal(), 'a-signing-key')
  useClient(async () => {
    throw Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' })
  })
  assert.equal(await secrets.hasSecret('JWT_SECRET'), false)
  assert.deepEqual(await secrets.getSecrets(['JWT_SECRET']), {})
  await assert.rejects(secrets.getSecret('JWT_SECRET'), (error: Error) => {
    assert.equal(error.message, 'FATAL: Error finding secret: JWT_SECRET')
    assert.equal((error.cause as Error).name, 'AccessDeniedException')
    return true
  })
})

test('aws-secrets-plain-text-parsed: AWSSecrets turns a plain-text secret that is valid JSON, such as 123456, true or a quoted string, into the parsed value, not the text stored', async () => {
  const secrets = new AWSSecrets({ awsRegion: 'eu-west-1' })
  const read = async (stored: string) => {
    ;(secrets as unknown as { client: unknown }).client = { send: async () => ({ SecretString: stored }) }
    return (await secrets.getSecret('PIN')).reveal()
  }
  // Digits only: a number comes back. A leading zero is not JSON, so such a value stays text.
  assert.strictEqual(await read('123456'), 123456)
  assert.strictEqual(await read('1e3'), 1000)
  assert.strictEqual(await read('007'), '007')
  assert.strictEqual(await read('true'), true)
  // A value stored with its quotes loses them.
  assert.strictEqual(await read('"quoted"'), 'quoted')
  // Text that is not JSON is returned as it is.
  assert.strictEqual(await read('123456abc'), '123456abc')
})

test('cloudflare-fetch-health: the Worker entry serves GET /health from a fetch Request in Node.js', async () => {
  await import('./harness/core-cloudflare.js')
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  const response = await worker.fetch(new Request('http://localhost/health'), { TODO_TEST_VAR: 'copied' })
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { status: 'ok' })
  // The entry copies the Worker's string variables into process.env before building services.
  assert.equal(process.env.TODO_TEST_VAR, 'copied')
  quiet(getSingletonServices() as never)
  const forbidden = await worker.fetch(new Request('http://localhost/todos'), {})
  assert.equal(forbidden.status, 403)
})

test('cloudflare-cf-ray-is-error-id: through the Worker entry (runFetch), a CF-Ray header, not x-request-id, comes back as the errorId', async () => {
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  const withRay = await worker.fetch(
    new Request('http://localhost/no-such-route', { headers: { 'x-request-id': 'req-123', 'cf-ray': 'ray-456' } }),
    {},
  )
  assert.equal(withRay.status, 404)
  assert.equal((await withRay.json()).errorId, 'ray-456')
  // Without a CF-Ray header, the x-request-id is used, as on the other runtimes.
  const withoutRay = await worker.fetch(new Request('http://localhost/no-such-route', { headers: { 'x-request-id': 'req-123' } }), {})
  assert.equal((await withoutRay.json()).errorId, 'req-123')
})

test('cloudflare-scheduled-by-cron: the Worker scheduled handler runs the task whose schedule equals the cron, and nothing for another cron, even one that differs by a space', async () => {
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  const logged: string[] = []
  const logger = getSingletonServices().logger
  const original = logger.info
  logger.info = ((message: string) => void logged.push(String(message))) as never
  try {
    await worker.scheduled({ cron: '0 9 * * *', scheduledTime: Date.now() } as never, {})
    assert.ok(logged.includes('Sending the daily digest of open to-dos'))
    logged.length = 0
    await worker.scheduled({ cron: '1 2 * * *', scheduledTime: Date.now() } as never, {})
    assert.ok(!logged.includes('Sending the daily digest of open to-dos'))
    // The same schedule written with one extra space is another string: nothing runs.
    await worker.scheduled({ cron: '0  9 * * *', scheduledTime: Date.now() } as never, {})
    assert.ok(!logged.includes('Sending the daily digest of open to-dos'))
  } finally {
    logger.info = original
  }
})

test('platform-trace-id: runLambdaScheduled and the Cloudflare scheduled handler run a task under the trace id cron-<random UUID>, which does not hold the task name', async () => {
  const { default: worker } = await import('../../src/runtimes/cloudflare.js')
  const { runLambdaScheduled } = await import('@pikku/lambda/scheduled')
  const { traceIds, restore } = recordTraceIds(getSingletonServices() as never)
  // runLambdaScheduled runs every wired task and prints a failed one (a skipped weekday-digest) with console.error.
  const consoleError = console.error
  console.error = () => {}
  try {
    await runLambdaScheduled({} as never)
    const lambdaRuns = traceIds.length
    assert.equal(lambdaRuns, Object.keys(pikkuState(null, 'scheduler', 'meta')).length)
    await worker.scheduled({ cron: '0 9 * * *', scheduledTime: Date.now() } as never, {})
    assert.equal(traceIds.length, lambdaRuns + 1)
  } finally {
    console.error = consoleError
    restore()
  }
  for (const id of traceIds) assert.match(id, /^cron-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
})

/** A stand-in Durable Object state for CloudflareEventHubService: a storage map, and sockets found by their tag. */
const fakeDurableObject = (sockets: Record<string, { sent: string[] }>) => {
  const stored = new Map<string, unknown>()
  const puts: string[] = []
  const ctx = {
    blockConcurrencyWhile: async (fn: () => Promise<void>) => fn(),
    storage: {
      get: async (key: string) => stored.get(key),
      put: async (key: string, value: unknown) => {
        puts.push(key)
        stored.set(key, value)
      },
    },
    getWebSockets: (tag: string) => (sockets[tag] ? [{ send: (data: string) => void sockets[tag]!.sent.push(data) }] : []),
  }
  return { ctx, puts }
}

test('cloudflare-event-hub-not-stored: CloudflareEventHubService never writes its subscriptions to storage, so a new hub on the same Durable Object reaches no one', async () => {
  const { CloudflareEventHubService } = await import('@pikku/cloudflare/eventhub')
  const socket = { sent: [] as string[] }
  const { ctx, puts } = fakeDurableObject({ c1: socket })
  const { logger } = recordingLogger()
  const hub = new CloudflareEventHubService<Record<string, unknown>>(logger as never, ctx as never)
  await hub.subscribe('todos:cf', 'c1')
  await hub.publish('todos:cf', null as never, { n: 1 })
  assert.deepEqual(socket.sent, ['{"n":1}'])
  // Nothing was put in the Durable Object's storage, so the hub a woken object builds starts empty.
  assert.deepEqual(puts, [])
  const afterWake = new CloudflareEventHubService<Record<string, unknown>>(logger as never, ctx as never)
  await afterWake.publish('todos:cf', null as never, { n: 2 })
  assert.deepEqual(socket.sent, ['{"n":1}'])
  // Two first calls made at once on a fresh hub: the first settles, the second waits on a callback that nothing calls.
  const fresh = new CloudflareEventHubService<Record<string, unknown>>(logger as never, ctx as never)
  let secondSettled = false
  const first = fresh.subscribe('a', 'c1')
  void fresh.subscribe('b', 'c1').then(() => (secondSettled = true))
  await first
  // Every promise callback queued by the time the first call ended has run: the second would have settled too.
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(secondSettled, false)
  // The second call never took effect: a publish on its topic reaches no one.
  await fresh.publish('b', null as never, { n: 3 })
  assert.deepEqual(socket.sent, ['{"n":1}'])
})

test('cloudflare-event-hub-binary-as-json: CloudflareEventHubService ignores isBinary and sends bytes as JSON text', async () => {
  const { CloudflareEventHubService } = await import('@pikku/cloudflare/eventhub')
  const socket = { sent: [] as string[] }
  const { ctx } = fakeDurableObject({ c1: socket })
  const { logger } = recordingLogger()
  const hub = new CloudflareEventHubService<Record<string, unknown>>(logger as never, ctx as never)
  await hub.subscribe('bytes', 'c1')
  await hub.publish('bytes', null as never, new Uint8Array([1, 2]), true)
  assert.deepEqual(socket.sent, ['{"0":1,"1":2}'])
})

test('cloudflare-ws-do-new-hub-per-event: the Durable Object class of a deploy-generated channel unit puts a new CloudflareEventHubService on the singleton services for each event, so a subscription made in one event is gone in the next', async () => {
  await import('./harness/core-cloudflare.js')
  const { createCloudflareWebSocketHandler, PikkuWebSocketHibernationServer } = await import('@pikku/cloudflare/handler')
  type Hub = { subscribe(topic: string, channelId: string): Promise<void>; publish(topic: string, from: null, data: unknown): Promise<void> }
  const previous = getSingletonServices()
  const previousHub = previous.eventHub
  const socket = { sent: [] as string[] }
  const { ctx } = fakeDurableObject({ c1: socket })
  const services = { logger: recordingLogger().logger }
  try {
    // What the generated entry does; setupServices then registers these services as core's singleton services.
    // (It also keeps them in a module-level cache of @pikku/cloudflare that nothing clears. The queue and dispatch
    // tests below call setupServices too; they hand it the app's services and use core's singleton services, so
    // whichever services it has cached, each test passes in any order.)
    createCloudflareWebSocketHandler({ createConfig: async () => ({}), createSingletonServices: async () => services as never })
    const durableObject = new PikkuWebSocketHibernationServer(ctx as never, {}) as unknown as {
      getParams(): Promise<{ singletonServices: { eventHub: Hub } }>
    }
    // One event (say a connect): a channel function subscribes through the services' hub.
    const first = (await durableObject.getParams()).singletonServices.eventHub
    await first.subscribe('todos:cf', 'c1')
    // The next event on the same object replaces the hub, and the runners read it from core's singleton services.
    const next = (await durableObject.getParams()).singletonServices.eventHub
    assert.notEqual(next, first)
    assert.equal((getSingletonServices() as unknown as { eventHub: Hub }).eventHub, next)
    await next.publish('todos:cf', null, { n: 1 })
    assert.deepEqual(socket.sent, [])
  } finally {
    // Should setupServices already hold the app's services (cached by an earlier call), getParams changed their hub.
    previous.eventHub = previousHub
    setSingletonServices(previous)
  }
})

test('cloudflare-close-not-told-to-services-hub: when a socket closes, CloudflareWebSocketHibernationServer tells only its own hub, so the eventHub in the services keeps the channel until a publish finds no socket and logs it', async () => {
  const { CloudflareWebSocketHibernationServer } = await import('@pikku/cloudflare/websocket')
  const { CloudflareEventHubService } = await import('@pikku/cloudflare/eventhub')
  // The socket c1 has gone: the object no longer finds it by its tag.
  const { ctx } = fakeDurableObject({})
  Object.assign(ctx, { getTags: () => ['c1'] })
  const { logger } = recordingLogger()
  const app = getSingletonServices()
  const appHub = app.eventHub
  // A Durable Object class written as the Cloudflare page says: one hub, set once on the registered singleton
  // services, which the channel runners (and so the functions) read.
  class ChannelObject extends CloudflareWebSocketHibernationServer {
    hub = new CloudflareEventHubService<Record<string, unknown>>(logger as never, this.ctx)
    protected async getParams() {
      return { singletonServices: app }
    }
  }
  const durableObject = new ChannelObject(ctx as never, {})
  await durableObject.hub.subscribe('todos:cf', 'c1')
  const errors: string[] = []
  const error = mock.method(console, 'error', (message: unknown) => void errors.push(String(message)))
  const info = mock.method(app.logger, 'info', () => {})
  try {
    app.eventHub = durableObject.hub as never
    await durableObject.webSocketClose({} as never, 1000, '', true)
    assert.deepEqual(errors, [])
    // The hub the functions use still lists c1; the first publish after the close finds no socket and drops it.
    await durableObject.hub.publish('todos:cf', null as never, { n: 1 })
    assert.deepEqual(errors, ["Socket c1 doesn't exist, cleaning up"])
  } finally {
    app.eventHub = appHub
    error.mock.restore()
    info.mock.restore()
  }
})

test('cloudflare-queue-by-batch-name: the Cloudflare queue handler picks the worker by the name of the Cloudflare queue the batch came from, or a queue name it ends with, not by the queueName in the message', async () => {
  await import('./harness/core-cloudflare.js')
  const { createCloudflareQueueHandler } = await import('@pikku/cloudflare/handler')
  const app = getSingletonServices()
  const Handler = createCloudflareQueueHandler({ createConfig: async () => ({}), createSingletonServices: async () => app })
  const worker = new Handler(undefined, {})
  Object.assign(worker, { env: {} })
  // The body CloudflareQueueService sends for queueService.add('todo-reminders', ...).
  const message = { id: 'm1', body: { id: 'j1', queueName: 'todo-reminders', data: { todoId: 'no-such-todo' } } }
  const log = mock.method(console, 'log', () => {})
  const error = mock.method(console, 'error', () => {})
  try {
    // A prefix is tolerated: the batch goes to the todo-reminders worker.
    await worker.queue({ queue: 'acme-todo-reminders', messages: [message] })
    // Another name is not, whatever the message says: the batch fails, so Cloudflare delivers it again.
    await assert.rejects(
      worker.queue({ queue: 'reminders-prod', messages: [message] }),
      /Missing generated metadata for queue worker 'reminders-prod'/,
    )
  } finally {
    log.mock.restore()
    error.mock.restore()
    setSingletonServices(app)
  }
})

test('cloudflare-dispatch-skip-503: the /__pikku/scheduler-job route of createCloudflareHandler answers a skipped run with 503, the status it keeps for errors worth retrying, and a task name nobody registered too', async () => {
  await import('./harness/core-cloudflare.js')
  const { createCloudflareHandler } = await import('@pikku/cloudflare/handler')
  const app = getSingletonServices()
  // Hand setupServices the app's own services, so the singleton services stay what they were whatever it has cached.
  const Handler = createCloudflareHandler({ createConfig: async () => ({}), createSingletonServices: async () => app }, ['scheduled'])
  const worker = new Handler(undefined, {})
  // The stand-in WorkerEntrypoint does not keep env, as the Workers runtime does; set it as the runtime would.
  Object.assign(worker, { env: { PIKKU_DISPATCH_SECRET: 'dispatch-secret-for-tests' } })
  const dispatch = (taskName: string) =>
    worker.fetch(
      new Request('http://worker/__pikku/scheduler-job', {
        method: 'POST',
        headers: { 'x-pikku-dispatch': 'dispatch-secret-for-tests' },
        body: JSON.stringify({ taskName }),
      }),
    )
  // Saturday 14 March 2026: the weekday digest calls scheduledTask.skip().
  mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 2, 14, 8, 30) })
  try {
    const skipped = await dispatch('weekday-digest')
    assert.equal(skipped.status, 503)
    assert.equal((await skipped.json()).errorName, 'ScheduledTaskSkippedError')
    // Only PikkuMissingMetaError gets the no-retry 422; an unknown task name fails with another error.
    const unknown = await dispatch('no-such-task')
    assert.equal(unknown.status, 503)
    assert.match((await unknown.json()).message, /Scheduled task not found: no-such-task/)
  } finally {
    mock.timers.reset()
    setSingletonServices(app)
  }
})

test('nextjs-api-route: pikkuAPIRequest strips /api and answers GET /api/health 200, GET /api/todos without a session 403', async () => {
  const { pikkuAPIRequest } = await import('#pikku/pikku-nextjs.gen.js')
  const { NextRequest } = await import('next/server.js')
  const context = { params: Promise.resolve({}) } as never
  const health = await pikkuAPIRequest(new NextRequest('http://localhost:3000/api/health'), context)
  assert.equal(health.status, 200)
  assert.deepEqual(await health.json(), { status: 'ok' })
  quiet(getSingletonServices() as never)
  const todos = await pikkuAPIRequest(new NextRequest('http://localhost:3000/api/todos'), context)
  assert.equal(todos.status, 403)
})

test('nextjs-prefix-kept-404: with removeAPIPrefix(false), /api/health matches no route and answers 404', async () => {
  const { pikkuAPIRequest, removeAPIPrefix } = await import('#pikku/pikku-nextjs.gen.js')
  const { NextRequest } = await import('next/server.js')
  removeAPIPrefix(false)
  try {
    const response = await pikkuAPIRequest(new NextRequest('http://localhost:3000/api/health'), { params: Promise.resolve({}) } as never)
    assert.equal(response.status, 404)
  } finally {
    removeAPIPrefix(true)
  }
})

test('nextjs-dynamic-helper-outside-request: outside a Next.js request a dynamic helper rejects when it reads cookies, while a static one runs the route', async () => {
  const { pikku } = await import('#pikku/pikku-nextjs.gen.js')
  // get reads the request's cookies and headers through next/headers, which needs a request scope.
  await assert.rejects(pikku().get('/health'), { message: /`cookies` was called outside a request scope/ })
  // staticGet reads neither, so it runs in plain Node.js.
  assert.deepEqual(await pikku().staticGet('/health'), { status: 'ok' })
})

test('nextjs-worker-rpc-get-path-only: the worker-rpc transport sends a GET with the path parameters filled in and the rest of the input nowhere', async () => {
  const { PikkuNextJSWorkerRPC } = await import('@pikku/next')
  const sent: { url: string; body: string }[] = []
  const fetcher = {
    fetch: async (req: Request) => {
      sent.push({ url: req.url, body: await req.text() })
      return Response.json({})
    },
  }
  const client = new PikkuNextJSWorkerRPC({ fetcher })
  await client.actionRequest('/todos/:todoId', 'GET', { todoId: 't1', includeDone: 'true' })
  assert.deepEqual(sent[0], { url: 'https://pikku.local/todos/t1', body: '' })
  await client.actionRequest('/todos/:todoId', 'PATCH', { todoId: 't1', title: 'x' })
  assert.deepEqual(sent[1], { url: 'https://pikku.local/todos/t1', body: '{"todoId":"t1","title":"x"}' })
})

test('nextjs-auth-handler-own-services: toNextJsAuthHandler given a factory builds a set of singleton services of its own, apart from PikkuNextJS', async () => {
  const { PikkuNextJS, toNextJsAuthHandler } = await import('@pikku/next')
  let created = 0
  const createConfig = async () => ({}) as never
  const createServices = async () => {
    created++
    return {} as never
  }
  const nextjs = new PikkuNextJS(createConfig, createServices)
  await (nextjs as any).getSingletonServices()
  assert.equal(created, 1)
  const auth = toNextJsAuthHandler((() => ({ handler: async () => new Response('ok') })) as never, createConfig, createServices)
  await auth.GET(new Request('http://localhost:3000/api/auth/ok'))
  await auth.GET(new Request('http://localhost:3000/api/auth/ok'))
  assert.equal(created, 2)
})

test('nextjs-path-param-number: the in-process and worker-rpc helpers throw before the call when a path parameter is a number', async () => {
  const { PikkuNextJS, PikkuNextJSWorkerRPC } = await import('@pikku/next')
  const expected = { name: 'TypeError', message: 'Expected "todoId" to be a string' }
  // Stub factories: the path is built before any request object, cookie or header is read.
  const nextjs = new PikkuNextJS(async () => ({}) as never, async () => ({}) as never)
  await assert.rejects(nextjs.actionRequest('/todos/:todoId', 'GET', { todoId: 5 }), expected)
  await assert.rejects(nextjs.staticActionRequest('/todos/:todoId', 'GET', { todoId: 5 }), expected)
  let fetched = 0
  const worker = new PikkuNextJSWorkerRPC({ fetcher: { fetch: async () => (fetched++, Response.json({})) } })
  await assert.rejects(worker.actionRequest('/todos/:todoId', 'GET', { todoId: 5 }), expected)
  assert.equal(fetched, 0)
})

test('nextjs-worker-rpc-204-throws: a 204 answer with no body, which core\'s fetch gives a function that returns nothing, rejects the worker-rpc call as non-JSON', async () => {
  const { PikkuNextJSWorkerRPC } = await import('@pikku/next')
  let fetched = 0
  // The worker's answer for deleteTodo, as core-fetch-runner shows core's fetch gives it: 204, empty body.
  const worker = new PikkuNextJSWorkerRPC({ fetcher: { fetch: async () => (fetched++, new Response(null, { status: 204 })) } })
  await assert.rejects(worker.actionRequest('/todos/:todoId', 'DELETE', { todoId: 't1' }), {
    message: 'Worker RPC DELETE /todos/:todoId returned non-JSON response',
  })
  assert.equal(fetched, 1)
})

test('nextjs-worker-rpc-delete-body-unread: worker-rpc sends a DELETE\'s input as a JSON body, which core\'s fetch request does not read for DELETE', async () => {
  const { PikkuNextJSWorkerRPC } = await import('@pikku/next')
  const { PikkuFetchHTTPRequest } = await import('@pikku/core/http')
  let data: unknown
  let body = ''
  const fetcher = {
    fetch: async (req: Request) => {
      body = await req.clone().text()
      const request = new PikkuFetchHTTPRequest(req)
      request.setParams({ todoId: 't1' })
      data = await request.data()
      return Response.json({})
    },
  }
  await new PikkuNextJSWorkerRPC({ fetcher }).actionRequest('/todos/:todoId', 'DELETE', { todoId: 't1', reason: 'done' })
  assert.equal(body, '{"todoId":"t1","reason":"done"}')
  assert.deepEqual(data, { todoId: 't1' })
})

test('nextjs-static-rpc-session-func-403: staticRPC passes the static check, since /rpc/:rpcName is auth: false, and a target that needs a session rejects with ForbiddenError "Authentication required"', async () => {
  const { pikku } = await import('#pikku/pikku-nextjs.gen.js')
  await assert.rejects(pikku().staticRPC('countOpenTodos', {} as never), (error: unknown) => {
    assert.ok(error instanceof ForbiddenError)
    assert.equal(error.message, 'Authentication required')
    return true
  })
})

test('nextjs-api-options-preflight: pikkuAPIRequest given an OPTIONS preflight runs the "*" group (CORS) and answers 204', async () => {
  const { pikkuAPIRequest } = await import('#pikku/pikku-nextjs.gen.js')
  const { NextRequest } = await import('next/server.js')
  const preflight = new NextRequest('http://localhost:3000/api/todos', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
  })
  const response = await pikkuAPIRequest(preflight, { params: Promise.resolve({}) } as never)
  assert.equal(response.status, 204)
  assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:5173')
})

test('nextjs-route-without-options-preflight: with the route file\'s exports (no OPTIONS), Next.js 15 answers a preflight itself, 204 with an Allow header and no CORS headers, and pikkuAPIRequest is not called', async () => {
  const { autoImplementMethods } = await import('next/dist/server/route-modules/app-route/helpers/auto-implement-methods.js')
  let calls = 0
  const pikkuAPIRequest = async () => (calls++, new Response(null, { status: 500 }))
  // app/api/[...route]/route.ts as the page shows it: every method but OPTIONS goes to pikkuAPIRequest.
  const methods = autoImplementMethods({ GET: pikkuAPIRequest, POST: pikkuAPIRequest, PUT: pikkuAPIRequest, PATCH: pikkuAPIRequest, DELETE: pikkuAPIRequest } as never)
  const preflight = new Request('http://localhost:3000/api/todos', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
  })
  const response = await (methods as unknown as Record<string, (req: Request) => Promise<Response> | Response>).OPTIONS!(preflight)
  assert.equal(response.status, 204)
  assert.match(response.headers.get('allow') ?? '', /POST/)
  assert.equal(response.headers.get('access-control-allow-origin'), null)
  assert.equal(calls, 0)
})

test('nextjs-sse-held-until-return: through pikkuAPIRequest (core\'s fetch), an SSE route\'s Response comes back only once its function returns, carrying every event sent meanwhile', async () => {
  const { pikkuAPIRequest } = await import('#pikku/pikku-nextjs.gen.js')
  const { NextRequest } = await import('next/server.js')
  // For this test only, GET /health becomes a stream whose function waits between two events; put back below.
  const held = await holdHealthStream()
  try {
    let answered = false
    const pending = pikkuAPIRequest(new NextRequest('http://localhost:3000/api/health'), { params: Promise.resolve({}) } as never).then(
      (response) => ((answered = true), response),
    )
    await held.firstSent
    // Every promise callback queued by then has run: a Response handed back as the stream opened would be here.
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(answered, false)
    assert.deepEqual(await held.releaseAndRead(pending), HELD_STREAM_ANSWER)
  } finally {
    held.restore()
  }
})

test('nextjs-helper-response-result-throws: an in-process helper rejects with "Next Resposne doesn\'t support arrayBuffer" after the function ran, when it returns a Response with a body or a value on a route with returnsJSON: false, and not when there is no body to write', async () => {
  const { pikku } = await import('#pikku/pikku-nextjs.gen.js')
  // For this test only, GET /health returns other things than JSON; the route and the function are put back below.
  const route = pikkuState(null, 'http', 'routes').get('get')!.get('/health') as unknown as { returnsJSON?: boolean }
  const funcId = (pikkuState(null, 'http', 'meta') as any).get['/health'].pikkuFuncId as string
  const functions = pikkuState(null, 'function', 'functions')
  const original = functions.get(funcId)!
  const logger = getSingletonServices().logger
  const error = logger.error
  let ran = 0
  const expected = { message: "Next Resposne doesn't support arrayBuffer" }
  logger.error = () => {}
  try {
    functions.set(funcId, { ...original, func: async () => (ran++, new Response('ok', { headers: { 'content-type': 'text/plain' } })) } as never)
    await assert.rejects(pikku().staticGet('/health'), expected)
    functions.set(funcId, { ...original, func: async () => (ran++, 'ok') } as never)
    route.returnsJSON = false
    await assert.rejects(pikku().staticGet('/health'), expected)
    assert.equal(ran, 2)
    // Nothing to write, nothing thrown: a Response with an empty body, or no value on a returnsJSON: false route.
    functions.set(funcId, { ...original, func: async () => (ran++, undefined) } as never)
    assert.equal(await pikku().staticGet('/health'), undefined)
    delete route.returnsJSON
    const empty = new Response(null, { status: 204 })
    functions.set(funcId, { ...original, func: async () => (ran++, empty) } as never)
    assert.equal(await pikku().staticGet('/health'), empty)
    assert.equal(ran, 4)
  } finally {
    delete route.returnsJSON
    functions.set(funcId, original)
    logger.error = error
  }
})

test('nextjs-static-cookie-throws: a static helper rejects with "Need to allow dynamic optin for cookies" when the function sets a cookie', async () => {
  const { pikku } = await import('#pikku/pikku-nextjs.gen.js')
  // For this test only, the function of GET /health sets a cookie; it is put back below.
  const funcId = (pikkuState(null, 'http', 'meta') as any).get['/health'].pikkuFuncId as string
  const functions = pikkuState(null, 'function', 'functions')
  const original = functions.get(funcId)!
  const logger = getSingletonServices().logger
  const error = logger.error
  logger.error = () => {}
  try {
    functions.set(funcId, {
      ...original,
      func: async (_services: unknown, _data: unknown, { http }: any) => {
        http.response.cookie('visited', '1', { path: '/' })
        return { status: 'ok' }
      },
    } as never)
    await assert.rejects(pikku().staticGet('/health'), { message: 'Need to allow dynamic optin for cookies' })
  } finally {
    functions.set(funcId, original)
    logger.error = error
  }
})

test('lambda-event-hub-null-publish: LambdaEventHubService.publish with a null channelId sends to no one; with a sender id it sends to every other subscriber', async () => {
  const { LambdaEventHubService } = await import('@pikku/lambda/websocket')
  const event = { requestContext: { domainName: 'ws.example.com', stage: 'prod' } } as unknown as APIGatewayEvent
  const eventHubStore = { getChannelIdsForTopic: async () => ['c1', 'c2'], subscribe: async () => true, unsubscribe: async () => true }
  const channelStore = { removeChannels: async () => {} }
  const hub = new LambdaEventHubService<Record<string, unknown>>(getSingletonServices().logger, event, channelStore as never, eventHubStore as never)
  // No API Gateway is reached: the management API client is replaced by one that records each connection written to.
  const sent: string[] = []
  ;(hub as any).callbackAPI = { send: async (command: { input: { ConnectionId: string } }) => void sent.push(command.input.ConnectionId) }
  await hub.publish('todos:ann', null, { n: 1 })
  assert.deepEqual(sent, [])
  await hub.publish('todos:ann', 'c1', { n: 2 })
  assert.deepEqual(sent, ['c2'])
})

test('lambda-connect-errors: connectWebsocket answers 200 and keeps the channel when onConnect throws, logging only an unregistered error, and rejects for a path no channel has', async () => {
  const { connectWebsocket } = await import('@pikku/lambda/websocket')
  const connectEvent = (connectionId: string, path: string) =>
    ({
      path,
      httpMethod: 'GET',
      headers: { host: 'localhost' },
      queryStringParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { connectionId, domainName: 'ws.example.com', stage: 'prod' },
    }) as unknown as APIGatewayEvent
  // An in-memory stand-in for the channel store; nothing here reaches API Gateway.
  const stored = new Set<string>()
  const channelStore = {
    addChannel: async ({ channelId }: { channelId: string }) => void stored.add(channelId),
    setPikkuUserId: async () => {},
    removeChannels: async (ids: string[]) => ids.forEach((id) => stored.delete(id)),
  }
  // greetSocket is made to throw for this test only.
  const throwing = (error: Error) => (): RegisteredFunc => async () => {
    throw error
  }
  // The logger's error and warn lines are recorded for this test only, and put back in `finally`.
  const errors = collectLogs(getSingletonServices() as never, 'error')
  const warnings = collectLogs(getSingletonServices() as never, 'warn')
  const logged = () => [...errors.lines, ...warnings.lines]
  try {
    await withWrappedFunction('greetSocket', throwing(new Error('onConnect failed')), async () => {
      const result = await connectWebsocket(connectEvent('c-fail', '/todos/live'), { channelStore: channelStore as never })
      assert.equal(result.statusCode, 200)
      assert.ok(stored.has('c-fail'))
      // An unregistered error is logged (handle-error.ts logs its message).
      assert.ok(logged().includes('onConnect failed'))
    })
    // A registered one, here ForbiddenError (403), is not logged at all: connectWebsocket passes no logWarningsForStatusCodes.
    errors.lines.length = 0
    warnings.lines.length = 0
    await withWrappedFunction('greetSocket', throwing(new ForbiddenError('Not for you')), async () => {
      const refused = await connectWebsocket(connectEvent('c-forbidden', '/todos/live'), { channelStore: channelStore as never })
      assert.equal(refused.statusCode, 200)
      assert.ok(stored.has('c-forbidden'))
      assert.deepEqual(logged(), [])
    })
  } finally {
    warnings.restore()
    errors.restore()
  }
  await assert.rejects(connectWebsocket(connectEvent('c-404', '/no-such-channel'), { channelStore: channelStore as never }), /Channel not found/)
  assert.ok(!stored.has('c-404'))
})

test('lambda-redis-stores-keep-topic: after RedisChannelStore.removeChannels, RedisEventHubStore still lists the removed channel on its topics', async () => {
  const { RedisChannelStore, RedisEventHubStore } = await import('@pikku/redis')
  const redis = await startRedis()
  const channelStore = new RedisChannelStore(redis.url)
  const eventHubStore = new RedisEventHubStore(redis.url)
  try {
    await channelStore.addChannel({ channelId: 'gone', channelName: 'todos', openingData: undefined })
    await eventHubStore.subscribe('todos:ann', 'gone')
    // What runChannelDisconnect calls when a Lambda socket closes.
    await channelStore.removeChannels(['gone'])
    assert.deepEqual(await eventHubStore.getChannelIdsForTopic('todos:ann'), ['gone'])
    // Unsubscribing, as an onDisconnect handler can, is what takes it off.
    await eventHubStore.unsubscribe('todos:ann', 'gone')
    assert.deepEqual(await eventHubStore.getChannelIdsForTopic('todos:ann'), [])
  } finally {
    await channelStore.close()
    await eventHubStore.close()
    await redis.stop()
  }
})

test('lambda-redis-state-json: RedisChannelStore keeps channel state as JSON, so a Date reads back as a string, an undefined field is dropped and null reads as undefined', async () => {
  const { RedisChannelStore } = await import('@pikku/redis')
  const redis = await startRedis()
  const channelStore = new RedisChannelStore(redis.url)
  try {
    await channelStore.addChannel({ channelId: 'stateful', channelName: 'todos', openingData: undefined })
    await channelStore.setState('stateful', { since: new Date(0), draft: undefined, count: 1 })
    assert.deepEqual(await channelStore.getState('stateful'), { since: '1970-01-01T00:00:00.000Z', count: 1 })
    await channelStore.setState('stateful', null)
    assert.equal(await channelStore.getState('stateful'), undefined)
  } finally {
    await channelStore.close()
    await redis.stop()
  }
})

/** A Redis server, one ioredis client on it, and RedisChannelStore and RedisEventHubStore both given that client. */
async function withStoresOnOneClient(
  fn: (stores: {
    client: import('ioredis').Redis
    channelStore: import('@pikku/redis').RedisChannelStore
    eventHubStore: import('@pikku/redis').RedisEventHubStore
  }) => Promise<void>,
) {
  const { RedisChannelStore, RedisEventHubStore } = await import('@pikku/redis')
  const { Redis } = await import('ioredis')
  const redis = await startRedis()
  const client = new Redis(redis.url)
  try {
    await fn({ client, channelStore: new RedisChannelStore(client), eventHubStore: new RedisEventHubStore(client) })
  } finally {
    client.disconnect()
    await redis.stop()
  }
}

test('lambda-redis-stores-share-client: RedisChannelStore and RedisEventHubStore work on one ioredis client, and their close() leaves a client passed in open', () =>
  withStoresOnOneClient(async ({ client, channelStore, eventHubStore }) => {
    await channelStore.init()
    await eventHubStore.init()
    await channelStore.addChannel({ channelId: 'shared', channelName: 'todos', openingData: undefined })
    await eventHubStore.subscribe('todos:ann', 'shared')
    assert.equal((await channelStore.getChannel('shared')).channelName, 'todos')
    assert.deepEqual(await eventHubStore.getChannelIdsForTopic('todos:ann'), ['shared'])
    await channelStore.close()
    await eventHubStore.close()
    assert.equal(client.status, 'ready')
    assert.equal(await client.ping(), 'PONG')
  }))

test('lambda-redis-stores-no-expiry: RedisChannelStore and RedisEventHubStore set no expiry on the keys of a channel and its topics', () =>
  withStoresOnOneClient(async ({ client, channelStore, eventHubStore }) => {
    await channelStore.addChannel({ channelId: 'left', channelName: 'todos', openingData: undefined })
    await channelStore.setState('left', { step: 1 })
    await eventHubStore.subscribe('todos:ann', 'left')
    // TTL answers -1 for a key that exists and has no expiry (-2 would mean the key is missing).
    for (const key of ['pikku:channel:left', 'pikku:subs:left', 'pikku:topic:todos:ann']) {
      assert.equal(await client.ttl(key), -1, key)
    }
  }))

test('lambda-kysely-subscribe-swallowed: KyselyEventHubStore.subscribe answers false for a database error, and LambdaEventHubService.subscribe resolves all the same, while publish and unsubscribe reject', async () => {
  const { Kysely, SqliteDialect } = await import('kysely')
  const { KyselyEventHubStore } = await import('@pikku/kysely')
  const { LambdaEventHubService } = await import('@pikku/lambda/websocket')
  // An empty SQLite database, in the shape Kysely's SqliteDialect expects: no channel tables were migrated.
  const adapter = await sqliteDatabase()
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: adapter as never }) })
  try {
    const eventHubStore = new KyselyEventHubStore(db as never)
    // Its init() checks nothing, so it passes on this database.
    await eventHubStore.init()
    assert.equal(await eventHubStore.subscribe('todos:ann', 'c1'), false)
    const event = { requestContext: { domainName: 'ws.example.com', stage: 'prod' } } as unknown as APIGatewayEvent
    const hub = new LambdaEventHubService<Record<string, unknown>>(getSingletonServices().logger, event, { removeChannels: async () => {} } as never, eventHubStore)
    assert.equal(await hub.subscribe('todos:ann', 'c1'), undefined)
    // Reading the topic, or removing a subscription, is where the missing table shows.
    await assert.rejects(eventHubStore.getChannelIdsForTopic('todos:ann'), /no such table/)
    await assert.rejects(hub.publish('todos:ann', 'c1', {}), /no such table/)
    await assert.rejects(hub.unsubscribe('todos:ann', 'c1'), /no such table/)
  } finally {
    await db.destroy()
  }
})

test('lambda-kysely-sqlite-no-cascade: on SQLite the Kysely channel store\'s removeChannels takes the subscriptions with it only while foreign keys are enforced; with them off, SQLite\'s own default, they stay on the topic, and PRAGMA foreign_keys = ON run through the Kysely turns them on', async () => {
  const { Kysely, SqliteDialect, CamelCasePlugin, sql } = await import('kysely')
  const { applyPikkuSchemas, channelSchema, KyselyChannelStore, KyselyEventHubStore } = await import('@pikku/kysely')
  const remaining = async (enableForeignKeyConstraints: boolean, pragma = false) => {
    // node:sqlite turns foreign keys on unless told not to; SQLite itself leaves them off until PRAGMA foreign_keys = ON.
    const adapter = await sqliteDatabase({ enableForeignKeyConstraints })
    const db = new Kysely<never>({ dialect: new SqliteDialect({ database: adapter as never }), plugins: [new CamelCasePlugin()] })
    try {
      // Kysely's SQLite dialect keeps one connection, so a pragma run through it holds for the stores' queries.
      if (pragma) await sql`PRAGMA foreign_keys = ON`.execute(db)
      await applyPikkuSchemas(db as never, [channelSchema])
      const channelStore = new KyselyChannelStore(db as never)
      const eventHubStore = new KyselyEventHubStore(db as never)
      await channelStore.addChannel({ channelId: 'c1', channelName: 'todos', openingData: {} } as never)
      assert.equal(await eventHubStore.subscribe('todos:ann', 'c1'), true)
      // What a disconnect does on Lambda: the channel store forgets the connection.
      await channelStore.removeChannels(['c1'])
      return await eventHubStore.getChannelIdsForTopic('todos:ann')
    } finally {
      await db.destroy()
    }
  }
  assert.deepEqual(await remaining(true), [])
  assert.deepEqual(await remaining(false), ['c1'])
  assert.deepEqual(await remaining(false, true), [])
})

test('lambda-message-reply-in-body: processWebsocketMessage returns a message\'s reply as the body of its answer to API Gateway, not through the connection', async () => {
  const { processWebsocketMessage } = await import('@pikku/lambda/websocket')
  // An in-memory stand-in for the channel store, holding one connection to the todos channel opened by u_reply.
  const channelStore = {
    getChannel: async (channelId: string) => ({ channelId, channelName: 'todos', openingData: undefined, pikkuUserId: 'u_reply' }),
  }
  // The serverless runner loads that user's session from the sessionStore; the app has none, so one is lent here.
  const services = getSingletonServices() as unknown as Record<string, unknown>
  const previousSessionStore = services.sessionStore
  services.sessionStore = { get: async () => ({ userId: 'u_reply', role: 'member' }) }
  // Posting to the connection would go through API Gateway's management API; count any attempt.
  const { ApiGatewayManagementApiClient } = await import('@aws-sdk/client-apigatewaymanagementapi')
  const send = ApiGatewayManagementApiClient.prototype.send
  let posted = 0
  ApiGatewayManagementApiClient.prototype.send = async () => void posted++
  try {
    const event = {
      body: JSON.stringify({ action: 'listTodos' }),
      headers: { host: 'localhost' },
      requestContext: { connectionId: 'c-reply', domainName: 'ws.example.com', stage: 'prod' },
    } as unknown as APIGatewayEvent
    const result = await processWebsocketMessage(event as never, { channelStore: channelStore as never })
    assert.equal(result.statusCode, 200)
    assert.deepEqual(JSON.parse(result.body), { todos: [], action: 'listTodos' })
    assert.equal(posted, 0)
  } finally {
    ApiGatewayManagementApiClient.prototype.send = send
    services.sessionStore = previousSessionStore
    if (previousSessionStore === undefined) delete services.sessionStore
  }
})

test('lambda-message-error-production: in production the serverless runner still answers a failed message with the thrown message and errorName, an unregistered error included', async () => {
  const { processWebsocketMessage } = await import('@pikku/lambda/websocket')
  const channelStore = {
    getChannel: async (channelId: string) => ({ channelId, channelName: 'todos', openingData: undefined, pikkuUserId: 'u_err' }),
  }
  const services = getSingletonServices() as unknown as Record<string, any>
  const previousSessionStore = services.sessionStore
  services.sessionStore = { get: async () => ({ userId: 'u_err', role: 'member' }) }
  // The store fails with a plain Error, as a database driver would.
  const store = services.todoStore
  const get = store.get
  store.get = async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.5:5432')
  }
  const previousEnv = process.env.NODE_ENV
  try {
    process.env.NODE_ENV = 'production'
    const event = {
      body: JSON.stringify({ action: 'getTodo', todoId: 't_err' }),
      headers: { host: 'localhost' },
      requestContext: { connectionId: 'c-err', domainName: 'ws.example.com', stage: 'prod' },
    } as unknown as APIGatewayEvent
    const result = await processWebsocketMessage(event as never, { channelStore: channelStore as never })
    assert.deepEqual(JSON.parse(result.body), { error: 'connect ECONNREFUSED 10.0.0.5:5432', errorName: 'Error' })
  } finally {
    process.env.NODE_ENV = previousEnv
    store.get = get
    services.sessionStore = previousSessionStore
    if (previousSessionStore === undefined) delete services.sessionStore
  }
})

test('serverless-connect-session-not-stored: a session that onConnect sets with setSession is not stored with the connection: connectWebsocket gives the channel store no user id', async () => {
  const { connectWebsocket } = await import('@pikku/lambda/websocket')
  // An in-memory stand-in for the channel store that records the user ids it is given.
  const userIds: string[] = []
  const channelStore = {
    addChannel: async () => {},
    setPikkuUserId: async (_channelId: string, pikkuUserId: string) => void userIds.push(pikkuUserId),
    removeChannels: async () => {},
  }
  // For this test only, greetSocket signs the socket in.
  let after: unknown
  const signsIn = (): RegisteredFunc => async (_services, _data, wire: { setSession: (s: unknown) => Promise<void>; getSession: () => unknown }) => {
    await wire.setSession({ userId: 'u_socket', role: 'member' })
    after = wire.getSession()
    return { signedIn: true }
  }
  await withWrappedFunction('greetSocket', signsIn, async () => {
    const event = {
      path: '/todos/live',
      httpMethod: 'GET',
      headers: { host: 'localhost' },
      queryStringParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { connectionId: 'c-session', domainName: 'ws.example.com', stage: 'prod' },
    } as unknown as APIGatewayEvent
    const result = await connectWebsocket(event, { channelStore: channelStore as never })
    assert.equal(result.statusCode, 200)
    assert.deepEqual(after, { userId: 'u_socket', role: 'member' })
    assert.deepEqual(userIds, [])
  })
})

test('lambda-failed-post-drops-channel: LambdaEventHubService removes a subscriber from the channel store when posting to it fails for any reason, and its publish resolves', async () => {
  const { LambdaEventHubService } = await import('@pikku/lambda/websocket')
  const event = { requestContext: { domainName: 'ws.example.com', stage: 'prod' } } as unknown as APIGatewayEvent
  const eventHubStore = { getChannelIdsForTopic: async () => ['c1', 'c2'], subscribe: async () => true, unsubscribe: async () => true }
  const removed: string[][] = []
  const channelStore = { removeChannels: async (ids: string[]) => void removed.push(ids) }
  const hub = new LambdaEventHubService<Record<string, unknown>>(getSingletonServices().logger, event, channelStore as never, eventHubStore as never)
  // No API Gateway is reached: the management API client is replaced by one that refuses every post with a
  // throttling error, not the 410 of a connection that is gone.
  ;(hub as any).callbackAPI = {
    send: async () => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } })
    },
  }
  await hub.publish('todos:ann', 'c1', { n: 1 })
  assert.deepEqual(removed, [['c2']])
})

test('lambda-connect-query-rejects: connectWebsocket rejects with "No data expected" when the $connect event carries a query string parameter, and stores nothing', async () => {
  const { connectWebsocket } = await import('@pikku/lambda/websocket')
  const stored: string[] = []
  const channelStore = { addChannel: async ({ channelId }: { channelId: string }) => void stored.push(channelId), setPikkuUserId: async () => {} }
  const event = {
    path: '/todos/live',
    httpMethod: 'GET',
    headers: { host: 'localhost' },
    queryStringParameters: { token: 'abc' },
    body: null,
    isBase64Encoded: false,
    requestContext: { connectionId: 'c-query', domainName: 'ws.example.com', stage: 'prod' },
  } as unknown as APIGatewayEvent
  await assert.rejects(connectWebsocket(event, { channelStore: channelStore as never }), { message: 'No data expected' })
  assert.deepEqual(stored, [])
})
