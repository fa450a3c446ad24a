// Lets Node.js load @pikku/cloudflare. Its root module re-exports the handler factories, which import
// `cloudflare:workers`, a module only the Workers runtime provides. The to-do app's entry (src/runtimes/cloudflare.ts)
// uses runFetch and runScheduled, not those factories, so an empty stand-in for that one module is enough.
import { registerHooks } from 'node:module'

const STAND_IN = 'data:text/javascript,export class WorkerEntrypoint {}; export class DurableObject {}'

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'cloudflare:workers') return { url: STAND_IN, shortCircuit: true }
    return nextResolve(specifier, context)
  },
})
