import { wireHTTP } from '#pikku/http'
import { announceTodo } from './announce.functions.js'

// #region announceRoute
// The route that makes announceTodo reachable. The CLI registers a function for run time only when something
// reaches it: a wiring like this one, an rpc.invoke that names it, expose: true, mcp: true and a few more.
// Nothing else reaches announceTodo, so without this wiring a call to it would fail with "Function not found: announceTodo".
wireHTTP({ method: 'post', route: '/todos/:todoId/announce', func: announceTodo })
// #endregion announceRoute
