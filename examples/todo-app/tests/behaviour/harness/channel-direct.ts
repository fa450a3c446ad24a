// A channel upgrade run straight through core's runLocalChannel, with no server or socket: the handler it opens (or
// undefined) and the response it wrote to. For tests that need a channel connection without @pikku/ws.
import { randomUUID } from 'node:crypto'
import { runLocalChannel } from '@pikku/core/channel/local'
import { PikkuFetchHTTPRequest, PikkuFetchHTTPResponse } from '@pikku/core/http'

/** An upgrade handed straight to runLocalChannel, as a custom WebSocket adapter does: its handler and the response. */
export const directUpgrade = async (
  path: string,
  headers: Record<string, string> = {},
  options: { skipUserSession?: boolean; respondWith404?: boolean; bubbleErrors?: boolean } = {}
) => {
  const response = new PikkuFetchHTTPResponse()
  const handler = await runLocalChannel({
    ...options,
    channelId: randomUUID(),
    request: new PikkuFetchHTTPRequest(new Request(`http://localhost${path}`, { headers })),
    response,
  })
  return { handler, response }
}
