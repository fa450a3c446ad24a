// The current bare '@pikku/core' (packages/core/src/bootstrap-compat/root.ts): type-only names, no values.
export type { PikkuWire, SecretlessServices, CorePikkuMiddleware, PickRequired, CorePermissionGroup } from '../../../node_modules/@pikku/core/dist/index.js'
export type { ListInput, ListOutput, SecretService } from '../../../node_modules/@pikku/core/dist/index.js'
