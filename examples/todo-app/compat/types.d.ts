// '@pikku/core/types' (new in 0.12.85): the app's base types, on the 0.12.84 root and ecosystem entry points.
export type {
  CoreConfig,
  CoreServices,
  CoreSingletonServices,
  CoreUserSession,
  CreateConfig,
  PikkuWire,
  PikkuWiringTypes,
  SecretlessServices,
  ServerLifecycle,
} from '../../../node_modules/@pikku/core/dist/index.js'
export type { CreateSingletonServices, CreateWireServices } from '../../../node_modules/@pikku/core/dist/ecosystem.js'
