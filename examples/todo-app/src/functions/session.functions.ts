import { pikkuFunc } from '#pikku/function'
import { isAdmin } from '../roles.js'

// The app leaves signing in to its auth middleware (a token or cookie issued elsewhere). These two change the
// session of a signed-in caller; with authCookie on the route, the new session reaches the browser as a cookie.

// #region actAsMember
/** An admin continues the session with the member role, to see the app as a member does. */
export const actAsMember = pikkuFunc<void, { role: 'member' }>({
  description: 'An admin continues the session with the member role',
  permissions: { isAdmin },
  func: async (_services, _data, { session, setSession }) => {
    await setSession?.({ ...session, role: 'member' })
    return { role: 'member' }
  },
})
// #endregion actAsMember

// #region signOut
/** Ends the session. authCookie then clears the cookie. */
export const signOut = pikkuFunc<void, void>({
  description: 'End the current session',
  func: async ({ logger }, _data, { session, clearSession }) => {
    logger.info(`signing out ${session.userId}`)
    await clearSession?.()
  },
})
// #endregion signOut
