/**
 * Stand-in for .pikku/channel/pikku-channel-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/channels/serialize-channel-types.ts (cli 0.12.113).
 */
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { defineChannelRoutes as defineChannelRoutesCore, wireChannel as wireChannelCore } from '@pikku/core/channel'
import type { CoreChannel } from '@pikku/core/channel'
import type { AssertHTTPWiringParams } from '@pikku/core/http'
import type { CorePermissionGroup } from '@pikku/core/function'
import type { PikkuFunctionConfig, PikkuFunctionSessionless } from '../function/pikku-function-types.gen.js'
import type { PikkuPermission } from '../auth/pikku-auth-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'

type InferSchemaOutput<T> = T extends StandardSchemaV1<unknown, infer Output> ? Output : never

type ChannelWiring<ChannelData, Channel extends string> = CoreChannel<
  ChannelData,
  Channel,
  PikkuFunctionConfig<void, any, 'channel' | 'session' | 'rpc'>,
  PikkuFunctionConfig<void, void, 'channel' | 'session' | 'rpc'>,
  PikkuFunctionConfig<any, any, 'channel' | 'session' | 'rpc'>,
  PikkuPermission,
  PikkuMiddleware
>

export const pikkuChannelConnectionFunc = <Out = unknown>(
  func:
    | PikkuFunctionSessionless<void, Out, 'channel' | 'session' | 'rpc'>
    | PikkuFunctionConfig<void, Out, 'channel' | 'session' | 'rpc'>,
) => (typeof func === 'function' ? { func } : func)

export const pikkuChannelDisconnectionFunc = (
  func:
    | PikkuFunctionSessionless<void, void, 'channel'>
    | PikkuFunctionConfig<void, void, 'channel' | 'session' | 'rpc'>,
) => (typeof func === 'function' ? { func } : func)

type PikkuChannelFuncConfigWithSchema<
  InputSchema extends StandardSchemaV1,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = {
  name?: string
  tags?: string[]
  expose?: boolean
  remote?: boolean
  func: PikkuFunctionSessionless<
    InferSchemaOutput<InputSchema>,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'channel' | 'session' | 'rpc'
  >
  auth?: boolean
  permissions?: CorePermissionGroup<PikkuPermission<InferSchemaOutput<InputSchema>>>
  middleware?: PikkuMiddleware[]
  input: InputSchema
  output?: OutputSchema
}

export function pikkuChannelFunc<
  InputSchema extends StandardSchemaV1,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuChannelFuncConfigWithSchema<InputSchema, OutputSchema>,
): PikkuFunctionConfig<
  InferSchemaOutput<InputSchema>,
  OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
  'channel' | 'session' | 'rpc'
>
export function pikkuChannelFunc<In, Out = unknown>(
  func:
    | PikkuFunctionSessionless<In, Out, 'channel' | 'session' | 'rpc'>
    | PikkuFunctionConfig<In, Out, 'channel' | 'session' | 'rpc'>,
): PikkuFunctionConfig<In, Out, 'channel' | 'session' | 'rpc'>
export function pikkuChannelFunc(func: unknown) {
  return typeof func === 'function' ? { func } : func
}

export const wireChannel = <ChannelData, Channel extends string>(
  channel: ChannelWiring<ChannelData, Channel> & AssertHTTPWiringParams<ChannelData, Channel>,
): void => {
  wireChannelCore(channel as never)
}

export function defineChannelRoutes<T extends Record<string, unknown>>(routes: T): T {
  return defineChannelRoutesCore(routes) as T
}
