// Stand-in for .pikku/agent/pikku-scorer-names.gen.d.ts (packages/cli/src/functions/wirings/agent-scorer/
// serialize-scorer-names.ts, cli 0.12.113). The app declares no scorer, so the union is empty, as generated:
// `scorers: ['anything']` on an agent is a type error.
export type ScorerName = never
