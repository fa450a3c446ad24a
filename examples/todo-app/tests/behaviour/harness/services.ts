// Real Redis and PostgreSQL for the behaviour suite: Debian's redis-server and postgresql, each started on a free
// port in a temporary folder of its own, and stopped (folder removed) by the returned stop().
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { runTempDir } from './temp.js'

export interface RunningService {
  host: string
  port: number
  /** A connection URL (redis://… or postgres://…). */
  url: string
  stop: () => Promise<void>
}

/** A TCP port that nothing listens on at the moment of asking. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })

/** Resolves once something accepts TCP connections on the port, or rejects after timeoutMs. */
const waitForPort = async (port: number, timeoutMs: number, exited: () => string | undefined): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const why = exited()
    if (why) throw new Error(why)
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port })
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`)
}

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

const need = (command: string, pkg: string): string => {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim()
  if (!found) throw new Error(`${command} is not installed: the behaviour suite needs Debian's ${pkg} package`)
  return found
}

export const startRedis = async (): Promise<RunningService> => {
  const bin = need('redis-server', 'redis-server')
  const dir = runTempDir('redis')
  const port = await freePort()
  let output = ''
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = () => (child.exitCode !== null ? `redis-server exited with ${child.exitCode}:\n${output}` : undefined)
  try {
    await waitForPort(port, 15_000, exited)
  } catch (error) {
    await stopChild(child)
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    host: '127.0.0.1',
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      await stopChild(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Debian keeps PostgreSQL's programs in /usr/lib/postgresql/<major>/bin, off PATH. */
const postgresBin = (): string => {
  const root = '/usr/lib/postgresql'
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))) : []
  if (majors.length) return join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin')
  const initdb = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim()
  if (initdb) return join(initdb, '..')
  throw new Error("initdb is not installed: the behaviour suite needs Debian's postgresql package")
}

export const startPostgres = async (): Promise<RunningService> => {
  const bin = postgresBin()
  const dir = runTempDir('postgres')
  const data = join(dir, 'data')
  // initdb refuses to run as root: as root, the cluster belongs to the package's postgres user.
  const asRoot = userInfo().uid === 0
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
    if (ids.status !== 0) throw new Error('running as root needs the postgres user that Debian\'s postgresql package creates')
    chownSync(dir, Number(ids.stdout), Number(gid.stdout))
  }
  const run = (program: string, args: string[]) => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args]
    return spawnSync(command, argv as string[], { encoding: 'utf8' })
  }
  const init = run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`)
  }
  const port = await freePort()
  // postgres itself (not pg_ctl), so that the child is the server and stop() can wait for its exit.
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off']
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, 'postgres'), ...args]] : [join(bin, 'postgres'), args]
  let output = ''
  const child = spawn(command, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = () => (child.exitCode !== null ? `postgres exited with ${child.exitCode}:\n${output}` : undefined)
  const stop = async () => {
    await stopChild(child)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForPort(port, 30_000, exited)
    // Accepting TCP is not yet accepting queries: wait for the server to say so.
    const deadline = Date.now() + 30_000
    while (!/ready to accept connections/.test(output)) {
      if (exited()) throw new Error(exited())
      if (Date.now() > deadline) throw new Error(`postgres did not become ready:\n${output}`)
      await new Promise((resolve) => child.stderr!.once('data', resolve))
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { host: '127.0.0.1', port, url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop }
}

/** An in-memory node:sqlite database in the shape Kysely's SqliteDialect expects. */
export const sqliteDatabase = async (options: { enableForeignKeyConstraints?: boolean } = {}) => {
  const { DatabaseSync } = await import('node:sqlite')
  const database = new DatabaseSync(':memory:', options)
  return {
    close: () => database.close(),
    prepare: (text: string) => {
      const statement = database.prepare(text)
      return {
        reader: statement.columns().length > 0,
        all: (parameters: ReadonlyArray<unknown>) => statement.all(...(parameters as never[])),
        run: (parameters: ReadonlyArray<unknown>) => statement.run(...(parameters as never[])),
        iterate: (parameters: ReadonlyArray<unknown>) => statement.iterate(...(parameters as never[])),
      }
    },
  }
}
