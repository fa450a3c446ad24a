import { wireHTTP } from '#pikku/http'
import { announceTodo } from './announce.functions.js'

// #region announceRoute
// The route that makes announceTodo reachable. A function that is neither wired, exposed, nor named in an
// rpc.invoke call somewhere in the project is not registered at run time, so without this wiring a call to it
// would fail with "Function not found: announceTodo".
wireHTTP({ method: 'post', route: '/todos/:todoId/announce', func: announceTodo })
// #endregion announceRoute
