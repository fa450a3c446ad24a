import { wireHTTP } from '#pikku/http'
import { actAsMember, signOut } from '../functions/session.functions.js'

// #region sessionRoutes
wireHTTP({ method: 'post', route: '/session/act-as-member', func: actAsMember })
wireHTTP({ method: 'delete', route: '/session', func: signOut })
// #endregion sessionRoutes
