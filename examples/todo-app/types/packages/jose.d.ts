// Typed stand-in for @pikku/jose 0.12.6 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/jose/package.json (exports: "." only)
//   packages/services/jose/src/index.ts
//   packages/services/jose/src/jose-jwt-service.ts

declare module '@pikku/jose' {
  import type { RelativeTimeInput } from '@pikku/core/utils'
  import type { JWTService, Logger } from '@pikku/core/services'

  /** JWTService on the `jose` library; tokens carry the id of the secret that signed them. */
  export class JoseJWTService implements JWTService {
    private getSecrets
    private logger?
    private currentSecret
    private secrets
    /**
     * @param getSecrets - returns the signing secrets; the first one signs new tokens.
     * @param logger - optional logger.
     */
    constructor(getSecrets: () => Promise<Array<{ id: string; value: string }>>, logger?: Logger | undefined)
    /** Loads the secrets; encode and decode also load them on first use. */
    init(): Promise<void>
    encode<T>(expiresIn: RelativeTimeInput, payload: T): Promise<string>
    decode<T>(token: string): Promise<T>
    verify(token: string): Promise<void>
    private getSecret
  }

  export {}
}
