// Stand-in for .pikku/http/pikku-http-wirings-map.gen.d.ts, which `pikku all` writes from the HTTP wirings
// (packages/cli/src/functions/wirings/http/serialize-typed-http-map.ts, cli 0.12.113): one entry per route and
// upper-case method, with the wired function's input and output. A `void` input is written as `null`.
import type { Todo } from '../../src/todo-store.js'

interface HTTPWiringHandler<I, O> {
  input: I
  output: O
}

export type HTTPWiringsMap = {
  readonly '/health': {
    readonly GET: HTTPWiringHandler<null, { status: 'ok' }>
  }
  readonly '/todos': {
    readonly GET: HTTPWiringHandler<{ done?: boolean }, { todos: Todo[] }>
    readonly POST: HTTPWiringHandler<{ title: string; dueAt?: string }, Todo>
  }
  readonly '/todos/:todoId': {
    readonly GET: HTTPWiringHandler<{ todoId: string }, Todo>
    readonly PATCH: HTTPWiringHandler<{ todoId: string; title?: string; done?: boolean; dueAt?: string }, Todo>
    readonly DELETE: HTTPWiringHandler<{ todoId: string }, null>
  }
  readonly '/todos/changes': {
    readonly GET: HTTPWiringHandler<null, { subscribed: boolean }>
  }
  readonly '/todos/due-today': {
    readonly GET: HTTPWiringHandler<null, { type: 'due'; todo: Todo } | { type: 'end'; count: number }>
  }
  readonly '/todos/backup': {
    readonly POST: HTTPWiringHandler<null, { file: string; count: number }>
  }
  readonly '/todos/:todoId/remind': {
    readonly POST: HTTPWiringHandler<{ todoId: string }, { reminded: boolean }>
  }
}

export type HTTPWiringHandlerOf<
  HTTPWiring extends keyof HTTPWiringsMap,
  Method extends keyof HTTPWiringsMap[HTTPWiring],
> = HTTPWiringsMap[HTTPWiring][Method] extends { input: infer I; output: infer O } ? HTTPWiringHandler<I, O> : never

export type HTTPWiringsWithMethod<Method extends string> = {
  [HTTPWiring in keyof HTTPWiringsMap]: Method extends keyof HTTPWiringsMap[HTTPWiring] ? HTTPWiring : never
}[keyof HTTPWiringsMap]
