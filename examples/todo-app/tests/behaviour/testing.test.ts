// How the app's unit tests are run (docs/core-features/testing.mdx, docs/core-features/pikku-cli.mdx): Node's own
// test runner started on the app's files and on throwaway test files, each in a child process like `node --test`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { APP_DIR, runNode } from './harness/node-process.js'

/** A folder inside the app (so `@pikku/core` resolves), in the git-ignored .behaviour folder, removed by the caller. */
const scratch = () => mkdtemp(join(APP_DIR, '.behaviour', 'testing-'))

test('plain-node-test-needs-tsx: plain node --test cannot load the app test file, whose .js import specifiers (in its own and in the generated files) name .ts files', async () => {
  const { code, output } = await runNode(['--test', '--test-reporter=tap', 'src/functions/todos.functions.test.ts'])
  assert.notEqual(code, 0, output)
  // The first import Node cannot follow names a .js file, here one of the generated .pikku files, that exists only as .ts
  const missing = /Cannot find module '([^']+)\.js'/.exec(output)
  assert.ok(missing, output)
  assert.ok(existsSync(`${missing[1]}.ts`), `${missing[1]}.ts should exist`)
  // The same file under tsx passes: core#app-unit-tests-pass runs it with `node --import tsx --test`.
  // And plain node --test, given no file, does pick up a .test.ts file: the failure is in loading, not in finding.
  const dir = await scratch()
  try {
    await writeFile(join(dir, 'found.test.ts'), "import { test } from 'node:test'\ntest('found', () => {})\n")
    const found = await runNode(['--test', '--test-reporter=tap'], dir)
    assert.equal(found.code, 0, found.output)
    assert.match(found.output, /^ok 1 - found$/m)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('setup-file-needs-loading: a setup file with a top-level beforeEach runs only when the test process loads it, by --import or by an import in the test file', async () => {
  const dir = await scratch()
  try {
    await writeFile(
      join(dir, 'setup.ts'),
      "import { beforeEach } from 'node:test'\nbeforeEach(() => { console.log('SETUP-HOOK-RAN') })\n",
    )
    await writeFile(join(dir, 'plain.test.ts'), "import { test } from 'node:test'\ntest('one', () => {})\n")
    await writeFile(
      join(dir, 'imports.test.ts'),
      "import './setup.js'\nimport { test } from 'node:test'\ntest('one', () => {})\n",
    )
    const alone = await runNode(['--import', 'tsx', '--test', 'plain.test.ts'], dir)
    assert.equal(alone.code, 0, alone.output)
    assert.doesNotMatch(alone.output, /SETUP-HOOK-RAN/)
    const imported = await runNode(['--import', 'tsx', '--import', './setup.ts', '--test', 'plain.test.ts'], dir)
    assert.equal(imported.code, 0, imported.output)
    assert.match(imported.output, /SETUP-HOOK-RAN/)
    const fromFile = await runNode(['--import', 'tsx', '--test', 'imports.test.ts'], dir)
    assert.equal(fromFile.code, 0, fromFile.output)
    assert.match(fromFile.output, /SETUP-HOOK-RAN/)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('test-files-own-process: under node --test a function one test registers stays for the later tests of its file, cleared or not, but another file does not see it', async () => {
  const dir = await scratch()
  const registry = "(pikkuState(null, 'function', 'functions') as Map<string, unknown>)"
  try {
    await writeFile(
      join(dir, 'a.test.ts'),
      [
        "import { test } from 'node:test'",
        "import assert from 'node:assert/strict'",
        "import { addFunction } from '@pikku/core/function'",
        "import { pikkuState } from '@pikku/core/state'",
        "import { clearPikkuRuntimeState } from '@pikku/core/testing'",
        "test('registers', () => { addFunction('probeFromA', { func: async () => 'a' } as never) })",
        `test('later test, same file', () => { clearPikkuRuntimeState(); assert.equal(${registry}.has('probeFromA'), true) })`,
        '',
      ].join('\n'),
    )
    await writeFile(
      join(dir, 'b.test.ts'),
      [
        "import { test } from 'node:test'",
        "import assert from 'node:assert/strict'",
        "import { pikkuState } from '@pikku/core/state'",
        `test('other file', () => { assert.equal(${registry}.has('probeFromA'), false) })`,
        '',
      ].join('\n'),
    )
    // One file at a time, a before b, so b would see a's registration if the files shared a process.
    const run = await runNode(['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=tap', 'a.test.ts', 'b.test.ts'], dir)
    assert.equal(run.code, 0, run.output)
    assert.match(run.output, /# pass 3/)
    // With the files in one process, the registration leaks into b
    const shared = await runNode(['--import', 'tsx', '--test', '--test-isolation=none', '--test-reporter=tap', 'a.test.ts', 'b.test.ts'], dir)
    assert.notEqual(shared.code, 0, shared.output)
    assert.match(shared.output, /# fail 1/)
    // and the one failure is b's check, not a's tests
    assert.match(shared.output, /^not ok \d+ - other file$/m)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('conformance-secrets-need-kek: the secret service conformance suite assumes an encrypting store: run on core\'s LocalSecretService it passes the read and write cases and fails only the two rotateKEK cases', async () => {
  const dir = await scratch()
  try {
    await writeFile(
      join(dir, 'local-secrets.test.ts'),
      [
        "import { defineServiceTests } from '@pikku/core/testing'",
        "import { LocalSecretService, LocalVariablesService } from '@pikku/core/services'",
        '// One store for every factory call, as a database-backed service would be.',
        'const shared = new LocalSecretService(new LocalVariablesService({}))',
        "defineServiceTests({ name: 'LocalSecretService', services: { secretService: async () => shared } })",
        '',
      ].join('\n'),
    )
    const run = await runNode(['--import', 'tsx', '--test', '--test-reporter=tap', 'local-secrets.test.ts'], dir)
    assert.notEqual(run.code, 0, run.output)
    const failed = [...run.output.matchAll(/^\s*not ok \d+ - (.+)$/gm)].map((m) => m[1]).filter((name) => !name.startsWith('SecretService'))
    assert.deepEqual(failed.sort(), ['rotateKEK re-wraps all secrets', 'rotateKEK throws without previousKey'])
    assert.match(run.output, /^\s*ok \d+ - getSecret throws for missing key$/m)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('scenario-browser-driver-hint: without @pikku/playwright the browser run refuses to start and suggests --no-browser, an option pikku scenario run does not have', async () => {
  // The CLI's own resolver, as `pikku scenario run --run browser` calls it, with the default driver, which this app lacks
  const { resolveScenarioBrowserProvider } = await import(
    join(APP_DIR, 'node_modules', '@pikku', 'cli', 'dist', 'src', 'functions', 'commands', 'scenario-browser.js')
  )
  await assert.rejects(
    resolveScenarioBrowserProvider({
      environment: 'local',
      apiUrl: 'http://localhost:1',
      appUrl: 'http://localhost:1',
      secret: 'unused',
      actors: {},
      browserScenarios: ['aliceFinishesATodo'],
    }),
    /'@pikku\/playwright' could not be loaded\. Run 'yarn add -D @pikku\/playwright @playwright\/test', or run with --no-browser/,
  )
  const help = await runNode([join(APP_DIR, 'node_modules', '@pikku', 'cli', 'dist', 'bin', 'pikku.js'), 'scenario', 'run', '--help'])
  assert.equal(help.code, 0, help.output)
  assert.match(help.output, /--run <value>.*\(default: "default"\) \[choices: default, browser, cli\]/)
  assert.doesNotMatch(help.output, /--no-browser|--browser\b/)
})
