// Probe functions registered straight into core's function registry, the way the generated
// pikku-functions.gen.ts and pikku-functions-meta.gen.ts register the app's own, so a test can hand the real
// function runner (runPikkuFunc) a handler that reports what it was given.
import { addFunction } from '@pikku/core/function'
import { httpRouter, wireHTTP } from '@pikku/core/http'
import { addGlobalMiddleware } from '@pikku/core/middleware'
import { pikkuState } from '@pikku/core/state'
import type { CorePikkuFunctionConfig } from '@pikku/core/function'

export const registerProbe = (
  name: string,
  config: CorePikkuFunctionConfig<any, any>,
  meta: { sessionless?: boolean; inputSchemaName?: string | null; readonly?: boolean } = {},
) => {
  addFunction(name, config)
  const allMeta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  allMeta[name] = {
    pikkuFuncId: name,
    functionType: 'user',
    name,
    sessionless: meta.sessionless ?? false,
    readonly: meta.readonly,
    inputSchemaName: meta.inputSchemaName ?? null,
    outputSchemaName: null,
    inputs: [],
    outputs: [],
  }
}

/** A logger that records what it is given, for checking warnings and errors. */
export const recordingLogger = () => {
  const lines: { level: string; text: string }[] = []
  const record = (level: string) => (...args: unknown[]) => {
    lines.push({ level, text: args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ') })
  }
  return {
    lines,
    logger: {
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
      debug: record('debug'),
      trace: record('trace'),
      fatal: record('fatal'),
      setLevel: () => {},
    },
  }
}

/** Adds a global middleware that records each call's wire.wireId; remove() takes it out of the global list again. */
export const addWireIdRecorder = () => {
  const globals = pikkuState(null, 'middleware', 'global') as unknown as unknown[]
  const seen: string[] = []
  const recorder = async (_services: unknown, wire: any, next: () => Promise<void>) => {
    seen.push(wire.wireId)
    await next()
  }
  addGlobalMiddleware([recorder as never])
  return { seen, remove: () => void globals.splice(globals.indexOf(recorder), 1) }
}

/** Runs `body` with console.info/warn/error/debug recorded, one string per call. */
export const captureConsole = async (body: () => Promise<void> | void) => {
  const lines: string[] = []
  const methods = ['info', 'warn', 'error', 'debug'] as const
  const original = methods.map((m) => console[m])
  for (const m of methods) console[m] = (...args: unknown[]) => void lines.push(args.map(String).join(' '))
  try {
    await body()
  } finally {
    methods.forEach((m, i) => (console[m] = original[i]!))
  }
  return lines
}

/**
 * Registers a route of its own the way the generated files do (the function, its metadata and the wiring; GET unless
 * `wiring.method` says otherwise), runs `body`, and removes all of it again, whatever happens.
 */
export const withProbeRoute = async (
  name: string,
  route: string,
  func: { func: (...args: any[]) => Promise<unknown> },
  wiring: Record<string, unknown>,
  body: () => Promise<void>,
) => {
  const method = (wiring.method as string | undefined) ?? 'get'
  const httpMeta = pikkuState(null, 'http', 'meta') as any
  const routes = pikkuState(null, 'http', 'routes') as Map<string, Map<string, unknown>>
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  const functionMeta = pikkuState(null, 'function', 'meta') as Record<string, unknown>
  registerProbe(name, func, { sessionless: true })
  httpMeta[method][route] = { pikkuFuncId: name, route, method, auth: false, middleware: [] }
  try {
    wireHTTP({ method, route, auth: false, ...wiring, func } as never)
    httpRouter.reset()
    await body()
  } finally {
    routes.get(method)?.delete(route)
    delete httpMeta[method][route]
    functions.delete(name)
    delete functionMeta[name]
    httpRouter.reset()
  }
}

/**
 * GET /probe-bytes, wired with `returnsJSON: false`, returns the bytes of "raw bytes" as an ArrayBuffer until
 * `asUint8Array()` switches it to a Uint8Array of the same bytes; the route is removed after `body`.
 */
export const withRawBytesRoute = async (body: (route: string, asUint8Array: () => void) => Promise<void>) => {
  const route = '/probe-bytes'
  const bytes = new TextEncoder().encode('raw bytes')
  let result: ArrayBuffer | Uint8Array = bytes.buffer
  const func = { auth: false, func: async () => result }
  await withProbeRoute('probeBytes', route, func, { returnsJSON: false }, () => body(route, () => (result = bytes)))
}
