// '@pikku/core/errors': since 0.12.85 it also exports isExpectedError and SerializedError.
export * from '../../../node_modules/@pikku/core/dist/errors/index.js'
export { isExpectedError } from '../../../node_modules/@pikku/core/dist/index.js'
export type { SerializedError } from '../../../node_modules/@pikku/core/dist/index.js'
