// Signed sessions for the HTTP behaviour tests: the app's own `jwt` service (src/jwt-service.ts) over a test key,
// handed to startExpressApp / startFastifyApp as an extra singleton service. pikkuServices merges the extra services
// under the ones src/services.ts creates, so authBearer (src/auth.ts) decodes these tokens into the session.
import { LocalSecretService, LocalVariablesService, type JWTService } from '@pikku/core/services'
import { JoseJWTService } from '@pikku/jose'
import { createJWTService } from '../../../src/jwt-service.js'

export const createTestJWT = (): Promise<JWTService> =>
  createJWTService(new LocalSecretService(new LocalVariablesService({ JWT_SECRET: 'behaviour-suite-key-0123456789abcdef' })))

/** A token for the session, signed with a key the app does not hold (the same kid, another secret). */
export const forgedToken = (session: object) =>
  new JoseJWTService(async () => [{ id: 'todo-key-1', value: 'a-different-secret-of-at-least-32-chars' }]).encode(
    { value: 1, unit: 'hour' },
    session,
  )

/** An `Authorization: Bearer …` header carrying the session { userId, role }. */
export const bearer = async (jwt: JWTService, userId: string, role: 'member' | 'admin' = 'member') => ({
  authorization: `Bearer ${await jwt.encode({ value: 1, unit: 'hour' }, { userId, role })}`,
})
