// Typed stand-in for @pikku/pino 0.12.4 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/pino/package.json (exports: "." only)
//   packages/services/pino/src/index.ts
//   packages/services/pino/src/pino.ts
// `pino` is not installed here, so PinoInstance is a minimal structural stand-in for
// pino's Logger (the source types the field as `pino.Logger`).

declare module '@pikku/pino' {
  import type { LogLevel, Logger } from '@pikku/core/services'
  import type { Safe } from '@pikku/core/classification'

  // --- local structural stand-in for pino's Logger ---
  interface PinoLogFn {
    (obj: unknown, msg?: string, ...args: any[]): void
    (msg: string, ...args: any[]): void
  }
  interface PinoInstance {
    level: string
    info: PinoLogFn
    warn: PinoLogFn
    error: PinoLogFn
    debug: PinoLogFn
  }

  /** Logger that writes through a pino instance created with `pino.pino()`. */
  export class PinoLogger implements Logger {
    pino: PinoInstance
    constructor()
    setLevel(level: LogLevel): void
    info<M extends string | Record<string, any> | Error, A extends unknown[]>(
      messageOrObj: Safe<M>,
      ...meta: { [K in keyof A]: Safe<A[K]> }
    ): void
    warn<M extends string | Record<string, any> | Error, A extends unknown[]>(
      messageOrObj: Safe<M>,
      ...meta: { [K in keyof A]: Safe<A[K]> }
    ): void
    error<M extends string | Record<string, any> | Error, A extends unknown[]>(
      messageOrObj: Safe<M>,
      ...meta: { [K in keyof A]: Safe<A[K]> }
    ): void
    debug<A extends unknown[]>(message: string, ...meta: { [K in keyof A]: Safe<A[K]> }): void
  }

  export {}
}
