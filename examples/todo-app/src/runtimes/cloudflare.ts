// The to-do API and its daily digest on a Cloudflare Worker (@pikku/cloudflare).
import '#pikku/pikku-bootstrap.gen.js'
import { runFetch, runScheduled } from '@pikku/cloudflare'
import { CFWorkerSchemaService } from '@pikku/schema-cfworker'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

// Worker variables, secrets (.dev.vars, `wrangler secret put`) and bindings arrive as env on every call.
type Env = Record<string, unknown>

let ready: ReturnType<typeof createSingletonServices> | undefined

// #region setup
// Built on the first call an isolate receives, then reused by the calls that follow.
const setup = (env: Env) => {
  ready ??= (async () => {
    // src/config.ts and src/services.ts read process.env, as they do on Node.js: copy the Worker's
    // string variables and secrets into it first (the nodejs_compat flag provides `process`).
    for (const [key, value] of Object.entries(env)) {
      if (typeof value === 'string') process.env[key] = value
    }
    const config = await createConfig()
    const services = await createSingletonServices(config)
    // Ajv compiles validators into code at run time, which Workers refuse. This validator needs no code
    // generation. The object is the one Pikku registered, so every function sees the swap.
    services.schema = new CFWorkerSchemaService(services.logger)
    return services
  })()
  return ready
}
// #endregion setup

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    await setup(env)
    return runFetch(request)
  },

  // Runs the registered task whose schedule equals the cron trigger that fired.
  async scheduled(controller: Parameters<typeof runScheduled>[0], env: Env): Promise<void> {
    await setup(env)
    await runScheduled(controller)
  },
}
