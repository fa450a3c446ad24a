// '@pikku/core/state' (new in 0.12.85), on the 0.12.84 ecosystem entry point.
export { pikkuState, resetPikkuState } from '../../../node_modules/@pikku/core/dist/ecosystem.js'
