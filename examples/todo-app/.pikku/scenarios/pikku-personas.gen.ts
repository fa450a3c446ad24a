/**
 * Stand-in for .pikku/scenarios/pikku-personas.gen.ts, which `pikku all` writes for every project with workflows.
 * Modelled on packages/cli/src/functions/wirings/workflow/serialize-personas.ts (cli 0.12.113), with this app's
 * one persona (src/personas.ts) resolved as packages/cli/src/utils/resolve-personas.ts does: core's
 * `validateAndBuildPersonasMeta` plus the computed address on the default domain, `personas.invalid` (the app sets
 * no `scenarios.emailDomain`). As in the secrets stand-in, `sourceFile` is relative to the app here, where the CLI
 * writes the declaring file's absolute path. No other deliberate differences.
 */
/** Personas declared with definePersonas() */
import { createHttpPersonas } from '@pikku/core/persona'
import type { HttpPersonasConfig } from '@pikku/core/persona'
import type { ScenarioPersona } from '@pikku/core/services'
import type { ResolvedPersona } from '@pikku/core/services'
import type { AgentMap } from '../agent/pikku-agent-map.gen.js'
import type { FlattenedRPCMap } from '../rpc/pikku-rpc-wirings-map.gen.js'

export const personaConfigs = {
  alice: {
    id: 'alice',
    name: 'Alice',
    roles: [],
    goals: ["Clear the week's to-dos before Friday"],
    tags: [],
    runnable: true,
    sourceFile: 'src/personas.ts',
    jobTitle: 'Leads a small design team',
    account: {},
    email: 'alice@personas.invalid',
  },
} as const satisfies Record<string, ResolvedPersona>

export type PersonaName = keyof typeof personaConfigs

/** The same personas as a list, widened to `ResolvedPersona`. */
export const personaList: ResolvedPersona[] = Object.values(personaConfigs)

export type AgentName = keyof AgentMap & string
export type TypedPersonas = Record<PersonaName, ScenarioPersona<AgentName, FlattenedRPCMap>>

export const createPersonas = (options: Omit<HttpPersonasConfig, 'personas'>): TypedPersonas =>
  createHttpPersonas({
    ...options,
    personas: personaConfigs,
  }) as TypedPersonas
