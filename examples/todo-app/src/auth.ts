import { addGlobalMiddleware, addHTTPMiddleware } from '#pikku/middleware'
import { authAPIKey, authBearer, authCookie } from '@pikku/core/middleware'

// None of these rejects a call that has no credential: each one looks for its own, turns it into the session
// through the `jwt` service, and calls next(). The function runner rejects session functions called without one.

// #region bearerAuth
// Global middleware runs for every wiring. That reaches HTTP routes, WebSocket upgrades on a server that runs
// channels locally, and MCP calls made over HTTP; MCP calls never run the addHTTPMiddleware groups below. Where a call has no HTTP request (queue jobs,
// scheduled tasks, MCP over stdio), authBearer does nothing.
addGlobalMiddleware([authBearer({})])
// #endregion bearerAuth

// #region httpAuth
// Every wireHTTP route, and every WebSocket upgrade on a server that runs channels locally, also runs the '*' group:
// a browser's session cookie, then a script's API key. The generated bootstrap calls this factory.
export const httpAuth = () =>
  addHTTPMiddleware('*', [
    authCookie({ name: 'todo_session', options: {}, expiresIn: { value: 7, unit: 'day' } }),
    authAPIKey({ source: 'header' }),
  ])
// #endregion httpAuth
