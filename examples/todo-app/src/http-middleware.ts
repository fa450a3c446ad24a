import { addHTTPMiddleware, cors } from '#pikku/middleware'
import { requestLogger } from './middleware.js'

// Registered under '*', so it runs for every wireHTTP route (not the Slack gateway's webhook route) and also
// answers CORS preflights for paths that have no OPTIONS route of their own. Wrapped in an exported function, which the generated bootstrap calls.
export const httpMiddleware = () =>
  addHTTPMiddleware('*', [cors({ origin: ['http://localhost:5173'], credentials: true }), requestLogger])
