// The to-do app's MCP tools, resources and prompts for AI agents, over stdio or HTTP (@pikku/modelcontextprotocol).
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuMCPServer } from '@pikku/modelcontextprotocol'
import mcpJSON from '#pikku/mcp/mcp.gen.json' with { type: 'json' }
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'

const config = await createConfig()
const singletonServices = await createSingletonServices(config)

const server = new PikkuMCPServer(
  {
    ...config,
    name: 'todo-app',
    version: '1.0.0',
    mcpJSON,
    capabilities: { logging: {}, tools: {}, resources: {}, prompts: {} },
  },
  singletonServices.logger,
)
// Loads the descriptor and the metadata of the capabilities switched on above.
await server.init()

// #region transport
if (process.argv.includes('--http')) {
  // Streamable HTTP for agents that connect to a URL. Binds to 127.0.0.1 unless told otherwise.
  const { close } = await server.connectHTTP({ port: Number(process.env.MCP_PORT ?? 3001), path: '/mcp' })
  process.on('SIGINT', async () => {
    await close()
    process.exit(0)
  })
} else {
  await server.connectStdio()
  // stdout now carries the protocol: from here on, logs go to the client as MCP log messages.
  singletonServices.logger = server.createMCPLogger()
}
// #endregion transport
