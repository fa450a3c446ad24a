// Stand-in for .pikku/agent/pikku-agent-map.gen.d.ts (packages/cli/src/functions/wirings/agent/serialize-agent-map.ts,
// cli 0.12.113): one entry per agent, keyed by the agent's export name, with the type of its result. An agent with an
// `output` schema returns the schema's type; one without returns its reply as a string.
import type { DayPlan } from '../../src/agents/agent.schemas.js'

interface AgentHandler<O> {
  output: O
}

export type AgentMap = {
  readonly todoAssistant: AgentHandler<string>
  readonly dayPlanner: AgentHandler<DayPlan>
}
