// Runs an entry file of the app (the path relative to the app's folder, first argument) in this process, then prints
// "entry-ready" on stdout: the import resolves only once the file's top level has run to its end, signal handlers
// included, which a served request alone does not show (Fastify answers before its listen() promise resolves).
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { APP_DIR } from './node-process.js'

await import(pathToFileURL(join(APP_DIR, process.argv[2]!)).href)
process.stdout.write('entry-ready\n')
