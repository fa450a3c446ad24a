import { wireHTTP } from '#pikku/http'
import { streamDueToday, watchTodos } from '../functions/live.functions.js'

// Both routes need a session (the HTTP default), and both are GET: `sse` is only allowed there.
wireHTTP({ method: 'get', route: '/todos/changes', func: watchTodos, sse: true })
wireHTTP({ method: 'get', route: '/todos/due-today', func: streamDueToday, sse: true })
