/**
 * Stand-in for .pikku/scopes/pikku-personas.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/personas/serialize-personas-types.ts (cli 0.12.113), for this app's personas
 * (src/personas.ts), no system roles and no `environments` in pikku.config.json. The JSON sidecar holds what core's
 * `validateAndBuildPersonasMeta` builds from the inspector's record of the declaration; its `sourceFile` is relative
 * to the app here, where the CLI writes an absolute path. No other deliberate differences.
 */
import { definePersonas as definePersonasCore } from '@pikku/core/persona'
import type { PersonaMeta, PersonasMeta } from '@pikku/core/persona'
import type { CorePersona } from '@pikku/core/persona'
import type { SystemRoleName } from './pikku-roles.gen.js'
import definitions from './pikku-personas-meta.gen.json' with { type: 'json' }

/** Every environment configured in pikku.config.json. */
type EnvironmentName = never

/** A persona whose roles are checked against `defineSystemRole` and whose environments against the config. */
type TypedPersona = Omit<CorePersona, 'roles' | 'environments'> & {
  roles?: SystemRoleName[]
  environments?: EnvironmentName[]
}

/** Declare the people who use this application. */
export const definePersonas = (personas: Record<string, TypedPersona>): void => definePersonasCore(personas)

/** Declared personas, keyed by id. */
export const PERSONAS: PersonasMeta = definitions as unknown as PersonasMeta

export const PERSONA_LIST: PersonaMeta[] = Object.values(PERSONAS)
