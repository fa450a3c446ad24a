// Typed stand-in for @pikku/schema-cfworker 0.12.6 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/schema-cfworker/package.json (exports: "." only)
//   packages/services/schema-cfworker/src/index.ts
//   packages/services/schema-cfworker/src/cfworker-json-schema.ts

declare module '@pikku/schema-cfworker' {
  import type { Logger, SchemaService } from '@pikku/core/services'

  /** SchemaService backed by @cfworker/json-schema. */
  export class CFWorkerSchemaService implements SchemaService {
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
