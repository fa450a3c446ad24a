/**
 * Stand-in for .pikku/trigger/pikku-trigger-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/triggers/serialize-trigger-types.ts (cli 0.12.113), app variant, with this
 * app's SingletonServices filled in. Differences from the generated file, each on purpose:
 * - `wireTrigger` types `func` through the app's function config type; that is as loose as the generated
 *   `TriggerWiring` (core's `CoreTrigger`, whose `func` is `any`), since every type argument is `any`.
 * - The schema-typed overload of `pikkuTriggerFunc` (input/output as Standard Schema) is left out: the app
 *   declares its types with generics.
 */
import {
  wireTrigger as wireTriggerCore,
  wireTriggerSource as wireTriggerSourceCore,
} from '@pikku/core/trigger'
import type { CorePikkuTriggerFunction, CorePikkuTriggerFunctionConfig, CoreTrigger } from '@pikku/core/trigger'
import type { PikkuFunctionConfig } from '../function/pikku-function-types.gen.js'
import type { SingletonServices } from '../../src/application-types.js'

/** Opens a subscription, calls `trigger.invoke(data)` per event and resolves to a teardown function. */
type PikkuTriggerFunction<TInput = unknown, TOutput = unknown> = CorePikkuTriggerFunction<
  TInput,
  TOutput,
  SingletonServices
>

type PikkuTriggerFunctionConfig<TInput = unknown, TOutput = unknown> = CorePikkuTriggerFunctionConfig<
  TInput,
  TOutput,
  SingletonServices
>

/** Declares a trigger: its name and the function each event runs. */
type TriggerWiring = Omit<CoreTrigger, 'func'> & {
  func: PikkuFunctionConfig<any, any, any, any, any, any>
}

/** The subscription behind a trigger: `name` must match a `wireTrigger` name. */
type TriggerSource<TInput = unknown, TOutput = unknown> = {
  name: string
  func: PikkuTriggerFunctionConfig<TInput, TOutput>
} & (unknown extends TInput ? { input?: TInput } : { input: TInput })

export function pikkuTriggerFunc<TInput, TOutput = unknown>(
  triggerOrConfig: PikkuTriggerFunction<TInput, TOutput> | PikkuTriggerFunctionConfig<TInput, TOutput>,
): PikkuTriggerFunctionConfig<TInput, TOutput>
export function pikkuTriggerFunc(triggerOrConfig: unknown) {
  return typeof triggerOrConfig === 'function' ? { func: triggerOrConfig } : triggerOrConfig
}

export const wireTrigger = (trigger: TriggerWiring): void => {
  wireTriggerCore(trigger as never)
}

export const wireTriggerSource = <TInput = unknown, TOutput = unknown>(source: TriggerSource<TInput, TOutput>): void => {
  wireTriggerSourceCore(source as never)
}
