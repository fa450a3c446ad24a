// '@pikku/core/types' (new in 0.12.85): the app's base types, on the 0.12.84 root and ecosystem entry points.
import type { CoreUserSession, PikkuWire as PikkuWire0_12_84 } from '../../../node_modules/@pikku/core/dist/index.js'
import type { PikkuRPC } from '../../../node_modules/@pikku/core/dist/wirings/rpc/rpc-types.js'
import type { PikkuWorkflowWire } from '../../../node_modules/@pikku/core/dist/wirings/workflow/workflow.types.js'
import type { PikkuScenarioWire } from '../../../node_modules/@pikku/core/dist/wirings/workflow/scenario.types.js'
import type { ScenarioPersonaOf, ScenarioPersonas } from '../../../node_modules/@pikku/core/dist/services/personas-service.js'

export type {
  AuthInstance,
  CoreConfig,
  CoreServices,
  CoreSingletonServices,
  CoreUserSession,
  CreateConfig,
  PikkuWiringTypes,
  PostgresConfig,
  SecretlessServices,
  ServerLifecycle,
} from '../../../node_modules/@pikku/core/dist/index.js'
export type { CreateSingletonServices, CreateWireServices } from '../../../node_modules/@pikku/core/dist/ecosystem.js'

// Since 0.12.85 (c127273) `wire.getCredential` is typed from the project's generated CredentialsMap, passed as
// PikkuWire's twelfth type parameter (packages/core/src/types/core.types.ts `GetCredential`, `PikkuWire`). Here the
// typed reader is intersected in front of the 0.12.84 wire, so its overloads are tried first.
/** Reads one credential: typed from the map for a declared name, or with an explicit type for any other. */
export type GetCredential<TCredentials = Record<string, unknown>> = {
  <K extends keyof TCredentials & string>(name: K): TCredentials[K] | null | Promise<TCredentials[K] | null>
  <T = unknown>(name: string): T | null | Promise<T | null>
}

export type PikkuWire<
  In = unknown,
  Out = unknown,
  HasInitialSession extends boolean = false,
  UserSession extends CoreUserSession = CoreUserSession,
  TypedRPC extends PikkuRPC = PikkuRPC,
  IsChannel extends true | null = null,
  MCPTools extends string | never = never,
  TypedWorkflow extends PikkuWorkflowWire | never = PikkuWorkflowWire,
  TriggerOutput = unknown,
  TypedScenario extends PikkuScenarioWire<any> | never = PikkuScenarioWire<any>,
  TypedActors extends ScenarioPersonas = ScenarioPersonas,
  TypedCredentials = Record<string, unknown>,
> = {
  /** Get a single credential by name; lazy-loads from the CredentialService on first call, sync thereafter. */
  getCredential?: GetCredential<TypedCredentials>
  /**
   * The persona a scenario step runs as, injected by the runner. On the wire since 9fce0f165 (after 0.12.85); a step
   * declaring `actor: true` or a browser binding has it required (packages/core/src/types/core.types.ts `PikkuWire`).
   */
  actor?: ScenarioPersonaOf<TypedActors>
} & PikkuWire0_12_84<
  In,
  Out,
  HasInitialSession,
  UserSession,
  TypedRPC,
  IsChannel,
  MCPTools,
  TypedWorkflow,
  TriggerOutput,
  TypedScenario,
  TypedActors
>
