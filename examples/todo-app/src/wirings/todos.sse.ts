import { wireHTTP } from '#pikku/http'
import { streamDueToday, watchTodos } from '../functions/live.functions.js'

// Both routes need a session (the HTTP default), and both are GET: `wireHTTP` types `sse` only on a GET route (a route
// group's routes allow it on any method).
wireHTTP({ method: 'get', route: '/todos/changes', func: watchTodos, sse: true })
wireHTTP({ method: 'get', route: '/todos/due-today', func: streamDueToday, sse: true })
