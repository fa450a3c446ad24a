// Stand-in for .pikku/rpc/pikku-rpc-wirings-map.internal.gen.d.ts
// (packages/cli/src/functions/wirings/rpc/serialize-typed-rpc-map.ts): one entry per function, keyed by the
// function's export name, with the input and output types the inspector resolved for it.
import type { PikkuRPC } from '@pikku/core/rpc'
import type { Todo } from '../../src/todo-store.js'
import type { RPCMap as ChatRPCMap } from '@todo-app/notify-addon/.pikku/rpc/pikku-rpc-wirings-map.internal.gen.js'
import type { WorkflowStatus } from '@pikku/core/workflow'
import type { FlattenedWorkflowMap } from '../workflow/pikku-workflow-map.gen.js'
import type { AgentInput } from '@pikku/core/agent'
import type { AgentMap } from '../agent/pikku-agent-map.gen.js'

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
  readonly pageTodos: RPCHandler<{ cursor?: string; done?: boolean }, { todos: Todo[]; nextCursor: string | null }>
  readonly setTodoDone: RPCHandler<{ todoId: string; done: boolean }, Todo>
  readonly remindNow: RPCHandler<{ todoId: string }, { reminded: boolean }>
  readonly backupTodos: RPCHandler<void, { file: string; count: number }>
  readonly isTodoOpen: RPCHandler<{ todoId: string }, { open: boolean }>
  readonly escalateTodo: RPCHandler<{ todoId: string }, { escalationKey: string }>
  readonly listOpenTodoIds: RPCHandler<{ ownerId: string }, { todoIds: string[] }>
  readonly startTodoReminder: RPCHandler<{ todoId: string }, { runId: string }>
  readonly getReminderRun: RPCHandler<
    { runId: string },
    { status: WorkflowStatus; steps: Array<{ name: string; status: string }> }
  >
  readonly emailReminder: RPCHandler<{ todoId: string; to: string }, { sent: boolean }>
  readonly listOverdueTodos: RPCHandler<void, { escalateAfterHours: number; todos: Todo[] }>
  readonly addTodoToCalendar: RPCHandler<{ todoId: string }, { eventId: string }>
  readonly listMyConnections: RPCHandler<
    void,
    { connections: { name: string; displayName: string; connected: boolean }[] }
  >
}

// As serialize-typed-rpc-map.ts merges them: each addon installed with wireAddon (src/addons/notify.addon.ts)
// adds its functions under its namespace, e.g. 'chat:postToChat'.
type PrefixKeys<T, Prefix extends string> = unknown extends T
  ? {}
  : { [K in keyof T as `${Prefix}:${string & K}`]: T[K] }

export type FlattenedRPCMap = RPCMap & PrefixKeys<ChatRPCMap, 'chat'>

type IsAny<T> = 0 extends 1 & T ? true : false
type IsVoidishInput<T> = IsAny<T> extends true ? false : [T] extends [void | null | undefined] ? true : false

export type RPCInvoke = <Name extends keyof FlattenedRPCMap>(
  ...args: IsVoidishInput<FlattenedRPCMap[Name]['input']> extends true
    ? [name: Name]
    : [name: Name, data: FlattenedRPCMap[Name]['input']]
) => Promise<FlattenedRPCMap[Name]['output']>

export type RPCRemote = RPCInvoke

// As serialize-typed-rpc-map.ts writes them: startWorkflow is typed by the DSL workflows of the workflow map.
export type TypedStartWorkflow = <Name extends keyof FlattenedWorkflowMap>(
  name: Name,
  input: FlattenedWorkflowMap[Name]['input'],
  options?: { startNode?: string },
) => Promise<{ runId: string }>

export type TypedRunWorkflow = <Name extends keyof FlattenedWorkflowMap>(
  name: Name,
  input: FlattenedWorkflowMap[Name]['input'],
) => Promise<FlattenedWorkflowMap[Name]['output']>

// As serialize-typed-rpc-map.ts writes them: rpc.agent.run and rpc.agent.stream are typed by the agent map
// (.pikku/agent/pikku-agent-map.gen.d.ts); run resolves to the agent's output type.
type FlattenedAgentMap = AgentMap

type TypedAgentRun = <Name extends keyof FlattenedAgentMap>(
  name: Name,
  input: AgentInput,
) => Promise<{
  runId: string
  result: FlattenedAgentMap[Name]['output']
  usage: { inputTokens: number; outputTokens: number }
}>

type TypedAgentStream = <Name extends keyof FlattenedAgentMap>(
  name: Name,
  input: AgentInput,
  options?: { requiresToolApproval?: 'all' | 'explicit' | false },
) => Promise<void>

export type TypedPikkuRPC = PikkuRPC<RPCInvoke, RPCRemote, TypedStartWorkflow, TypedAgentRun, TypedAgentStream>
