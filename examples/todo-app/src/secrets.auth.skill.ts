// src/secrets.ts as the auth-middleware skill creates it: the declaration of the JWT signing key alone. The app's
// src/secrets.ts declares it the same way (region jwtSecret) next to its other secrets; keep the two in step.
// #region file
import { z } from 'zod'
import { defineSecret } from '#pikku/secrets'

// The key src/jwt-service.ts signs and checks session tokens with. Without this declaration the CLI reports
// PKU951: the code reads JWT_SECRET, but nothing tells a deployment it has to be provisioned.
export const JwtSecretSchema = z.string().min(32)

defineSecret({
  name: 'jwtSecret',
  displayName: 'Session token signing key',
  description: 'Signs and verifies the HS256 session tokens of src/jwt-service.ts',
  secretId: 'JWT_SECRET',
  schema: JwtSecretSchema,
})
// #endregion file
