/**
 * Stand-in for .pikku/auth/auth.types.ts. Modelled on
 * packages/cli/src/functions/wirings/auth/serialize-auth-types.ts `serializeAuthTypes` (cli 0.12.113).
 * Differs on purpose: the CLI writes this file only for a project that declares `pikkuBetterAuth(...)`, and the
 * to-do app does not (it signs users in with its own JWT, cookie and API-key middleware). It is here so that the
 * samples of the better-auth pages (PKU581, PKU582) import `pikkuBetterAuth` from '#pikku/auth', as such a
 * project does, and are compiled against the real better-auth package.
 */
import { pikkuBetterAuth as _pikkuBetterAuth } from '@pikku/better-auth'
import type { BetterAuthInstance, PikkuBetterAuthFactory } from '@pikku/better-auth'
import type { SingletonServices } from '../function/pikku-function-types.gen.js'
import { TypedSecretService } from '../secrets/pikku-secrets.gen.js'
import { TypedVariablesService } from '../variables/pikku-variables.gen.js'

type AuthSingletonServices = Omit<SingletonServices, 'secrets' | 'variables'> & {
  secrets: TypedSecretService
  variables: TypedVariablesService
}

export const pikkuBetterAuth = <I extends BetterAuthInstance>(
  factory: (services: AuthSingletonServices) => I | Promise<I>,
): PikkuBetterAuthFactory<I> =>
  _pikkuBetterAuth((services) =>
    factory({
      ...services,
      secrets: new TypedSecretService(services.secrets),
      variables: new TypedVariablesService(services.variables),
    } as AuthSingletonServices),
  )
