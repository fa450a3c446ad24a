/**
 * Stand-in for .pikku/scheduler/pikku-scheduler-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/scheduler/serialize-scheduler-types.ts (cli 0.12.113).
 */
import { wireScheduler as wireSchedulerCore } from '@pikku/core/scheduler'
import type { CoreScheduledTask } from '@pikku/core/scheduler'
import type { PikkuFunctionConfig } from '../function/pikku-function-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'

type SchedulerWiring = CoreScheduledTask<PikkuFunctionConfig<void, void, 'session' | 'rpc'>, PikkuMiddleware>

export const wireScheduler = (task: SchedulerWiring): void => {
  wireSchedulerCore(task as never)
}
