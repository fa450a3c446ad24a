/**
 * Stand-in for an addon's .pikku/addon/setup/pikku-addon-setup-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/functions/serialize-addon-types.ts `serializeAddonTypes` (cli 0.12.113),
 * with this addon's types filled in. The addon declares no credentials, so AddonBaseServices has none.
 * `pikkuAddonWireServices` is left out: the example declares no wire services.
 */
import type { CreateConfig } from '@pikku/core/types'
import type { Config, SingletonServices } from '../../../types/application-types.js'
import { TypedSecretService } from '../secrets/pikku-secrets.gen.js'
import type { VariablesService } from '@pikku/core/services'

/** What the consuming app hands every addon factory: its logger, and variables and secrets scoped to the addon. */
export type AddonBaseServices = {
  logger: SingletonServices['logger']
  variables: VariablesService
  secrets: TypedSecretService
}

type ExistingServices = Omit<Partial<SingletonServices>, 'variables' | 'secrets'> & AddonBaseServices

/** The addon's config factory: it receives the base services rather than the raw variables. */
export const pikkuAddonConfig = (func: (services: ExistingServices) => Promise<Config>): CreateConfig<Config> =>
  (async (_variables: unknown, existingServices?: Partial<SingletonServices>): Promise<Config> => {
    const { secrets, variables, ...rest } = (existingServices ?? {}) as SingletonServices
    return func({ ...rest, secrets: new TypedSecretService(secrets), variables } as ExistingServices)
  }) as unknown as CreateConfig<Config>

/** The addon's singleton-services factory: returns only its own services; the base ones are added to them. */
export const pikkuAddonServices =
  <T extends Partial<SingletonServices>>(func: (config: Config, services: ExistingServices) => Promise<T>) =>
  async (config: Config, existingServices?: Partial<SingletonServices>): Promise<SingletonServices> => {
    const { logger, variables, secrets, schema } = (existingServices ?? {}) as SingletonServices
    const typedSecrets = new TypedSecretService(secrets)
    const result = await func(config, { ...existingServices, logger, variables, secrets: typedSecrets } as ExistingServices)
    return { config, logger, schema, variables, secrets: typedSecrets, ...result } as SingletonServices
  }
