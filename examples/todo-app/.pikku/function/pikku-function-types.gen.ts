/**
 * Stand-in for .pikku/function/pikku-function-types.gen.ts, which `pikku all` writes from the project's own
 * types. Modelled on packages/cli/src/functions/wirings/functions/serialize-function-types.ts (cli 0.12.113),
 * with this app's types filled in. Kept as strict as the generated file: no `any` where it has a type.
 * Differences from the generated file, each on purpose:
 * - The node-category type is left at core's default, as the CLI does for a project that declares none. The
 *   `workflow` wire is typed with `TypedWorkflow` from the workflow leaf, the `scenario` and `actors` wires with
 *   `TypedScenario` and `TypedPersonas` from the scenarios leaf, and `getCredential` with `CredentialsMap` from the
 *   credentials leaf, as the generated file does (the app declares workflows in src/workflows/, a scenario in
 *   src/scenarios/, personas in src/personas.ts and a credential in src/credentials.ts).
 * - Each factory returns a config typed with its own kind of function (the generated file returns the union of
 *   both kinds); the two kinds are the same type, as in the generated file, so this changes no assignment.
 *   `auth: false` on a `pikkuFunc` compiles here as it does there: `pikku all` is what refuses it (PKU573), and
 *   scripts/code-samples.mjs runs that check, and the PKU410/PKU411 destructuring lints, on the site's samples.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { PickRequired } from '@pikku/core/utils'
import type { PikkuWire, SecretlessServices } from '@pikku/core/types'
import type {
  CorePermissionGroup,
  CorePikkuFunction,
  CorePikkuFunctionConfig,
  CorePikkuFunctionSessionless,
  CorePikkuPermission,
  CorePikkuSessionlessFunctionConfig,
  ListInput,
  ListOutput,
} from '@pikku/core/function'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'
import type { PikkuPermission } from '../auth/pikku-auth-types.gen.js'
import type { UserSession } from '../../src/application-types.js'
import type { SingletonServices as AppSingletonServices, Services as AppServices } from '../../src/application-types.js'
import type { FlattenedRPCMap, TypedPikkuRPC } from '../rpc/pikku-rpc-wirings-map.internal.gen.js'
import type { RequiredSingletonServices } from '../pikku-services.gen.js'
import type { TypedWorkflow } from '../workflow/pikku-workflow-types.gen.js'
import type { TypedScenario, TypedPersonas } from '../scenarios/pikku-scenario-types.gen.js'
import type { CredentialsMap } from '../credentials/pikku-credentials.gen.js'

type ScopeId = string

export type SingletonServices = AppSingletonServices
export type Services = AppServices
export type Session = UserSession

/** The services a wired function receives: the ones the project uses are required, secrets are removed. */
export type WiredServices = SecretlessServices<RequiredSingletonServices & Services>

/** `ScenarioOut` types `scenario.context`; only scenarios set it. */
type Wire<In, Out, HasSession extends boolean, ScenarioOut = unknown> = PikkuWire<
  In,
  Out,
  HasSession,
  Session,
  TypedPikkuRPC,
  null,
  string,
  TypedWorkflow,
  unknown,
  TypedScenario<ScenarioOut>,
  TypedPersonas,
  CredentialsMap
>

export type PikkuFunctionSessionless<
  In = unknown,
  Out = never,
  RequiredWires extends keyof PikkuWire = never,
  RequiredServices extends SecretlessServices<Services> = WiredServices,
  ScenarioOut = unknown,
> = CorePikkuFunctionSessionless<
  In,
  Out,
  RequiredServices,
  Session,
  PickRequired<Wire<In, Out, false, ScenarioOut>, RequiredWires>
>

export type PikkuFunction<
  In = unknown,
  Out = never,
  RequiredWires extends keyof PikkuWire = 'session',
  RequiredServices extends SecretlessServices<Services> = WiredServices,
> = CorePikkuFunction<In, Out, RequiredServices, Session, PickRequired<Wire<In, Out, true>, RequiredWires>>

export type InferSchemaOutput<T> = T extends StandardSchemaV1<unknown, infer Output> ? Output : never

export type PikkuFunctionConfig<
  In = unknown,
  Out = unknown,
  RequiredWires extends keyof PikkuWire = never,
  PikkuFunc extends PikkuFunction<In, Out, RequiredWires, any> | PikkuFunctionSessionless<In, Out, RequiredWires, any, any> =
    | PikkuFunction<In, Out, RequiredWires>
    | PikkuFunctionSessionless<In, Out, RequiredWires>,
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = CorePikkuFunctionConfig<PikkuFunc, PikkuPermission<In>, PikkuMiddleware, InputSchema, OutputSchema, ScopeId>

type PikkuFunctionSessionlessConfig<
  In = unknown,
  Out = unknown,
  RequiredWires extends keyof PikkuWire = never,
  PikkuFunc extends PikkuFunctionSessionless<In, Out, RequiredWires, any, any> = PikkuFunctionSessionless<In, Out, RequiredWires>,
> = CorePikkuSessionlessFunctionConfig<PikkuFunc, PikkuPermission<In>, PikkuMiddleware>

type SchemaInferred<S, Fallback = unknown> = S extends StandardSchemaV1 ? InferSchemaOutput<S> : Fallback

type PikkuFunctionConfigWithSchema<
  InputSchema extends StandardSchemaV1 | undefined,
  OutputSchema extends StandardSchemaV1 | undefined,
  RequiredWires extends keyof PikkuWire,
> = Omit<
  CorePikkuFunctionConfig<
    | PikkuFunction<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>, RequiredWires>
    | PikkuFunctionSessionless<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>, RequiredWires>,
    CorePikkuPermission<any>,
    PikkuMiddleware,
    undefined,
    undefined,
    ScopeId
  >,
  'func' | 'input' | 'output' | 'permissions'
> & {
  func: PikkuFunction<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>, RequiredWires>
  input?: InputSchema
  output?: OutputSchema
  permissions?: InputSchema extends StandardSchemaV1
    ? CorePermissionGroup<PikkuPermission<InferSchemaOutput<InputSchema>>>
    : undefined
}

type PikkuFunctionSessionlessConfigWithSchema<
  InputSchema extends StandardSchemaV1 | undefined,
  OutputSchema extends StandardSchemaV1 | undefined,
  RequiredWires extends keyof PikkuWire,
> = Omit<
  CorePikkuSessionlessFunctionConfig<
    PikkuFunctionSessionless<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>, RequiredWires>
  >,
  'func' | 'input' | 'output' | 'permissions'
> & {
  func: PikkuFunctionSessionless<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>, RequiredWires>
  input?: InputSchema
  output?: OutputSchema
  permissions?: InputSchema extends StandardSchemaV1
    ? CorePermissionGroup<PikkuPermission<InferSchemaOutput<InputSchema>>>
    : undefined
}

/** The config of a function that needs a session. */
type SessionConfig<In, Out> = PikkuFunctionConfig<In, Out, 'session' | 'rpc', PikkuFunction<In, Out, 'session' | 'rpc'>>
/** The config of a function that runs with or without a session. */
type SessionlessConfig<In, Out> = PikkuFunctionConfig<
  In,
  Out,
  'session' | 'rpc',
  PikkuFunctionSessionless<In, Out, 'session' | 'rpc'>
>

/** A function that needs a session: `wire.session` is typed as present. */
export function pikkuFunc<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuFunctionConfigWithSchema<InputSchema, OutputSchema, 'session' | 'rpc'>,
): SessionConfig<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>>
export function pikkuFunc<In, Out = unknown>(
  func: PikkuFunction<In, Out, 'session' | 'rpc'> | SessionConfig<In, Out>,
): SessionConfig<In, Out>
export function pikkuFunc(func: unknown) {
  return typeof func === 'function' ? { func } : func
}

/** A paginated list function. The inspector counts it as sessionless: it does not require a session. */
export const pikkuListFunc = <F extends Record<string, unknown> = {}, Row = unknown, S extends string = never>(
  config: SessionlessConfig<ListInput<F, S>, ListOutput<Row>>,
): SessionlessConfig<ListInput<F, S>, ListOutput<Row>> => config

/** A function that may run without a session: `wire.session` may be undefined. */
export function pikkuSessionlessFunc<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuFunctionSessionlessConfigWithSchema<InputSchema, OutputSchema, 'session' | 'rpc'>,
): SessionlessConfig<SchemaInferred<InputSchema>, SchemaInferred<OutputSchema>>
export function pikkuSessionlessFunc<In, Out = unknown>(
  func:
    | PikkuFunctionSessionless<In, Out, 'session' | 'rpc'>
    | PikkuFunctionSessionlessConfig<In, Out, 'session' | 'rpc'>,
): SessionlessConfig<In, Out>
export function pikkuSessionlessFunc(func: unknown) {
  return typeof func === 'function' ? { func } : func
}

/** A function with no input and no output, such as a scheduled task. */
export const pikkuVoidFunc = (
  func:
    | PikkuFunctionSessionless<void, void, 'session' | 'rpc'>
    | PikkuFunctionSessionlessConfig<void, void, 'session' | 'rpc'>,
): SessionlessConfig<void, void> => (typeof func === 'function' ? { func } : func)

/** References a registered function by name; calls it through RPC at run time. */
export const ref = <Name extends keyof FlattenedRPCMap>(
  rpcName: Name,
): PikkuFunctionConfig<FlattenedRPCMap[Name]['input'], FlattenedRPCMap[Name]['output'], 'session' | 'rpc'> =>
  ({
    func: async (_services: unknown, data: FlattenedRPCMap[Name]['input'], { rpc }: { rpc: TypedPikkuRPC }) =>
      (rpc.invoke as (name: string, data: unknown) => Promise<unknown>)(rpcName, data),
  }) as unknown as PikkuFunctionConfig<FlattenedRPCMap[Name]['input'], FlattenedRPCMap[Name]['output'], 'session' | 'rpc'>

/** Renders the text an approver reads before an agent's call to a function with `approvalRequired: true` runs. */
export type PikkuApprovalDescription<In = unknown, RequiredServices extends SecretlessServices<Services> = WiredServices> = (
  services: RequiredServices,
  data: In,
) => Promise<string>

export const pikkuApprovalDescription = <
  In = unknown,
  RequiredServices extends SecretlessServices<Services> = WiredServices,
>(
  fn: PikkuApprovalDescription<In, RequiredServices>,
): PikkuApprovalDescription<In, RequiredServices> => fn
