/**
 * Stand-in for .pikku/auth/pikku-auth-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/auth/serialize-auth-guards.ts (cli 0.12.113).
 */
import type { PikkuWire, SecretlessServices } from '@pikku/core/types'
import type {
  CorePermissionGroup,
  CorePikkuAuth,
  CorePikkuAuthConfig,
  CorePikkuPermission,
} from '@pikku/core/function'
import { pikkuAuth as pikkuAuthCore } from '@pikku/core/function'
import { addGlobalPermission as addGlobalPermissionCore } from '@pikku/core/middleware'
import type { Services, Session, SingletonServices, WiredServices } from '../function/pikku-function-types.gen.js'
import type { RequiredSingletonServices } from '../pikku-services.gen.js'

export { defineCredential } from '@pikku/core/credential'

export type PikkuPermission<In = unknown, RequiredServices extends SecretlessServices<Services> = WiredServices> =
  CorePikkuPermission<In, RequiredServices, PikkuWire<In, never, false, Session>>

type PikkuPermissionConfig<In = unknown, RequiredServices extends SecretlessServices<Services> = WiredServices> = {
  func: PikkuPermission<In, RequiredServices>
  name?: string
  description?: string
}

export const pikkuPermission = <In>(permission: PikkuPermission<In> | PikkuPermissionConfig<In>): PikkuPermission<In> =>
  typeof permission === 'function' ? permission : permission.func

type WiredAuthServices = SecretlessServices<RequiredSingletonServices & SingletonServices>

/** A session check written as a permission: receives the session rather than the input. */
export const pikkuAuth = <RequiredServices extends SecretlessServices<SingletonServices> = WiredAuthServices>(
  auth: CorePikkuAuth<RequiredServices, Session> | CorePikkuAuthConfig<RequiredServices, Session>,
): PikkuPermission<any, any> => pikkuAuthCore(auth as never) as PikkuPermission<any, any>

export const pikkuPermissionFactory = <In = unknown>(
  factory: (input: In) => PikkuPermission<any>,
): ((input: In) => PikkuPermission<any>) => factory

export const addGlobalPermission = <In = unknown>(
  permissions: CorePermissionGroup<PikkuPermission<In>> | PikkuPermission<In>[],
): void => {
  addGlobalPermissionCore(permissions as never)
}
