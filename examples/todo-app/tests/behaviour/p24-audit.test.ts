// Sentences of docs/cli.mdx checked by the P24 audit, run in-process on the vendored CLI (@pikku/cli 0.12.113): the
// filter parser that `pikku all` builds its filters with (parseCLIFilters, called by createConfig in services.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { APP_DIR } from './harness/node-process.js'

const CLI_DIST = join(APP_DIR, 'node_modules', '@pikku', 'cli', 'dist')

test('filter-unknown-name-refused: --filter with a name namedFilters does not hold, or with no namedFilters at all, stops the start with "Unknown --filter"; a known name is applied', async () => {
  const { parseCLIFilters } = await import(join(CLI_DIST, 'src', 'utils', 'parse-cli-filters.js'))
  const config = { namedFilters: { public: { tags: ['public'] } } }
  assert.throws(() => parseCLIFilters({ filter: ['pubic'] }, config), { message: "Unknown --filter 'pubic'. Available filters: public" })
  assert.throws(() => parseCLIFilters({ filter: ['public'] }, {}), { message: "Unknown --filter 'public'. No named filters configured in pikku.config.json" })
  assert.deepEqual(parseCLIFilters({ filter: ['public'] }, config).tags, ['public'])
})

test('filter-target-values: --target and --excludeTarget take only serverless or server; any other value stops the start with "Invalid --target value(s)" or "Invalid --exclude-target value(s)"', async () => {
  const { parseCLIFilters } = await import(join(CLI_DIST, 'src', 'utils', 'parse-cli-filters.js'))
  assert.throws(() => parseCLIFilters({ target: ['lambda'] }, {}), { message: "Invalid --target value(s): [lambda]. Allowed: 'serverless', 'server'." })
  assert.throws(() => parseCLIFilters({ excludeTarget: ['edge'] }, {}), { message: "Invalid --exclude-target value(s): [edge]. Allowed: 'serverless', 'server'." })
  assert.deepEqual(parseCLIFilters({ target: ['server'] }, {}).target, ['server'])
})
