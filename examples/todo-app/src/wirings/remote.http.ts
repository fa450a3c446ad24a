import { wireHTTP } from '#pikku/http'
import { remindNow } from '../functions/remote.functions.js'

// #region remindRoute
wireHTTP({ method: 'post', route: '/todos/:todoId/remind', func: remindNow })
// #endregion remindRoute
