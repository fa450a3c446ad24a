/**
 * Stand-in for .pikku/secrets/pikku-secret-types.gen.ts. Modelled on `serializeSecretDefinitionTypes` in
 * packages/cli/src/functions/wirings/package/serialize-package-types.ts (cli 0.12.113): a plain re-export.
 */
export { defineSecret } from '@pikku/core/secret'
