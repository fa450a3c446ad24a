// '@pikku/core/function': since 0.12.85 it also owns the function runner, PikkuRequest and the permission group type.
export * from '../../../node_modules/@pikku/core/dist/function/index.js'
export { PikkuRequest } from '../../../node_modules/@pikku/core/dist/index.js'
export { runPikkuFunc } from '../../../node_modules/@pikku/core/dist/ecosystem.js'
export type { CorePermissionGroup } from '../../../node_modules/@pikku/core/dist/index.js'
