// src/runtimes/ws.ts's setup in a process of its own, for the behaviour that ends the process: @pikku/ws with no
// 'error' listener on its sockets (startWsApp with guardSocketErrors false). Prints {"port":…} on stdout once it
// listens. The test that spawns it kills it if it is still running.
import { startWsApp } from './channels.js'

const app = await startWsApp({ guardSocketErrors: false })
process.stdout.write(`${JSON.stringify({ port: Number(new URL(app.url).port) })}\n`)
