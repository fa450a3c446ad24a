// Typed stand-in for the part of `kysely` 0.29 that the kysely skill uses. `kysely` is not installed in this
// repository. Table types follow Kysely's own model (ColumnType with separate select, insert and update
// types; Selectable, Insertable, Updateable), so a wrong column name or value type fails here as it would
// with the real package. Only the builder methods the docs call are declared.

declare module 'kysely' {
  export type ColumnType<SelectType, InsertType = SelectType, UpdateType = SelectType> = {
    readonly __select__: SelectType
    readonly __insert__: InsertType
    readonly __update__: UpdateType
  }

  type SelectOf<T> = T extends ColumnType<infer S, any, any> ? S : T
  type InsertOf<T> = T extends ColumnType<any, infer I, any> ? I : T
  type UpdateOf<T> = T extends ColumnType<any, any, infer U> ? U : T
  type IfNullable<T, K> = undefined extends T ? K : null extends T ? K : never
  type NullableInsertKeys<R> = { [K in keyof R]: IfNullable<InsertOf<R[K]>, K> }[keyof R]
  type NonNullableInsertKeys<R> = Exclude<keyof R, NullableInsertKeys<R>>

  export type Selectable<R> = { [K in keyof R]: SelectOf<R[K]> }
  export type Insertable<R> = { [K in NonNullableInsertKeys<R>]: InsertOf<R[K]> } & {
    [K in NullableInsertKeys<R>]?: InsertOf<R[K]>
  }
  export type Updateable<R> = { [K in keyof R]?: UpdateOf<R[K]> }

  type ComparisonOperator = '=' | '<>' | '!=' | '<' | '<=' | '>' | '>=' | 'like' | 'is' | 'is not'
  type Column<DB, T extends keyof DB> = keyof DB[T] & string

  export interface InsertResult {
    readonly insertId: bigint | undefined
    readonly numInsertedOrUpdatedRows: bigint | undefined
  }
  export interface UpdateResult {
    readonly numUpdatedRows: bigint
  }
  export interface DeleteResult {
    readonly numDeletedRows: bigint
  }

  interface Executable<O> {
    execute(): Promise<O[]>
    executeTakeFirst(): Promise<O | undefined>
    executeTakeFirstOrThrow(): Promise<O>
  }

  export interface SelectQueryBuilder<DB, T extends keyof DB, O> extends Executable<O> {
    selectAll(): SelectQueryBuilder<DB, T, Selectable<DB[T]>>
    select<C extends Column<DB, T>>(columns: readonly C[]): SelectQueryBuilder<DB, T, Pick<Selectable<DB[T]>, C>>
    where<C extends Column<DB, T>>(
      column: C,
      op: ComparisonOperator,
      value: SelectOf<DB[T][C]>,
    ): SelectQueryBuilder<DB, T, O>
    orderBy(column: Column<DB, T>, direction?: 'asc' | 'desc'): SelectQueryBuilder<DB, T, O>
    limit(limit: number): SelectQueryBuilder<DB, T, O>
  }

  export interface InsertQueryBuilder<DB, T extends keyof DB, O> extends Executable<O> {
    values(row: Insertable<DB[T]>): InsertQueryBuilder<DB, T, O>
    returningAll(): InsertQueryBuilder<DB, T, Selectable<DB[T]>>
  }

  export interface UpdateQueryBuilder<DB, T extends keyof DB, O> extends Executable<O> {
    set(row: Updateable<DB[T]>): UpdateQueryBuilder<DB, T, O>
    where<C extends Column<DB, T>>(
      column: C,
      op: ComparisonOperator,
      value: SelectOf<DB[T][C]>,
    ): UpdateQueryBuilder<DB, T, O>
    returningAll(): UpdateQueryBuilder<DB, T, Selectable<DB[T]>>
  }

  export interface DeleteQueryBuilder<DB, T extends keyof DB, O> extends Executable<O> {
    where<C extends Column<DB, T>>(
      column: C,
      op: ComparisonOperator,
      value: SelectOf<DB[T][C]>,
    ): DeleteQueryBuilder<DB, T, O>
  }

  /** Structural stand-ins: the real interfaces carry driver and query-transform methods. */
  export interface Dialect {
    readonly __dialect: 'kysely-dialect'
  }
  export interface KyselyPlugin {
    readonly __plugin: 'kysely-plugin'
  }

  export interface KyselyConfig {
    dialect: Dialect
    plugins?: KyselyPlugin[]
  }

  export class Kysely<DB> {
    constructor(config: KyselyConfig)
    selectFrom<T extends keyof DB & string>(table: T): SelectQueryBuilder<DB, T, {}>
    insertInto<T extends keyof DB & string>(table: T): InsertQueryBuilder<DB, T, InsertResult>
    updateTable<T extends keyof DB & string>(table: T): UpdateQueryBuilder<DB, T, UpdateResult>
    deleteFrom<T extends keyof DB & string>(table: T): DeleteQueryBuilder<DB, T, DeleteResult>
    /** Closes the dialect's connection pool. */
    destroy(): Promise<void>
  }

  /** The pool is a `pg` Pool (or anything with the same connect method). */
  export class PostgresDialect implements Dialect {
    readonly __dialect: 'kysely-dialect'
    constructor(config: { pool: unknown })
  }

  /** Maps camelCase names in queries and results to snake_case names in the database. */
  export class CamelCasePlugin implements KyselyPlugin {
    readonly __plugin: 'kysely-plugin'
    constructor()
  }
}
