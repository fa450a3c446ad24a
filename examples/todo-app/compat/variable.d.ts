// '@pikku/core/variable' at 0.12.85+: as 0.12.84, plus `optional` on a variable declaration (packages/core/src/wirings/
// variable/variable.types.ts; 4dcd1043e, #1369: variables are required by default). The rest is re-exported.
import type { CoreVariable as CoreVariable0_12_84 } from '../../../node_modules/@pikku/core/dist/wirings/variable/index.js'
export type {
  VariableDefinitionMeta,
  VariableDefinitionsMeta,
  VariableDefinitions,
} from '../../../node_modules/@pikku/core/dist/wirings/variable/index.js'
export { validateAndBuildVariableDefinitionsMeta } from '../../../node_modules/@pikku/core/dist/wirings/variable/index.js'

export type CoreVariable<T = unknown> = CoreVariable0_12_84<T> & {
  /** Required by default: marking a variable optional declares that its absence is a supported state. */
  optional?: boolean
}

export declare const defineVariable: <T>(_config: CoreVariable<T>) => void
