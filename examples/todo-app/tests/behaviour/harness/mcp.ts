// The to-do app's MCP server started in this process the way src/runtimes/mcp.ts starts it with --http:
// PikkuMCPServer (@pikku/modelcontextprotocol) over .pikku/mcp/mcp.gen.json, streamable HTTP on 127.0.0.1 and a
// free port. Clients are the official MCP SDK client. @modelcontextprotocol/sdk is not a dependency of the app: it
// comes in as the pinned dependency of @pikku/modelcontextprotocol (1.30.0) and npm hoists it, which is why the
// tests can import it.
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuMCPServer } from '@pikku/modelcontextprotocol'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import mcpJSON from '#pikku/mcp/mcp.gen.json' with { type: 'json' }
import { bootApp, type Singletons } from './app.js'
import { freePort } from './services.js'
import { createTestJWT } from './http.js'

export interface RunningMCP {
  /** http://127.0.0.1:<port>/mcp */
  url: string
  server: PikkuMCPServer
  services: Singletons
  /** A bearer token for the user, signed with the app's jwt service (src/jwt-service.ts). */
  tokenFor: (userId: string) => Promise<string>
  /** An MCP SDK client connected over streamable HTTP, with the token as Authorization when given. */
  connect: (token?: string, headers?: Record<string, string>) => Promise<Client>
  stop: () => Promise<void>
}

export const startMCPServer = async (): Promise<RunningMCP> => {
  const jwt = await createTestJWT()
  const { config, services } = await bootApp({ jwt })
  const server = new PikkuMCPServer(
    {
      ...config,
      name: 'todo-app',
      version: '1.0.0',
      mcpJSON,
      capabilities: { logging: {}, tools: {}, resources: {}, prompts: {} },
    },
    services.logger,
  )
  await server.init()
  const port = await freePort()
  const { close, httpServer } = await server.connectHTTP({ port, path: '/mcp' })
  const url = `http://127.0.0.1:${port}/mcp`
  const clients: Client[] = []
  return {
    url,
    server,
    services,
    tokenFor: (userId) => jwt.encode({ value: 1, unit: 'hour' }, { userId }),
    connect: async (token, extraHeaders = {}) => {
      const client = new Client({ name: 'behaviour-suite', version: '1.0.0' })
      const headers: Record<string, string> = token ? { ...extraHeaders, Authorization: `Bearer ${token}` } : extraHeaders
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
      clients.push(client)
      return client
    },
    stop: async () => {
      await Promise.all(clients.map((client) => client.close()))
      httpServer.closeAllConnections()
      // close() closes the listener, then stops the singleton services.
      await close()
    },
  }
}
