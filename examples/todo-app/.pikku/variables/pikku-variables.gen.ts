/**
 * Stand-in for .pikku/variables/pikku-variables.gen.ts, which `pikku all` writes from the project's `defineVariable`
 * calls. Modelled on packages/cli/src/functions/wirings/variables/serialize-variables-types.ts (cli 0.12.113), with
 * this app's declarations (src/variables.ts) filled in. No deliberate differences in the TypeScript: as generated, the map has every
 * declared variable as a plain property whether it is optional or not, because `get` already returns `T | undefined`.
 * The JSON sidecar beside this file holds the declarations; its `sourceFile` paths are relative to the app here,
 * where the CLI writes the absolute path of the declaring file.
 */
import {
  TypedVariablesService as CoreTypedVariablesService,
  type VariableMeta,
} from '@pikku/core/services'
import type { VariablesService } from '@pikku/core/services'
/**
 * Side-effect import of the metadata sidecar, so that tsc emits the .json
 * alongside this file (as generated).
 */
import './pikku-variables-meta.gen.json' with { type: 'json' }
import type { z } from 'zod'
import { EscalationHoursSchema, ReminderSenderSchema } from '../../src/variables.js'

export interface VariablesMap {
  'REMINDER_ESCALATION_HOURS': z.infer<typeof EscalationHoursSchema>
  'REMINDER_FROM_ADDRESS': z.infer<typeof ReminderSenderSchema>
}

const TYPED_VARIABLES_META: Record<string, VariableMeta> = {
  'REMINDER_ESCALATION_HOURS': { name: 'escalationDelay', displayName: "Escalation delay (hours)" },
  'REMINDER_FROM_ADDRESS': { name: 'reminderSender', displayName: "Reminder sender address" }
}

export class TypedVariablesService extends CoreTypedVariablesService<VariablesMap> {
  constructor(variables: VariablesService) {
    super(variables, TYPED_VARIABLES_META)
  }
}
