import { wireHTTP } from '#pikku/http'
import { ref } from '#pikku/function'

// #region refRoute
// The addon's postToChat wired straight to routes with ref(): one that asks for a session (the default) and one
// that does not (auth: false). In core 0.12.90 both answer 403 while the addon is installed with auth: true, for
// every caller: the route's function resolves into the addon's package, so the app's middleware runs with the addon's
// services, which have no jwt, and no token becomes a session (the ref-route-* tests of addons.test.ts).
// announce.http.ts is the way that works: an app function with a session that calls the addon itself.
wireHTTP({ method: 'post', route: '/chat/post', func: ref('chat:postToChat') })
wireHTTP({ method: 'post', route: '/chat/post-open', auth: false, func: ref('chat:postToChat') })
// #endregion refRoute
