// Stand-in for .pikku/rpc/pikku-rpc-wirings-map.internal.gen.d.ts
// (packages/cli/src/functions/wirings/rpc/serialize-typed-rpc-map.ts): one entry per function, keyed by the
// function's export name, with the input and output types the inspector resolved for it.
import type { PikkuRPC } from '@pikku/core/rpc'
import type { Todo } from '../../src/todo-store.js'

interface RPCHandler<I, O> {
  input: I
  output: O
}

export type RPCMap = {
  readonly listTodos: RPCHandler<{ done?: boolean }, { todos: Todo[] }>
  readonly getTodo: RPCHandler<{ todoId: string }, Todo>
  readonly createTodo: RPCHandler<{ title: string; dueAt?: string }, Todo>
  readonly updateTodo: RPCHandler<{ todoId: string; title?: string; done?: boolean; dueAt?: string }, Todo>
  readonly deleteTodo: RPCHandler<{ todoId: string }, void>
  readonly health: RPCHandler<void, { status: 'ok' }>
  readonly sendReminder: RPCHandler<{ todoId: string }, { reminded: boolean }>
  readonly dailyDigest: RPCHandler<void, void>
  readonly completeTodo: RPCHandler<{ todoId: string }, Todo>
  readonly subscribeToChanges: RPCHandler<void, { subscribed: boolean }>
  readonly unsubscribeFromChanges: RPCHandler<void, { subscribed: boolean }>
  readonly watchTodos: RPCHandler<void, { subscribed: boolean }>
  readonly streamDueToday: RPCHandler<void, { type: 'due'; todo: Todo } | { type: 'end'; count: number }>
  readonly countOpenTodos: RPCHandler<void, { open: number; overdue: number }>
}

export type FlattenedRPCMap = RPCMap

type IsAny<T> = 0 extends 1 & T ? true : false
type IsVoidishInput<T> = IsAny<T> extends true ? false : [T] extends [void | null | undefined] ? true : false

export type RPCInvoke = <Name extends keyof FlattenedRPCMap>(
  ...args: IsVoidishInput<FlattenedRPCMap[Name]['input']> extends true
    ? [name: Name]
    : [name: Name, data: FlattenedRPCMap[Name]['input']]
) => Promise<FlattenedRPCMap[Name]['output']>

export type RPCRemote = RPCInvoke

export type TypedPikkuRPC = PikkuRPC<RPCInvoke, RPCRemote>
