// Stand-in for .pikku/rpc/pikku-rpc-wirings-map.gen.d.ts, the map of *exposed* functions (`expose: true`) that
// `pikku all` writes with packages/cli/src/functions/wirings/rpc/serialize-typed-rpc-map.ts (cli 0.12.113) from
// the inspector's `rpc.exposedMeta`. The generated RPC client (pikku-rpc.gen.ts) and React Query hooks
// (pikku-react-query.gen.ts) are typed by it. The app exposes countOpenTodos and the board's pageTodos and
// setTodoDone. The workflow methods are typed by the workflow leaf's map (.pikku/workflow/pikku-workflow-map.gen.d.ts),
// which the serializer imports.
// Difference: the serializer declares `TypedAgentRun` without `export` although pikku-rpc.gen.ts imports it; it is
// exported here so the client compiles.
import type { PikkuRPC } from '@pikku/core/rpc'
import type { AgentInput } from '@pikku/core/agent'
import type { Todo } from '../../src/todo-store.js'

interface RPCHandler<I, O> {
  input: I
  output: O
}

export type RPCMap = {
  readonly countOpenTodos: RPCHandler<null, { open: number; overdue: number }>
  readonly pageTodos: RPCHandler<{ cursor?: string; done?: boolean }, { todos: Todo[]; nextCursor: string | null }>
  readonly setTodoDone: RPCHandler<{ todoId: string; done: boolean }, Todo>
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

import type { FlattenedWorkflowMap } from '../workflow/pikku-workflow-map.gen.js'

export type TypedStartWorkflow = <Name extends keyof FlattenedWorkflowMap>(
  name: Name,
  input: FlattenedWorkflowMap[Name]['input'],
  options?: { startNode?: string },
) => Promise<{ runId: string }>

export type TypedRunWorkflow = <Name extends keyof FlattenedWorkflowMap>(
  name: Name,
  input: FlattenedWorkflowMap[Name]['input'],
) => Promise<FlattenedWorkflowMap[Name]['output']>

export type TypedWorkflowStatus = (
  workflowName: string,
  runId: string,
) => Promise<{
  id: string
  status: 'running' | 'suspended' | 'completed' | 'failed' | 'cancelled'
  output?: unknown
  error?: { message?: string }
}>

export type TypedAgentRun = (name: string, input: AgentInput) => Promise<any>

type TypedAgentStream = (
  name: string,
  input: AgentInput,
  options?: { requiresToolApproval?: 'all' | 'explicit' | false },
) => Promise<void>

export type TypedPikkuRPC = PikkuRPC<RPCInvoke, RPCRemote, TypedStartWorkflow, TypedAgentRun, TypedAgentStream>
