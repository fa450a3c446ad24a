/**
 * Stand-in for .pikku/scopes/pikku-scope-types.gen.ts. Modelled on `serializeScopeDefinitionTypes` in
 * packages/cli/src/functions/wirings/package/serialize-package-types.ts (cli 0.12.113): plain re-exports.
 */
export { defineScope } from '@pikku/core/scope'
export { defineSystemRole } from '@pikku/core/role'
