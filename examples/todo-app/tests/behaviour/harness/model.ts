// A scripted language model for the agent tests: a real LanguageModelV4 object (MockLanguageModelV4 from the `ai`
// package's own 'ai/test' entry) whose answers the test decides, so VercelAgentRunner, the AI SDK and Pikku's agent
// loop all run for real and nothing reaches the network.
import { MockLanguageModelV4 } from 'ai/test'

/** One answer of the model: text, tool calls, or both. */
export interface Turn {
  text?: string
  toolCalls?: Array<{ toolName: string; args: unknown }>
}

/** What the model was sent on one call: the system prompt, the messages as plain JSON, and the offered tools. */
export interface ModelCall {
  system: string
  prompt: unknown[]
  tools: Array<{ name: string; description?: string; inputSchema?: unknown }>
  /** The prompt as one string, for quick `includes` checks. */
  text: string
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

let nextId = 0

export class ScriptedModel {
  readonly calls: ModelCall[] = []
  private script: Array<Turn | ((call: ModelCall) => Turn)> = []

  /** Queue the next answers, in order. A function answers from what the model was sent. */
  answer(...turns: Array<Turn | ((call: ModelCall) => Turn)>) {
    this.script.push(...turns)
  }

  reset() {
    this.calls.length = 0
    this.script.length = 0
  }

  private next(options: any): Turn {
    const system = options.prompt
      .filter((m: any) => m.role === 'system')
      .map((m: any) => m.content)
      .join('\n')
    const prompt = options.prompt.filter((m: any) => m.role !== 'system')
    const call: ModelCall = {
      system,
      prompt,
      tools: (options.tools ?? []).map((t: any) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      text: JSON.stringify(options.prompt),
    }
    this.calls.push(call)
    const turn = this.script.shift()
    if (!turn) throw new Error(`the scripted model has no answer left for call ${this.calls.length}`)
    return typeof turn === 'function' ? turn(call) : turn
  }

  private content(turn: Turn) {
    return [
      ...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []),
      ...(turn.toolCalls ?? []).map((c) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${++nextId}`,
        toolName: c.toolName,
        input: JSON.stringify(c.args),
      })),
    ]
  }

  /** The model object a provider hands to the AI SDK. */
  readonly model = new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'scripted',
    doGenerate: async (options) => {
      const turn = this.next(options)
      return {
        content: this.content(turn),
        finishReason: { unified: turn.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      } as any
    },
    doStream: async (options) => {
      const turn = this.next(options)
      const parts: any[] = [{ type: 'stream-start', warnings: [] }]
      if (turn.text) {
        parts.push({ type: 'text-start', id: 't1' })
        // Two pieces, so that a streamed reply arrives in more than one event.
        const half = Math.ceil(turn.text.length / 2)
        parts.push({ type: 'text-delta', id: 't1', delta: turn.text.slice(0, half) })
        parts.push({ type: 'text-delta', id: 't1', delta: turn.text.slice(half) })
        parts.push({ type: 'text-end', id: 't1' })
      }
      for (const c of this.content({ toolCalls: turn.toolCalls })) parts.push(c)
      parts.push({
        type: 'finish',
        finishReason: { unified: turn.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
        usage,
      })
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }),
      } as any
    },
  })

  /** A provider for VercelAgentRunner's map: every model name gets this model. */
  readonly provider = (_modelName: string) => this.model
}
