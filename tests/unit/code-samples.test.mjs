// Code samples against the published typings of @pikku/core@0.12.84 and the CLI's generated names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAllSamples, checkBlock, exportsOf, generatedKey } from '../../scripts/code-samples.mjs';
import { ROOT } from '../../scripts/content-check.mjs';

test('@pikku/core is pinned to the documented version', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.devDependencies['@pikku/core'], '0.12.84');
  const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@pikku', 'core', 'package.json'), 'utf8'));
  assert.equal(installed.version, '0.12.84');
});

test('every sample imports only names the packages export or the CLI generates', () => {
  const { blocks, problems } = checkAllSamples();
  assert.ok(blocks.length > 200, `checked ${blocks.length} blocks`);
  assert.deepEqual(problems, []);
});

const fake = (code) => checkBlock({ file: join(ROOT, 'docs', 'fake.mdx'), line: 10, code });

test('the check reads real exports per entry point', () => {
  assert.ok(exportsOf('@pikku/core').has('NotFoundError'));
  assert.ok(exportsOf('@pikku/core/errors').has('addError'));
  assert.ok(!exportsOf('@pikku/core').has('addError'), 'addError is not on the root entry (a known trap)');
  assert.equal(exportsOf('@pikku/core/no-such-entry'), null);
  assert.equal(generatedKey('#pikku'), 'pikku-types.gen');
  assert.equal(generatedKey('../.pikku/pikku-fetch.gen.js'), 'pikku-fetch.gen');
  assert.equal(generatedKey('#pikku/pikku-bootstrap.gen.js'), 'pikku-bootstrap.gen');
  assert.equal(generatedKey('@pikku/express'), undefined);
});

test('the check fails, with file and line, on each kind of bad import', () => {
  assert.match(
    fake("import { addError } from '@pikku/core'").join(),
    /fake\.mdx:11: 'addError' is not exported by '@pikku\/core'/,
  );
  assert.match(
    fake("\nimport {\n  NotFoundError,\n  MadeUpError,\n} from '@pikku/core'").join(),
    /fake\.mdx:12: 'MadeUpError'/,
  );
  assert.match(fake("import { x } from '@pikku/core/nowhere'").join(), /not an entry point/);
  assert.match(fake("import { wireMCPTool } from '#pikku'").join(), /'wireMCPTool' is not generated/);
  assert.match(
    fake("import '#pikku/pikku-bootstrap.gen.js'\nimport { a } from '#pikku/made-up.gen.js'").join(),
    /not a module the pikku CLI generates/,
  );
  assert.deepEqual(
    fake("import { pikkuFunc, type Services } from '#pikku'\nimport { ConsoleLogger } from '@pikku/core/services'"),
    [],
  );
});
