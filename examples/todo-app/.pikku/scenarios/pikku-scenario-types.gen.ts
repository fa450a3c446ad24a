/**
 * Stand-in for .pikku/scenarios/pikku-scenario-types.gen.ts, which `pikku all` writes for every project with
 * workflows. Modelled on packages/cli/src/functions/wirings/workflow/serialize-scenario-types.ts
 * `serializeScenarioTypes` (cli 0.12.113): the same names, signatures and strictness, the config fields shared with
 * workflows coming from that file's `sharedWorkflowConfigFields`. Differences, each on purpose:
 * - `NodeConfig` is declared here, as in the workflow stand-in: the function stand-in does not declare it.
 * - The runtime bodies are written out as the serializer writes them; the comments are shortened.
 */
import type { PikkuScenarioWire, ScenarioStepOptions } from '@pikku/core/scenario'
import type { PikkuWorkflowWire } from '@pikku/core/workflow'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { NodeType } from '@pikku/core/node'
import { PikkuError } from '@pikku/core/errors'
import type {
  PikkuFunctionSessionless,
  PikkuFunctionConfig,
  WiredServices,
  InferSchemaOutput,
  PikkuApprovalDescription,
} from '../function/pikku-function-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'
import type { TypedWorkflow } from '../workflow/pikku-workflow-types.gen.js'
import type { FlattenedScenarioStepMap } from '../workflow/pikku-scenario-step-map.gen.js'
import type { TypedPersonas } from './pikku-personas.gen.js'

export type { TypedPersonas }

type NodeConfig = {
  displayName: string
  category: string
  type: NodeType
  errorOutput?: boolean
}

/** The scenario test surface from core, re-exported so a step file needs one import specifier. */
export { createCookieJar, createScenarioRunner, pollUntil, requireScenarioEnv } from '@pikku/core/scenario'
export type { PikkuBrowserWire, ScenarioSurface, TestIdSelector } from '@pikku/core/scenario'
export { postScenarioJson, readScenarioHttpResponse } from '@pikku/core/persona'
export type { ScenarioHttpResponse } from '@pikku/core/scenario'

/** `given`, `when` and `then`, narrowed to the step names this project declares with `pikkuScenarioStep`. */
export interface TypedScenarioSteps {
  given<K extends keyof FlattenedScenarioStepMap>(
    stepName: string,
    stepFunc: K,
    data?: FlattenedScenarioStepMap[K]['input'],
    options?: ScenarioStepOptions,
  ): Promise<FlattenedScenarioStepMap[K]['output']>

  when<K extends keyof FlattenedScenarioStepMap>(
    stepName: string,
    stepFunc: K,
    data?: FlattenedScenarioStepMap[K]['input'],
    options?: ScenarioStepOptions,
  ): Promise<FlattenedScenarioStepMap[K]['output']>

  then<K extends keyof FlattenedScenarioStepMap>(
    stepName: string,
    stepFunc: K,
    data?: FlattenedScenarioStepMap[K]['input'],
    options?: ScenarioStepOptions,
  ): Promise<FlattenedScenarioStepMap[K]['output']>
}

/** `Out` types `scenario.context`. */
export type TypedScenario<Out = unknown> = TypedWorkflow &
  Omit<PikkuScenarioWire<Out>, keyof PikkuWorkflowWire | keyof TypedScenarioSteps> &
  TypedScenarioSteps

/** `Ctx` types `scenario.context`, defaulting to the body's own output. */
export type PikkuFunctionScenario<In = unknown, Out = never, Ctx = Out> = PikkuFunctionSessionless<
  In,
  Out,
  'scenario' | 'actors',
  WiredServices,
  Ctx
>

type PikkuScenarioConfigWithSchema<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = {
  title?: string
  description?: string
  tags?: string[]
  expose?: boolean
  internal?: boolean
  override?: string
  version?: number
  remote?: boolean
  mcp?: boolean
  readonly?: boolean
  approvalRequired?: boolean
  approvalDescription?: InputSchema extends StandardSchemaV1
    ? PikkuApprovalDescription<InferSchemaOutput<InputSchema>>
    : never
  middleware?: PikkuMiddleware[]
  input?: InputSchema
  output?: OutputSchema
  node?: NodeConfig
  errors?: Array<typeof PikkuError>
  inline?: boolean
  func: PikkuFunctionScenario<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown
  >
  /** Setup before the body; its result is discarded. Throwing skips the body and fails the run. */
  before?: PikkuScenarioHook<InputSchema, OutputSchema>
  /** Runs after the body whether it passed or failed; reads `scenario.context`. */
  after?: PikkuScenarioHook<InputSchema, OutputSchema>
  /** Why the scenario is left out of a default run; it is reported as skipped. */
  skip?: string
}

/** A scenario hook: the scenario's signature with its result discarded. */
export type PikkuScenarioHook<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = PikkuFunctionScenario<
  InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
  void,
  OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown
>

/** Declares a scenario hook; returns it unchanged. */
export function pikkuScenarioHook<In = unknown, Ctx = unknown>(
  hook: PikkuFunctionScenario<In, void, Ctx>,
): PikkuFunctionScenario<In, void, Ctx> {
  return hook
}

/** A scenario: a complex workflow whose steps run as actors over the real transport. */
export function pikkuScenario<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuScenarioConfigWithSchema<InputSchema, OutputSchema>,
): PikkuFunctionConfig<
  InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
  OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
  'scenario' | 'actors',
  PikkuFunctionScenario<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown
  >,
  InputSchema,
  OutputSchema
>
export function pikkuScenario<In, Out = unknown>(
  func:
    | PikkuFunctionScenario<In, Out>
    | PikkuFunctionConfig<In, Out, 'scenario' | 'actors', PikkuFunctionScenario<In, Out>>,
): PikkuFunctionConfig<In, Out, 'scenario' | 'actors'>
export function pikkuScenario(func: any) {
  return typeof func === 'function' ? { func } : func
}

/** A scenario as a feature references it. */
export type PikkuScenarioRef<In = any, Out = any> = PikkuFunctionConfig<
  In,
  Out,
  'scenario' | 'actors',
  PikkuFunctionScenario<In, Out>,
  any,
  any
>

/** One entry of a feature's `scenarios`: a scenario, or a scenario paired with its input. */
export type PikkuFeatureEntry<Entry> = Entry extends {
  scenario: PikkuScenarioRef<infer In>
}
  ? { scenario: PikkuScenarioRef<In>; data: In }
  : Entry extends PikkuScenarioRef
    ? Entry
    : never

type PikkuFeatureConfig<Scenarios extends readonly unknown[]> = {
  name: string
  description?: string
  tags?: string[]
  scenarios: { [K in keyof Scenarios]: PikkuFeatureEntry<Scenarios[K]> }
  /** Runs once before the whole group. */
  before?: PikkuScenarioHook
  after?: PikkuScenarioHook
}

/** A feature: an ordered group of scenarios. */
export function pikkuFeature<const Scenarios extends readonly unknown[]>(
  config: PikkuFeatureConfig<Scenarios>,
): PikkuFeatureConfig<Scenarios> {
  return config
}

/** One surface's implementation of a step. */
export type PikkuFunctionScenarioStep<
  In = unknown,
  Out = never,
  Surface extends 'browser' | 'cli' | 'default' = 'default',
  HasActor extends boolean = false,
> = PikkuFunctionSessionless<
  In,
  Out,
  'scenarioStep' | (Surface extends 'default' ? never : Surface) | (HasActor extends true ? 'actor' : never)
>

type PikkuScenarioStepConfigWithSchema<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
  HasActor extends boolean = false,
> = {
  /** The name `scenario.given()` references. */
  name: string
  /** Driven by a persona: `wire.actor` is required inside every binding, and the runner refuses a call without one. */
  actor?: HasActor
  description?: string
  /** The prose a report renders, with `{placeholders}` filled from the step's input. */
  template?: string
  title?: string
  tags?: string[]
  input?: InputSchema
  output?: OutputSchema
  errors?: Array<typeof PikkuError>
  /** Drives the step through a real browser, opened as the step's actor. */
  browser?: PikkuFunctionScenarioStep<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'browser',
    true
  >
  /** Drives the step remotely, over the websocket. */
  cli?: PikkuFunctionScenarioStep<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'cli',
    HasActor
  >
  /** The server-side path; on a `then`, a second witness that must agree with the others. */
  default?: PikkuFunctionScenarioStep<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'default',
    HasActor
  >
}

type PikkuScenarioStepConfig<In, Out, HasActor extends boolean = false> = Omit<
  PikkuScenarioStepConfigWithSchema<undefined, undefined, HasActor>,
  'browser' | 'cli' | 'default' | 'input' | 'output'
> & {
  browser?: PikkuFunctionScenarioStep<In, Out, 'browser', true>
  cli?: PikkuFunctionScenarioStep<In, Out, 'cli', HasActor>
  default?: PikkuFunctionScenarioStep<In, Out, 'default', HasActor>
}

type StepConfigResult<
  InputSchema extends StandardSchemaV1 | undefined,
  OutputSchema extends StandardSchemaV1 | undefined,
> = PikkuFunctionConfig<
  InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
  OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
  'scenarioStep' | 'browser' | 'cli',
  PikkuFunctionScenarioStep<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'browser' | 'cli' | 'default'
  >,
  InputSchema,
  OutputSchema
>

/** A named, reusable scenario step, with one implementation per surface an actor can drive it through. */
export function pikkuScenarioStep<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuScenarioStepConfigWithSchema<InputSchema, OutputSchema, true> & { actor: true },
): StepConfigResult<InputSchema, OutputSchema>
export function pikkuScenarioStep<In, Out = unknown>(
  config: PikkuScenarioStepConfig<In, Out, true> & { actor: true },
): PikkuFunctionConfig<In, Out, 'scenarioStep' | 'browser' | 'cli'>
export function pikkuScenarioStep<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuScenarioStepConfigWithSchema<InputSchema, OutputSchema, true> & { browser: {} },
): StepConfigResult<InputSchema, OutputSchema>
export function pikkuScenarioStep<In, Out = unknown>(
  config: PikkuScenarioStepConfig<In, Out, true> & { browser: {} },
): PikkuFunctionConfig<In, Out, 'scenarioStep' | 'browser' | 'cli'>
export function pikkuScenarioStep<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(config: PikkuScenarioStepConfigWithSchema<InputSchema, OutputSchema>): StepConfigResult<InputSchema, OutputSchema>
export function pikkuScenarioStep<In, Out = unknown>(
  config: PikkuScenarioStepConfig<In, Out>,
): PikkuFunctionConfig<In, Out, 'scenarioStep' | 'browser' | 'cli'>
export function pikkuScenarioStep(config: any) {
  const surfaces = (['browser', 'cli', 'default'] as const).filter((surface) => typeof config[surface] === 'function')
  if (surfaces.length === 0) {
    throw new Error(
      `[scenario] step '${config.name}' declares no surface bindings. Add at least a \`default\` (server-side) implementation.`,
    )
  }
  return {
    ...config,
    surfaces,
    requiresActor: config.actor === true || surfaces.includes('browser'),
    func: (services: any, data: any, wire: any) => {
      const surface = wire?.scenarioStep?.surface ?? 'default'
      const binding = config[surface] ?? config.default
      return binding(services, data, wire)
    },
  }
}

type PikkuSubjectScenarioStepConfigWithSchema<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
> = Omit<PikkuScenarioStepConfigWithSchema<InputSchema, OutputSchema>, 'browser' | 'cli' | 'default' | 'actor'> & {
  func: PikkuFunctionScenarioStep<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'default'
  >
}

type PikkuSubjectScenarioStepConfig<In, Out> = Omit<
  PikkuScenarioStepConfig<In, Out>,
  'browser' | 'cli' | 'default' | 'actor'
> & {
  func: PikkuFunctionScenarioStep<In, Out, 'default'>
}

type SubjectStepConfigResult<
  InputSchema extends StandardSchemaV1 | undefined,
  OutputSchema extends StandardSchemaV1 | undefined,
> = PikkuFunctionConfig<
  InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
  OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
  'scenarioStep',
  PikkuFunctionScenarioStep<
    InputSchema extends StandardSchemaV1 ? InferSchemaOutput<InputSchema> : unknown,
    OutputSchema extends StandardSchemaV1 ? InferSchemaOutput<OutputSchema> : unknown,
    'default'
  >,
  InputSchema,
  OutputSchema
>

/** A step in which the app acts on itself. Local tests only. */
export function pikkuPlatformScenarioStep<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuSubjectScenarioStepConfigWithSchema<InputSchema, OutputSchema>,
): SubjectStepConfigResult<InputSchema, OutputSchema>
export function pikkuPlatformScenarioStep<In, Out = unknown>(
  config: PikkuSubjectScenarioStepConfig<In, Out>,
): PikkuFunctionConfig<In, Out, 'scenarioStep'>
export function pikkuPlatformScenarioStep(config: any) {
  return { ...config, surfaces: ['default'] }
}

/** A step in which a third-party system, wrapped by the named addon, acts. Local tests only. */
export function pikkuAddonScenarioStep<
  InputSchema extends StandardSchemaV1 | undefined = undefined,
  OutputSchema extends StandardSchemaV1 | undefined = undefined,
>(
  config: PikkuSubjectScenarioStepConfigWithSchema<InputSchema, OutputSchema> & { addon: string },
): SubjectStepConfigResult<InputSchema, OutputSchema>
export function pikkuAddonScenarioStep<In, Out = unknown>(
  config: PikkuSubjectScenarioStepConfig<In, Out> & { addon: string },
): PikkuFunctionConfig<In, Out, 'scenarioStep'>
export function pikkuAddonScenarioStep(config: any) {
  return { ...config, surfaces: ['default'] }
}
