// '@pikku/core/http': since 0.12.85 it also exports the router.
export * from '../../../node_modules/@pikku/core/dist/wirings/http/index.js'
export { httpRouter } from '../../../node_modules/@pikku/core/dist/ecosystem.js'
