import type { AgentMessage, AgentThread } from '@pikku/core/agent'
import type { AgentStorageService } from '@pikku/core/services'

// #region InMemoryAgentStorage
/**
 * Threads, messages and working memory in three Maps: for tests and local development. Everything is lost on restart
 * and nothing is shared between processes; in production use a database-backed AgentStorageService.
 */
export class InMemoryAgentStorage implements AgentStorageService {
  private threads = new Map<string, AgentThread>()
  private messages = new Map<string, AgentMessage[]>()
  private workingMemory = new Map<string, Record<string, unknown>>()

  async createThread(
    resourceId: string,
    options: { threadId?: string; title?: string; metadata?: Record<string, unknown> } = {},
  ): Promise<AgentThread> {
    const now = new Date()
    const thread: AgentThread = {
      id: options.threadId ?? crypto.randomUUID(),
      resourceId,
      title: options.title,
      metadata: options.metadata,
      createdAt: now,
      updatedAt: now,
    }
    this.threads.set(thread.id, thread)
    return thread
  }

  async getThread(threadId: string): Promise<AgentThread> {
    const thread = this.threads.get(threadId)
    if (!thread) throw new Error(`No agent thread ${threadId}`)
    return thread
  }

  async getThreads(resourceId: string): Promise<AgentThread[]> {
    return [...this.threads.values()].filter((thread) => thread.resourceId === resourceId)
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads.delete(threadId)
    this.messages.delete(threadId)
    this.workingMemory.delete(`thread:${threadId}`)
  }

  async getMessages(threadId: string, options: { lastN?: number } = {}): Promise<AgentMessage[]> {
    const all = this.messages.get(threadId) ?? []
    return options.lastN === undefined ? all : all.slice(-options.lastN)
  }

  async saveMessages(threadId: string, messages: AgentMessage[]): Promise<void> {
    this.messages.set(threadId, [...(this.messages.get(threadId) ?? []), ...messages])
  }

  async getWorkingMemory(id: string, scope: 'resource' | 'thread'): Promise<Record<string, unknown> | null> {
    return this.workingMemory.get(`${scope}:${id}`) ?? null
  }

  async saveWorkingMemory(id: string, scope: 'resource' | 'thread', data: Record<string, unknown>): Promise<void> {
    this.workingMemory.set(`${scope}:${id}`, data)
  }
}
// #endregion InMemoryAgentStorage
