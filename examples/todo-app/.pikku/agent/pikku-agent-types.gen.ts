/**
 * Stand-in for .pikku/agent/pikku-agent-types.gen.ts, which `pikku all` writes. Modelled on
 * packages/cli/src/functions/wirings/agent/serialize-agent-types.ts (cli 0.12.113), written against the
 * @pikku/core 0.12.84 typings installed here (its `@pikku/core/agent` and `@pikku/core/agent-scorer` entry points
 * export the same names as 0.12.90). Kept as strict as the generated file.
 * Differences from the generated file, each on purpose:
 * - `ScopeId` is declared here as `string`, as the function stand-in does: the generated file imports it from
 *   `#pikku/scopes`, whose union is `string` for a project that declares no scope.
 */
import type { CoreAgent, AgentMemoryConfig, AgentInput } from '@pikku/core/agent'
import {
  agent as coreAgent,
  agentStream as coreAgentStream,
  agentResume as coreAgentResume,
  agentApprove as coreAgentApprove,
} from '@pikku/core/agent'
import {
  pikkuAgentScorer as corePikkuAgentScorer,
  pikkuAgentJudge as corePikkuAgentJudge,
} from '@pikku/core/agent-scorer'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { Services, PikkuFunctionConfig } from '../function/pikku-function-types.gen.js'
import type { PikkuPermission } from '../auth/pikku-auth-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'
import type { AgentMap } from './pikku-agent-map.gen.js'
import type { ScorerName } from './pikku-scorer-names.gen.js'

type ScopeId = string

type AgentConfig<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = Omit<
  CoreAgent<PikkuPermission, PikkuMiddleware, ScopeId, ScorerName>,
  'tools' | 'agents' | 'workflows' | 'memory' | 'input' | 'output'
> & {
  input?: InputSchema
  output?: OutputSchema
  memory?: Omit<AgentMemoryConfig, 'workingMemory'> & { workingMemory?: StandardSchemaV1 }
  tools?: object[]
  agents?: AgentConfig<StandardSchemaV1 | undefined, StandardSchemaV1 | undefined>[]
  workflows?: object[]
}

export const pikkuAgent = <
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  agent: AgentConfig<InputSchema, OutputSchema>,
) => {
  return agent
}

export const pikkuAgentScorer = (config: Parameters<typeof corePikkuAgentScorer<Services>>[0]) =>
  corePikkuAgentScorer<Services>(config)

export const pikkuAgentJudge = (config: Parameters<typeof corePikkuAgentJudge<Services>>[0]) =>
  corePikkuAgentJudge<Services>(config)

export const agent = <Name extends keyof AgentMap>(agentName: Name) => {
  return coreAgent<AgentMap>(agentName as string & keyof AgentMap) as PikkuFunctionConfig<
    AgentInput,
    { runId: string; result: AgentMap[Name]['output']; usage: { inputTokens: number; outputTokens: number } },
    'session' | 'rpc'
  >
}

export const agentStream = <Name extends keyof AgentMap>(agentName?: Name) => {
  return coreAgentStream<AgentMap>(agentName as string & keyof AgentMap) as PikkuFunctionConfig<
    { agentName?: string; message: string; threadId: string; resourceId: string },
    void,
    'session' | 'rpc'
  >
}

export const agentResume = () => {
  return coreAgentResume() as PikkuFunctionConfig<
    { runId: string; toolCallId: string; approved: boolean },
    void,
    'session' | 'rpc'
  >
}

export const agentApprove = <Name extends keyof AgentMap>(agentName: Name) => {
  return coreAgentApprove<AgentMap>(agentName as string & keyof AgentMap) as PikkuFunctionConfig<
    { runId: string; approvals: { toolCallId: string; approved: boolean }[] },
    unknown,
    'session' | 'rpc'
  >
}
