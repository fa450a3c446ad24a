/**
 * Stand-in for .pikku/setup/pikku-setup-types.gen.ts: the three factories a project declares once.
 * Modelled on packages/cli/src/functions/wirings/setup/serialize-setup-types.ts (cli 0.12.113). The real
 * pikkuServices also records the built services in core's state and attaches an auth factory when one is
 * registered; this stand-in keeps the types and returns the merged services.
 */
import type { CreateWireServices } from '@pikku/core/types'
import type { SingletonServices } from '../function/pikku-function-types.gen.js'
import type { Config } from '../../src/application-types.js'
import type { RequiredSingletonServices, RequiredWireServices } from '../pikku-services.gen.js'

export type { Config }

// As generated (serialize-setup-types.ts): the first argument is `any`, the variables service where a runtime passes one.
export const pikkuConfig = (func: (variables?: any, ...args: any[]) => Promise<Config>) => func

export const pikkuServices = (
  func: (
    config: Config,
    existingServices: Partial<SingletonServices>,
  ) => Promise<Partial<Omit<RequiredSingletonServices, 'auth'>>>,
) => {
  return async (config: Config, existingServices: Partial<SingletonServices> = {}) => {
    const created = await func(config, existingServices)
    return { ...existingServices, ...created } as RequiredSingletonServices
  }
}

export const pikkuWireServices = (
  func: (services: SingletonServices, wire: unknown) => Promise<RequiredWireServices>,
): CreateWireServices => func as unknown as CreateWireServices
