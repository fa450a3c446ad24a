/**
 * Stand-in for an addon's .pikku/addon/function/pikku-function-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/functions/serialize-function-types.ts (cli 0.12.113), with this addon's
 * types filled in. It keeps only what the addon example uses: the sessionless function and its types.
 */
import type { PikkuWire, SecretlessServices } from '@pikku/core/types'
import type { CorePikkuFunctionSessionless, CorePikkuSessionlessFunctionConfig } from '@pikku/core/function'
import type { Services as AddonServices, SingletonServices as AddonSingletonServices, UserSession } from '../../../types/application-types.js'

export type SingletonServices = AddonSingletonServices
export type Services = AddonServices
export type Session = UserSession

/** The services an addon function receives: its own and the app's base ones, without secrets. */
export type WiredServices = SecretlessServices<Services>

export type PikkuFunctionSessionless<In = unknown, Out = never> = CorePikkuFunctionSessionless<
  In,
  Out,
  WiredServices,
  Session,
  PikkuWire<In, Out, false, Session>
>

type SessionlessConfig<In, Out> = CorePikkuSessionlessFunctionConfig<PikkuFunctionSessionless<In, Out>>

/** A function that may run without a session: `wire.session` may be undefined. */
export function pikkuSessionlessFunc<In, Out = unknown>(
  func: PikkuFunctionSessionless<In, Out> | SessionlessConfig<In, Out>,
): SessionlessConfig<In, Out>
export function pikkuSessionlessFunc(func: unknown) {
  return typeof func === 'function' ? { func } : func
}
