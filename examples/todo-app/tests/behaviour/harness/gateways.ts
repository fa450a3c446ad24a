// Undoing what a gateway test registered in core's state: the app's global middleware set aside and put back, listener
// and webhook gateways removed with their routes and handler functions.

/** Empties the app's global middleware list, which gateway functions run too; the returned function puts it back. */
export const setAsideGlobalMiddleware = async () => {
  const { pikkuState } = await import('@pikku/core/state')
  const globals = pikkuState(null, 'middleware', 'global') as any[]
  const saved = [...globals]
  globals.splice(0, globals.length)
  return () => void globals.splice(0, globals.length, ...saved)
}

/** Stops `gateways` and removes the listener gateways `names` with their handler functions. */
export const removeListenerGateways = async (gateways: { stop: () => Promise<void> }, names: string[]) => {
  const { pikkuState } = await import('@pikku/core/state')
  await gateways.stop()
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  for (const name of names) {
    pikkuState(null, 'gateway', 'gateways').delete(name)
    delete funcMeta[`gateway__${name}__handler`]
    functions.delete(`gateway__${name}__handler`)
  }
}

/**
 * Undoes what wireGateway registered for a webhook probe: the gateway, its POST (and GET) route, their metadata and
 * functions, and the router's compiled routes.
 */
export const removeWebhookGateway = async (name: string, route: string, funcIds: string[]) => {
  const { httpRouter } = await import('@pikku/core/http')
  const { pikkuState } = await import('@pikku/core/state')
  pikkuState(null, 'gateway', 'gateways').delete(name)
  const routes = pikkuState(null, 'http', 'routes')
  routes.get('post')?.delete(route)
  routes.get('get')?.delete(route)
  delete (pikkuState(null, 'http', 'meta') as any).post[route]
  const funcMeta = pikkuState(null, 'function', 'meta') as any
  const functions = pikkuState(null, 'function', 'functions') as Map<string, unknown>
  for (const id of funcIds) {
    delete funcMeta[id]
    functions.delete(id)
  }
  httpRouter.reset()
}
