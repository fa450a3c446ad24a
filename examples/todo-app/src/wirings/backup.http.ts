import { wireHTTP } from '#pikku/http'
import { backupTodos } from '../functions/backup.functions.js'

// A function needs a wiring to become a deployment unit of its own; this route is backupTodos's.
wireHTTP({ method: 'post', route: '/todos/backup', func: backupTodos })
