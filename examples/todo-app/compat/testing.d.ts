// '@pikku/core/testing': since 0.12.85 it also exports clearPikkuRuntimeState.
export * from '../../../node_modules/@pikku/core/dist/testing/index.js'
export { clearPikkuRuntimeState } from '../../../node_modules/@pikku/core/dist/index.js'
