import type { JWTService, Logger, SecretService } from '@pikku/core/services'
import { JoseJWTService } from '@pikku/jose'

/**
 * The app's `jwt` service: HS256 tokens signed with the JWT_SECRET secret (an environment variable in
 * development, read through the secret service). Pass a logger to log how many keys were loaded; leave it
 * out in scripts whose standard output must hold nothing but their result.
 */
export const createJWTService = async (secrets: SecretService, logger?: Logger): Promise<JWTService> => {
  const jwt = new JoseJWTService(async () => {
    const secret = await secrets.getSecret<string>('JWT_SECRET')
    return [{ id: 'todo-key-1', value: secret.reveal() }]
  }, logger)
  await jwt.init()
  return jwt
}
