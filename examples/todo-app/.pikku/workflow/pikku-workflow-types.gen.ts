/**
 * Stand-in for .pikku/workflow/pikku-workflow-types.gen.ts, which `pikku all` writes with
 * packages/cli/src/functions/wirings/workflow/serialize-workflow-types.ts (cli 0.12.113), the shared config fields
 * coming from serialize-scenario-types.ts (`sharedWorkflowConfigFields`). Same names, signatures and strictness as the
 * generated text, with this app's maps filled in. Differences, each on purpose:
 * - `NodeConfig` is declared here, as serialize-function-types.ts writes it for a project with no node categories
 *   (`category: string`); the function stand-in does not declare it.
 * - `ScopeId` is `string`, as the function serializer falls back to when a project has no scopes codegen.
 * - The generated file puts its imports in the middle of the text; here they are at the top.
 */
import { WorkflowCancelledException } from '@pikku/core/workflow'
import { pikkuWorkflowGraph as corePikkuWorkflowGraph } from '@pikku/core/workflow'
import type { PikkuWorkflowGraphConfig, PikkuWorkflowGraphResult } from '@pikku/core/workflow'
import type { PikkuWorkflowWire, WorkflowStepOptions } from '@pikku/core/workflow'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { NodeType } from '@pikku/core/node'
import { PikkuError } from '@pikku/core/errors'
import type { CorePermissionGroup } from '@pikku/core/function'
import type {
  InferSchemaOutput,
  PikkuApprovalDescription,
  PikkuFunctionConfig,
  PikkuFunctionSessionless,
} from '../function/pikku-function-types.gen.js'
import type { PikkuPermission } from '../auth/pikku-auth-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'
import type { FlattenedRPCMap } from '../rpc/pikku-rpc-wirings-map.internal.gen.js'
import type { FlattenedWorkflowMap } from './pikku-workflow-map.gen.js'
import type { AgentMap as FlattenedAgentMap } from '../agent/pikku-agent-map.gen.js'

export { WorkflowCancelledException }

type ScopeId = string

type NodeConfig = {
  displayName: string
  category: string
  type: NodeType
  errorOutput?: boolean
}

/** The `workflow` wire of a workflow body: `do` is typed by the project's RPC and workflow maps. */
export interface TypedWorkflow extends PikkuWorkflowWire {
  do<K extends keyof FlattenedRPCMap>(
    stepName: string,
    rpcName: K,
    data: FlattenedRPCMap[K]['input'],
    options?: WorkflowStepOptions,
  ): Promise<FlattenedRPCMap[K]['output']>

  do<K extends keyof FlattenedWorkflowMap>(
    stepName: string,
    workflowName: K,
    data: FlattenedWorkflowMap[K]['input'],
    options?: WorkflowStepOptions,
  ): Promise<FlattenedWorkflowMap[K]['output']>

  do<T>(stepName: string, fn: () => T | Promise<T>, options?: WorkflowStepOptions): Promise<T>
}

/** A workflow body: a sessionless function whose wire carries `workflow`. */
export type PikkuFunctionWorkflow<In = unknown, Out = never> = PikkuFunctionSessionless<In, Out, 'workflow'>

type SchemaOrUnknown<S> = S extends StandardSchemaV1 ? InferSchemaOutput<S> : unknown

type PikkuWorkflowConfigWithSchema<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = {
  title?: string
  description?: string
  tags?: string[]
  expose?: boolean
  internal?: boolean
  override?: string
  version?: number
  remote?: boolean
  mcp?: boolean
  readonly?: boolean
  approvalRequired?: boolean
  approvalDescription?: InputSchema extends StandardSchemaV1
    ? PikkuApprovalDescription<InferSchemaOutput<InputSchema>>
    : never
  middleware?: PikkuMiddleware[]
  input?: InputSchema
  output?: OutputSchema
  node?: NodeConfig
  errors?: Array<typeof PikkuError>
  inline?: boolean
  func: PikkuFunctionWorkflow<SchemaOrUnknown<InputSchema>, SchemaOrUnknown<OutputSchema>>
  auth?: boolean
  /**
   * Scopes the session must hold to run this workflow. All of them are required
   * (AND), and they are checked before `permissions`.
   */
  scopes?: ScopeId[]
  permissions?: InputSchema extends StandardSchemaV1
    ? CorePermissionGroup<PikkuPermission<InferSchemaOutput<InputSchema>>>
    : undefined
}

type WorkflowConfigResult<
  InputSchema extends StandardSchemaV1 | undefined,
  OutputSchema extends StandardSchemaV1 | undefined,
> = PikkuFunctionConfig<
  SchemaOrUnknown<InputSchema>,
  SchemaOrUnknown<OutputSchema>,
  'workflow',
  PikkuFunctionWorkflow<SchemaOrUnknown<InputSchema>, SchemaOrUnknown<OutputSchema>>,
  InputSchema,
  OutputSchema
>

/** A DSL workflow: its body may only use the step DSL, so the inspector can turn it into a graph. */
export function pikkuWorkflowFunc<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(config: PikkuWorkflowConfigWithSchema<InputSchema, OutputSchema>): WorkflowConfigResult<InputSchema, OutputSchema>
export function pikkuWorkflowFunc<In, Out = unknown>(
  func: PikkuFunctionWorkflow<In, Out> | PikkuFunctionConfig<In, Out, 'workflow', PikkuFunctionWorkflow<In, Out>>,
): PikkuFunctionConfig<In, Out, 'workflow'>
export function pikkuWorkflowFunc(func: unknown) {
  return typeof func === 'function' ? { func } : func
}

/** A complex workflow: inline `workflow.do(name, () => ...)` steps are allowed (needs `allow.complexWorkflows`). */
export function pikkuWorkflowComplexFunc<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(config: PikkuWorkflowConfigWithSchema<InputSchema, OutputSchema>): WorkflowConfigResult<InputSchema, OutputSchema>
export function pikkuWorkflowComplexFunc<In, Out = unknown>(
  func: PikkuFunctionWorkflow<In, Out> | PikkuFunctionConfig<In, Out, 'workflow', PikkuFunctionWorkflow<In, Out>>,
): PikkuFunctionConfig<In, Out, 'workflow'>
export function pikkuWorkflowComplexFunc(func: unknown) {
  return typeof func === 'function' ? { func } : func
}

type TypedRef<T> = { $ref: string; path?: string } & { __phantomType?: T }

type TemplateString = {
  $template: {
    parts: string[]
    expressions: Array<{ $ref: string; path?: string }>
  }
} & { __brand: 'TemplateString' }

type InputWithRefs<T> = {
  [K in keyof T]?: T[K] | TypedRef<T[K]> | TypedRef<unknown> | TemplateString
}

type NodeInputType<FuncMap extends Record<string, string>, K extends keyof FuncMap> =
  FuncMap[K] extends keyof FlattenedRPCMap
    ? InputWithRefs<FlattenedRPCMap[FuncMap[K]]['input']>
    : FuncMap[K] extends keyof FlattenedWorkflowMap
      ? InputWithRefs<FlattenedWorkflowMap[FuncMap[K]]['input']>
      : Record<string, unknown>

type NodeOutputKeys<FuncMap extends Record<string, string>, N extends string> = N extends keyof FuncMap
  ? FuncMap[N] extends keyof FlattenedRPCMap
    ? keyof FlattenedRPCMap[FuncMap[N]]['output'] & string
    : FuncMap[N] extends keyof FlattenedWorkflowMap
      ? keyof FlattenedWorkflowMap[FuncMap[N]]['output'] & string
      : FuncMap[N] extends keyof FlattenedAgentMap
        ? keyof FlattenedAgentMap[FuncMap[N]]['output'] & string
        : string
  : string

type RefFunction<FuncMap extends Record<string, string>> = {
  <N extends Extract<keyof FuncMap, string>>(nodeId: N, path: NodeOutputKeys<FuncMap, N>): TypedRef<unknown>
  <N extends Extract<keyof FuncMap, string>>(nodeId: N): TypedRef<unknown>
  (nodeId: 'trigger' | '$item', path?: string): TypedRef<unknown>
}

type TemplateFunction = (templateStr: string, refs: TypedRef<unknown>[]) => TemplateString

type ItemFunction = (path?: string) => TypedRef<unknown>

type ForEachConfig<FuncMap extends Record<string, string>> =
  | Extract<keyof FuncMap, string>
  | ((ref: RefFunction<FuncMap>) => TypedRef<unknown>)

type GraphNodeConfigMap<FuncMap extends Record<string, string>> = {
  [K in Extract<keyof FuncMap, string>]?: {
    next?: NextConfig<Extract<keyof FuncMap, string>>
    /** Run this node once per element of an upstream array. Its result becomes the ordered array of per-item results. */
    forEach?: ForEachConfig<FuncMap>
    /** How the per-item instances of a forEach node run. Defaults to 'parallel'. */
    mode?: 'parallel' | 'sequential'
    input?:
      | NodeInputType<FuncMap, K>
      | (() => NodeInputType<FuncMap, K>)
      | ((ref: RefFunction<FuncMap>, template: TemplateFunction, $item: ItemFunction) => NodeInputType<FuncMap, K>)
    onError?: Extract<keyof FuncMap, string> | Extract<keyof FuncMap, string>[]
    /** Free-text node documentation. Non-semantic: excluded from graphHash. */
    notes?: string
  }
}

type NextConfig<NodeIds extends string> = NodeIds | NodeIds[] | { if: string; then: NodeIds; else?: NodeIds }

/** A graph workflow: named nodes, each one function, workflow or agent, and the edges between them. */
export function pikkuWorkflowGraph<
  const FuncMap extends Record<
    string,
    (keyof FlattenedRPCMap & string) | (keyof FlattenedWorkflowMap & string) | (keyof FlattenedAgentMap & string)
  >,
>(config: PikkuWorkflowGraphConfig<FuncMap, GraphNodeConfigMap<FuncMap>>): PikkuWorkflowGraphResult {
  return corePikkuWorkflowGraph(config as PikkuWorkflowGraphConfig<FuncMap, unknown>)
}
