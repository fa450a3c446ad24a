// Stand-in for .pikku/pikku-services.gen.ts (packages/cli/src/functions/wirings/functions/pikku-command-services.ts).
// The CLI marks a service required when some function, permission or middleware destructures it. The site's
// samples between them destructure every singleton service the app declares, so this stand-in marks them all
// required. The app declares no wire services, so none is required.
import type { SingletonServices, Services } from '../src/application-types.js'

export type RequiredSingletonServices = Required<SingletonServices>
export type RequiredWireServices = Partial<Services>

// The value half of the manifest, as pikku-command-services.ts writes it: service name → whether anything
// wired destructures it. Listed here for the services the app's samples use, all required as above.
export const requiredSingletonServices = {
  config: true,
  credentialService: true,
  eventHub: true,
  jwt: true,
  logger: true,
  notifier: true,
  queueService: true,
  schema: true,
  secrets: true,
  todoStore: true,
  variables: true,
  workflowService: true,
} as const

export const requiredWireServices = {} as const
