// Typed stand-in for the part of `cron` 4.x (the library @pikku/schedule depends on) that the docs use.
// `cron` is not installed in this repository; this declares only CronJob.from, stop() and the options
// passed to it, with the types of cron's own CronJobParams. Nothing else of the package is declared.

declare module 'cron' {
  interface CronJobParams {
    /** A cron expression (seconds field optional) or a Date. */
    cronTime: string | Date
    onTick: () => void | Promise<void>
    /** Start the job at once. Defaults to false. */
    start?: boolean
    /** An IANA time zone such as 'UTC'; defaults to the process's local zone. */
    timeZone?: string
  }

  export class CronJob {
    static from(params: CronJobParams): CronJob
    start(): void
    stop(): void
  }
}
