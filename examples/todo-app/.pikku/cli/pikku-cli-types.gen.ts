/**
 * Stand-in for .pikku/cli/pikku-cli-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/cli/serialize-cli-types.ts (cli 0.12.113).
 */
import { defineCLICommands as defineCLICommandsCore, wireCLI as wireCLICore } from '@pikku/core/cli'
import type { CoreCLI, CoreCLICommandConfig, CorePikkuCLIRender } from '@pikku/core/cli'
import type { PikkuFunctionConfig, Session, SingletonServices } from '../function/pikku-function-types.gen.js'
import type { PikkuMiddleware } from '../middleware/pikku-middleware-types.gen.js'

type PikkuCLIRender<Data, RequiredServices extends SingletonServices = SingletonServices> = CorePikkuCLIRender<
  Data,
  RequiredServices,
  Session
>

/** Renders a command's output for the terminal instead of printing it as JSON. */
export const pikkuCLIRender = <Data, RequiredServices extends SingletonServices = SingletonServices>(
  render: (services: SingletonServices, data: Data) => void | Promise<void>,
): PikkuCLIRender<Data, RequiredServices> => render as unknown as PikkuCLIRender<Data, RequiredServices>

type Commands = Record<string, CoreCLICommandConfig<any, PikkuMiddleware, PikkuCLIRender<any>, any>>

export const wireCLI = <C extends Commands, GlobalOptions>(cli: CoreCLI<C, GlobalOptions, PikkuMiddleware, PikkuCLIRender<any>>): void => {
  wireCLICore(cli as never)
}

export const pikkuCLICommand = <
  FuncConfig extends PikkuFunctionConfig<any, any, 'cli' | 'rpc' | 'session'>,
  Params extends string,
>(
  config: CoreCLICommandConfig<FuncConfig, PikkuMiddleware, PikkuCLIRender<any>, Params>,
): CoreCLICommandConfig<FuncConfig, PikkuMiddleware, PikkuCLIRender<any>, string> =>
  config as unknown as CoreCLICommandConfig<FuncConfig, PikkuMiddleware, PikkuCLIRender<any>, string>

export const defineCLICommands = <T extends Commands>(commands: T): T => defineCLICommandsCore(commands as never) as T
