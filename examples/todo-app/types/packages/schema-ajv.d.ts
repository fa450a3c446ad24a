// Typed stand-in for @pikku/schema-ajv 0.12.6 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/schema-ajv/package.json (exports: "." only)
//   packages/services/schema-ajv/src/index.ts
//   packages/services/schema-ajv/src/ajv-schema-service.ts

declare module '@pikku/schema-ajv' {
  import type { Logger, SchemaService } from '@pikku/core/services'

  /** SchemaService backed by Ajv (with ajv-formats). */
  export class AjvSchemaService implements SchemaService {
    private logger
    private validators
    private schemas
    constructor(logger: Logger)
    compileSchema(schema: string, value: any): void
    validateSchema(schemaName: string, json: any): void
    getSchemaNames(): Set<string>
    getSchemaKeys(schemaName: string): string[]
  }

  export {}
}
