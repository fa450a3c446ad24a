/**
 * Stand-in for .pikku/variables/pikku-variable-types.gen.ts. Modelled on `serializeVariableDefinitionTypes` in
 * packages/cli/src/functions/wirings/package/serialize-package-types.ts (cli 0.12.113): a plain re-export.
 */
export { defineVariable } from '@pikku/core/variable'
