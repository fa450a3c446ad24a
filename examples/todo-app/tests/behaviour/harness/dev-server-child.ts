// The server that pikku dev and pikku serve start on Node.js (NodeServerRunner from @pikku/cli: @pikku/node-http-server
// with @pikku/ws and a ws WebSocketServer capped at DEFAULT_WS_MAX_PAYLOAD), over the to-do app, in a process of its
// own, for the behaviour that ends the process. Prints {"port":…} on stdout once it listens. The test that spawns it
// kills it if it is still running.
import '#pikku/pikku-bootstrap.gen.js'
import { NodeServerRunner } from '../../../node_modules/@pikku/cli/dist/src/server/node-server-runner.js'
import { bootApp } from './app.js'
import { createTestJWT } from './http.js'
import { freePort } from './services.js'

const port = await freePort()
const { config, services } = await bootApp({ jwt: await createTestJWT() }, port)
const server = new NodeServerRunner().createServer({ ...config, port, hostname: '127.0.0.1' }, services.logger)
await server.init()
await server.start()
process.stdout.write(`${JSON.stringify({ port })}\n`)
