/**
 * Stand-in for .pikku/scopes/pikku-scopes.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/scopes/serialize-scopes-types.ts (cli 0.12.113) for a project that declares no
 * scopes, as this app does not: the union is `never` and the sidecar is an empty object. No deliberate differences.
 */
import type { FlatScope, ScopeDefinitionsMeta } from '@pikku/core/scope'
import { flattenScopeDefinitions } from '@pikku/core/scope'
import definitions from './pikku-scopes-meta.gen.json' with { type: 'json' }

/** Every scope a function can require. */
export type ScopeId = never

export interface ScopeMeta {
  id: ScopeId
  displayName?: string
  description?: string
}

/** The declared scope set, for a ScopeService to sync into its store. */
export const SCOPES: FlatScope[] = flattenScopeDefinitions(
  Object.values(definitions as ScopeDefinitionsMeta)
)

const DISPLAY_NAMES: Record<string, string> = {
}

/** Declared scopes, keyed by id. Rendered by the console when granting. */
export const SCOPES_META: Record<string, ScopeMeta> = Object.fromEntries(
  SCOPES.map((scope) => [
    scope.id,
    {
      id: scope.id as ScopeId,
      ...(DISPLAY_NAMES[scope.id]
        ? { displayName: DISPLAY_NAMES[scope.id] }
        : {}),
      ...(scope.description ? { description: scope.description } : {}),
    },
  ])
)
