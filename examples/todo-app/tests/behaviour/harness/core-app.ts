// The to-do app on @pikku/express (harness/app.ts) with the app's own `jwt` service passed in, so tests can sign
// in as a user with a bearer token, the way the global authBearer middleware of src/auth.ts reads it.
import type { UserSession } from '../../../src/application-types.js'
import { startExpressApp, type RunningApp } from './app.js'
import { createTestJWT } from './http.js'

export interface SignedInApp extends RunningApp {
  /** Headers carrying a bearer token for this session. */
  as: (session: UserSession) => Promise<Record<string, string>>
}

export const startSignedInApp = async (): Promise<SignedInApp> => {
  process.env.JWT_SECRET ??= 'behaviour-suite-signing-key-of-32-chars-or-more'
  const jwt = await createTestJWT()
  const app = await startExpressApp({ jwt })
  return {
    ...app,
    as: async (session) => ({
      authorization: `Bearer ${await jwt.encode({ value: 1, unit: 'hour' }, session)}`,
      'content-type': 'application/json',
    }),
  }
}
