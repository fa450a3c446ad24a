// One deployment of the to-do app that takes part in remote RPC through Redis: it registers itself and its functions
// so that other deployments can reach them with rpc.remote, and it can call theirs. Run one per deployment, each with
// its own DEPLOYMENT_ID and PUBLIC_URL and the same REDIS_URL and PIKKU_REMOTE_SECRET.
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuExpressServer } from '@pikku/express'
import { RedisDeploymentService } from '@pikku/redis'
import { LocalSecretService, LocalVariablesService } from '@pikku/core/services'
import { stopSingletonServices } from '@pikku/core/utils'
import { createConfig } from '../config.js'
import { createJWTService } from '../jwt-service.js'
import { createSingletonServices } from '../services.js'

// #region deploymentService
const config = await createConfig()

// Calls are signed with the app's jwt service and carry the session encrypted with the PIKKU_REMOTE_SECRET secret,
// so both exist before the deployment service.
const secrets = new LocalSecretService(new LocalVariablesService())
const jwt = await createJWTService(secrets)
const deploymentService = new RedisDeploymentService(
  { heartbeatInterval: 5_000, heartbeatTtl: 15_000 },
  process.env.REDIS_URL ?? 'redis://localhost:6379',
  'pikku',
  jwt,
  secrets,
)
await deploymentService.init()

// Handing both in makes them part of the singleton services: rpc.remote reads deploymentService from there.
const { logger } = await createSingletonServices(config, { jwt, deploymentService })
// #endregion deploymentService

// #region register
const server = new PikkuExpressServer({ ...config, hostname: process.env.HOST ?? 'localhost' }, logger)
await server.init()
await server.start()

// Register only once the server answers, under the URL other deployments can reach it on.
await deploymentService.start({
  deploymentId: process.env.DEPLOYMENT_ID ?? `todo-app-${config.port}`,
  endpoint: process.env.PUBLIC_URL ?? `http://localhost:${config.port}`,
})

process.on('SIGTERM', async () => {
  // Deregister first, so that no caller picks a deployment that is going away.
  await deploymentService.stop()
  await server.stop()
  await stopSingletonServices()
  process.exit(0)
})
// #endregion register
