import { defineHTTPRoutes } from '#pikku/addon/http'
import { postToChat } from './notify.functions.js'

// #region notifyRoutes
// A contract, not a wiring: the app that installs the addon decides whether and where to mount it,
// and adds its own middleware there.
export const notifyRoutes = defineHTTPRoutes({
  basePath: '/notify',
  routes: {
    post: { method: 'post', route: '/messages', func: postToChat },
  },
})
// #endregion notifyRoutes
