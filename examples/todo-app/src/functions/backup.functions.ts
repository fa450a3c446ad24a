import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pikkuFunc } from '#pikku/function'

// #region backupTodos
/**
 * Writes the caller's to-dos to a JSON file on the machine that runs it. A serverless function has no disk that
 * outlives the call, so `deploy: 'server'` sends this one to the server container when `pikku deploy` splits the app.
 */
export const backupTodos = pikkuFunc<void, { file: string; count: number }>({
  description: "Save a copy of the caller's to-dos as a JSON file on the server",
  deploy: 'server',
  func: async ({ todoStore, variables }, _data, { session }) => {
    const todos = await todoStore.list(session.userId)
    const dir = (await variables.get('BACKUP_DIR')) ?? './backups'
    await mkdir(dir, { recursive: true })
    const file = join(dir, `todos-${session.userId}-${Date.now()}.json`)
    await writeFile(file, JSON.stringify(todos, null, 2))
    return { file, count: todos.length }
  },
})
// #endregion backupTodos
