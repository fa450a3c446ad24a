/**
 * Stand-in for .pikku/scopes/pikku-personas-secrets.gen.ts, written beside the personas file for a project that
 * declares personas. Modelled on packages/cli/src/functions/wirings/personas/serialize-personas-secrets.ts
 * (cli 0.12.113). No deliberate differences.
 */
import { defineSecret } from '@pikku/core/secret'
import { z } from 'zod'

export const ScenarioActorSecretSchema = z.string()

defineSecret({
  name: 'scenarioActorSecret',
  displayName: 'Scenario Actor Secret',
  description: 'Signing secret that lets scenarios and virtual users sign in as a declared persona',
  optional: true,
  secretId: 'SCENARIO_ACTOR_SECRET',
  schema: ScenarioActorSecretSchema,
})
