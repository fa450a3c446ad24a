import { ConflictError } from '#pikku/error'
import { CamelCasePlugin, Kysely, PostgresDialect, type Selectable } from 'kysely'
import pg from 'pg'
import type { DB, Todos } from './kysely-db.js'
import type { Todo, TodoChanges, TodoStore } from './todo-store.js'

// #region connect
/** One Kysely instance per process: it owns the connection pool. */
export const createKyselyDB = (connectionString: string): Kysely<DB> =>
  new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 10 }) }),
    // ownerId in TypeScript, owner_id in the database, both ways.
    plugins: [new CamelCasePlugin()],
  })
// #endregion connect

const toTodo = (row: Selectable<Todos>): Todo => ({
  todoId: row.todoId,
  ownerId: row.ownerId,
  title: row.title,
  done: row.done,
  dueAt: row.dueAt?.toISOString(),
})

/** PostgreSQL's code for a unique-constraint violation. */
const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505'

// #region store
/** The TodoStore on PostgreSQL. The functions do not change: they only see the TodoStore interface. */
export class KyselyTodoStore implements TodoStore {
  constructor(private readonly db: Kysely<DB>) {}

  async list(ownerId: string): Promise<Todo[]> {
    const rows = await this.db.selectFrom('todos').selectAll().where('ownerId', '=', ownerId).orderBy('createdAt').execute()
    return rows.map(toTodo)
  }

  async get(todoId: string): Promise<Todo | undefined> {
    const row = await this.db.selectFrom('todos').selectAll().where('todoId', '=', todoId).executeTakeFirst()
    return row ? toTodo(row) : undefined
  }

  async create({ ownerId, title, done, dueAt }: Omit<Todo, 'todoId'>): Promise<Todo> {
    try {
      const row = await this.db
        .insertInto('todos')
        .values({ ownerId, title, done, dueAt: dueAt ?? null })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toTodo(row)
    } catch (error) {
      // The table has unique (owner_id, title): a second to-do with the same title is the caller's mistake.
      if (isUniqueViolation(error)) throw new ConflictError(`You already have a to-do called "${title}"`)
      throw error
    }
  }

  async update(todoId: string, changes: TodoChanges): Promise<Todo | undefined> {
    // An UPDATE needs at least one column to set.
    if (Object.keys(changes).length === 0) return this.get(todoId)
    const row = await this.db
      .updateTable('todos')
      .set(changes)
      .where('todoId', '=', todoId)
      .returningAll()
      .executeTakeFirst()
    return row ? toTodo(row) : undefined
  }

  async remove(todoId: string): Promise<boolean> {
    const [result] = await this.db.deleteFrom('todos').where('todoId', '=', todoId).execute()
    return (result?.numDeletedRows ?? 0n) > 0n
  }

  /** Called by stopSingletonServices() on shutdown: closes the pool. */
  async stop(): Promise<void> {
    await this.db.destroy()
  }
}
// #endregion store
