// Typed stand-in for @pikku/schedule 0.12.7 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/schedule/package.json (exports: "." only)
//   packages/schedule/src/index.ts
//   packages/schedule/src/in-memory-scheduler-service.ts

declare module '@pikku/schedule' {
  import type { CoreUserSession } from '@pikku/core/types'
  import type { ScheduledTaskInfo, ScheduledTaskSummary } from '@pikku/core/services'
  import { SchedulerService } from '@pikku/core/services'

  /**
   * In-process SchedulerService: cron jobs for the wired scheduled tasks, setTimeout
   * for delayed RPCs. Nothing survives a restart.
   */
  export class InMemorySchedulerService extends SchedulerService {
    private cronJobs
    private delayedTasks
    private idCounter
    init(): Promise<void>
    /** Schedules a one-off delayed RPC call. */
    scheduleRPC(delay: number | string, rpcName: string, data?: any, session?: CoreUserSession): Promise<string>
    unschedule(taskId: string): Promise<boolean>
    getTask(taskId: string): Promise<ScheduledTaskInfo | null>
    getAllTasks(): Promise<ScheduledTaskSummary[]>
    close(): Promise<void>
    /** Starts a cron job for each registered scheduled task. */
    start(): Promise<void>
    /** Stops every cron job. */
    stop(): Promise<void>
    private startCronJob
  }

  /** @deprecated Old name of InMemorySchedulerService. */
  export { InMemorySchedulerService as PikkuTaskScheduler }

  export {}
}
