/**
 * Stand-in for .pikku/mcp/pikku-mcp-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/mcp/serialize-mcp-types.ts (cli 0.12.113).
 */
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { wireMCPPrompt as wireMCPPromptCore, wireMCPResource as wireMCPResourceCore } from '@pikku/core/mcp'
import type {
  AssertMCPResourceURIParams,
  CoreMCPPrompt,
  CoreMCPResource,
  MCPPromptResponse,
  MCPResourceResponse,
  MCPToolResponse,
} from '@pikku/core/mcp'
import type { CorePermissionGroup } from '@pikku/core/function'
import type {
  InferSchemaOutput,
  PikkuFunctionConfig,
  PikkuFunctionSessionless,
} from '../function/pikku-function-types.gen.js'
import type { PikkuPermission } from '../auth/pikku-auth-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'

type MCPResourceWiring<In, URI extends string> = CoreMCPResource<
  PikkuFunctionConfig<In, MCPResourceResponse, 'rpc' | 'session' | 'mcp'>
> & { uri: URI }

type MCPPromptWiring<In> = CoreMCPPrompt<PikkuFunctionConfig<In, MCPPromptResponse, 'rpc' | 'session' | 'mcp'>>

export const wireMCPResource = <In, URI extends string>(
  mcpResource: MCPResourceWiring<In, URI> & AssertMCPResourceURIParams<In, URI>,
): void => {
  wireMCPResourceCore(mcpResource as never)
}

export const wireMCPPrompt = <In>(mcpPrompt: MCPPromptWiring<In>): void => {
  wireMCPPromptCore(mcpPrompt as never)
}

type ToolConfig<In> = {
  func: PikkuFunctionSessionless<In, MCPToolResponse, 'mcp' | 'rpc'>
  description?: string
  tags?: string[]
  title?: string
  summary?: string
  name?: string
  middleware?: PikkuMiddleware[]
  permissions?: CorePermissionGroup<PikkuPermission<In>>
}

export function pikkuMCPToolFunc<InputSchema extends StandardSchemaV1>(
  config: ToolConfig<InferSchemaOutput<InputSchema>> & { input: InputSchema },
): PikkuFunctionConfig<InferSchemaOutput<InputSchema>, MCPToolResponse, 'mcp' | 'rpc'>
export function pikkuMCPToolFunc<In>(
  func: PikkuFunctionSessionless<In, MCPToolResponse, 'mcp' | 'rpc'> | ToolConfig<In>,
): PikkuFunctionConfig<In, MCPToolResponse, 'mcp' | 'rpc'>
export function pikkuMCPToolFunc(func: unknown): unknown {
  return typeof func === 'function' ? { func } : func
}

type ResourceConfig<In> = { func: PikkuFunctionSessionless<In, MCPResourceResponse, 'mcp' | 'rpc'>; name?: string }

export function pikkuMCPResourceFunc<InputSchema extends StandardSchemaV1>(
  config: ResourceConfig<InferSchemaOutput<InputSchema>> & { input: InputSchema },
): PikkuFunctionConfig<InferSchemaOutput<InputSchema>, MCPResourceResponse, 'mcp' | 'rpc'>
export function pikkuMCPResourceFunc<In>(
  func: PikkuFunctionSessionless<In, MCPResourceResponse, 'mcp' | 'rpc'> | ResourceConfig<In>,
): PikkuFunctionConfig<In, MCPResourceResponse, 'mcp' | 'rpc'>
export function pikkuMCPResourceFunc(func: unknown): unknown {
  return typeof func === 'function' ? { func } : func
}

type PromptConfig<In> = { func: PikkuFunctionSessionless<In, MCPPromptResponse, 'mcp' | 'rpc'>; name?: string }

export function pikkuMCPPromptFunc<InputSchema extends StandardSchemaV1>(
  config: PromptConfig<InferSchemaOutput<InputSchema>> & { input: InputSchema },
): PikkuFunctionConfig<InferSchemaOutput<InputSchema>, MCPPromptResponse, 'mcp' | 'rpc'>
export function pikkuMCPPromptFunc<In>(
  func: PikkuFunctionSessionless<In, MCPPromptResponse, 'mcp' | 'rpc'> | PromptConfig<In>,
): PikkuFunctionConfig<In, MCPPromptResponse, 'mcp' | 'rpc'>
export function pikkuMCPPromptFunc(func: unknown): unknown {
  return typeof func === 'function' ? { func } : func
}
