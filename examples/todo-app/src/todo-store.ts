// #region Todo
/** A to-do item, as the store keeps it and as the functions return it. */
export interface Todo {
  todoId: string
  ownerId: string
  title: string
  done: boolean
  dueAt?: string
}
// #endregion Todo

/** The fields a caller may change on an existing to-do. */
export type TodoChanges = Partial<Pick<Todo, 'title' | 'done' | 'dueAt'>>

/**
 * Where to-dos live. Nothing here knows about Pikku, so the store is easy to test and to swap:
 * this in-memory one for the docs and tests, a database-backed one in production.
 */
export interface TodoStore {
  list(ownerId: string): Promise<Todo[]>
  get(todoId: string): Promise<Todo | undefined>
  create(todo: Omit<Todo, 'todoId'>): Promise<Todo>
  /** Applies the changes; undefined when there is no such to-do. */
  update(todoId: string, changes: TodoChanges): Promise<Todo | undefined>
  /** true when a to-do was removed. */
  remove(todoId: string): Promise<boolean>
}

export class InMemoryTodoStore implements TodoStore {
  private readonly todos = new Map<string, Todo>()

  async list(ownerId: string): Promise<Todo[]> {
    return [...this.todos.values()].filter((todo) => todo.ownerId === ownerId)
  }

  async get(todoId: string): Promise<Todo | undefined> {
    return this.todos.get(todoId)
  }

  async create(todo: Omit<Todo, 'todoId'>): Promise<Todo> {
    const created: Todo = { ...todo, todoId: crypto.randomUUID() }
    this.todos.set(created.todoId, created)
    return created
  }

  async update(todoId: string, changes: TodoChanges): Promise<Todo | undefined> {
    const current = this.todos.get(todoId)
    if (!current) return undefined
    const updated: Todo = { ...current, ...changes }
    this.todos.set(todoId, updated)
    return updated
  }

  async remove(todoId: string): Promise<boolean> {
    return this.todos.delete(todoId)
  }
}
