// Stand-in for .pikku/addon/secrets/pikku-secret-types.gen.ts, as
// packages/cli/src/functions/wirings/package/serialize-package-types.ts `serializeSecretDefinitionTypes` writes it.
export { defineSecret } from '@pikku/core/secret'
