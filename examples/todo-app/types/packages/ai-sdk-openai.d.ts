// PARTIAL typed stand-in for @ai-sdk/openai, the Vercel AI SDK's OpenAI provider (not installed here).
// Only the call the framework's own AI template makes is modelled (pikkujs/pikku HEAD 88b118a68,
// templates/ai-postgres/src/start.ts: createOpenAI({ apiKey }) and createOpenAI({ baseURL, apiKey })).
// The provider is typed opaquely: Pikku passes it to VercelAgentRunner, which takes Record<string, any>.

declare module '@ai-sdk/openai' {
  export interface OpenAIProvider {
    readonly __aiSdkProvider: 'openai'
  }
  export function createOpenAI(options?: { apiKey?: string; baseURL?: string }): OpenAIProvider
}
