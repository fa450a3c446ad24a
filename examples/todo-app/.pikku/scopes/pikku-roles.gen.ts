/**
 * Stand-in for .pikku/scopes/pikku-roles.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/roles/serialize-roles-types.ts (cli 0.12.113) for a project that declares no
 * system roles, as this app does not (its `role` is a field of the session, checked by src/roles.ts): the union is
 * `never` and the sidecar is an empty object. No deliberate differences.
 */
import type { SystemRole, SystemRoleDefinitionsMeta } from '@pikku/core/role'
import { flattenSystemRoleDefinitions } from '@pikku/core/role'
import definitions from './pikku-roles-meta.gen.json' with { type: 'json' }

/** Every role that ships with this application. */
export type SystemRoleName = never

/** The declared role set, for a ScopeService to sync into its store. */
export const SYSTEM_ROLES: SystemRole[] = flattenSystemRoleDefinitions(
  Object.values(definitions as SystemRoleDefinitionsMeta),
)

/** Declared roles, keyed by name. */
export const SYSTEM_ROLES_META: Record<string, SystemRole> = Object.fromEntries(
  SYSTEM_ROLES.map((role) => [role.name, role]),
)

/** Whether a role name is declared in code, and therefore not editable. */
export const isSystemRole = (name: string): boolean => Object.prototype.hasOwnProperty.call(SYSTEM_ROLES_META, name)
