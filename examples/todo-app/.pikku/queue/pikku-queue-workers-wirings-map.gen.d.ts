/**
 * Stand-in for .pikku/queue/pikku-queue-workers-wirings-map.gen.d.ts: each wired queue with its worker's input and
 * output. Modelled on packages/cli/src/functions/wirings/queue/serialize-queue-map.ts (cli 0.12.113).
 */
import type { QueueJob } from '@pikku/core/queue'
import type { Safe } from '@pikku/core/classification'

interface QueueHandler<I, O> {
  input: I
  output: O
}

export type QueueMap = {
  readonly 'todo-reminders': QueueHandler<{ todoId: string }, { reminded: boolean }>
  readonly 'todo-cleanup': QueueHandler<{ ownerId: string }, { removed: number }>
}

type QueueAdd = <Name extends keyof QueueMap>(
  name: Name,
  data: Safe<QueueMap[Name]['input']>,
  options?: {
    priority?: number
    delay?: number
    attempts?: number
    removeOnComplete?: number
    removeOnFail?: number
    jobId?: string
  },
) => Promise<string>

type QueueGetJob = <Name extends keyof QueueMap>(
  name: Name,
  jobId: string,
) => Promise<QueueJob<QueueMap[Name]['input'], QueueMap[Name]['output']> | null>

export type TypedPikkuQueue = {
  add: QueueAdd
  getJob: QueueGetJob
}
