import { pikkuAuth, pikkuPermission, pikkuPermissionFactory } from '#pikku/auth'
import type { UserSession } from './application-types.js'

// #region hasRole
/** Builds a guard that passes when the caller has the given role. */
export const hasRole = pikkuPermissionFactory<UserSession['role']>((role) =>
  pikkuPermission(async (_services, _data, { session }) => session?.role === role),
)
// #endregion hasRole

// #region isAdmin
/** A check on the caller alone, so an agent can evaluate it, to filter its tools, before any input exists. */
export const isAdmin = pikkuAuth({
  name: 'isAdmin',
  description: 'The caller is an admin',
  func: async (_services, session) => session.role === 'admin',
})
// #endregion isAdmin
