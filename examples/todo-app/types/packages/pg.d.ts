// Typed stand-in for the part of `pg` 8.23 (node-postgres) that the kysely skill uses: the Pool, reached through
// the package's default export. `pg` is not installed in this repository.

declare module 'pg' {
  export interface PoolConfig {
    connectionString?: string
    /** Most connections the pool opens. node-postgres defaults to 10. */
    max?: number
  }

  export class Pool {
    constructor(config?: PoolConfig)
    end(): Promise<void>
  }

  const pg: { Pool: typeof Pool }
  export default pg
}
