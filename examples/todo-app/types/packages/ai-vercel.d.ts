// Typed stand-in for @pikku/ai-vercel 0.12.13 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/ai-vercel/package.json (exports: "." only; peer dependency ai ^7)
//   packages/services/ai-vercel/src/index.ts
//   packages/services/ai-vercel/src/vercel-agent-runner.ts
// The optional AgentRunnerService methods (transcribe, generateSpeech, generateImage, embed, embedMany, rerank)
// are typed through the interface.

declare module '@pikku/ai-vercel' {
  import type { AgentStreamChannel } from '@pikku/core/agent'
  import type { AgentRunnerParams, AgentRunnerService, AgentStepResult } from '@pikku/core/services'

  /**
   * Runs agents on the Vercel AI SDK. `providers` maps the part of a model name before the slash
   * ('openai' in 'openai/gpt-4o-mini') to an AI SDK provider; a '*' entry takes every unmatched prefix.
   * `providerFactory` builds providers for a caller's own API key (withApiKey), and
   * `allowedAttachmentHosts` limits where attachment URLs may be downloaded from.
   */
  export class VercelAgentRunner implements AgentRunnerService {
    providers: Record<string, any>
    private readonly providerFactory?
    private readonly allowedAttachmentHosts?
    constructor(
      providers: Record<string, any>,
      providerFactory?: (apiKey: string) => Record<string, any>,
      allowedAttachmentHosts?: string[],
    )
    withApiKey(apiKey: string): VercelAgentRunner
    stream(params: AgentRunnerParams, channel: AgentStreamChannel): Promise<AgentStepResult>
    run(params: AgentRunnerParams): Promise<AgentStepResult>
  }
}
