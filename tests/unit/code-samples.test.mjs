// Every TypeScript sample compiles against the to-do app in examples/todo-app (strict, current import layout);
// the fixtures in tests/fixtures/samples prove the check fails, naming page, line and error, where it must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkSamples, extractBlocks, sampleFiles, showcaseBlocks } from '../../scripts/code-samples.mjs';
import { ROOT } from '../../scripts/lib/content.mjs';
import remarkAppCode, { readAppCode, visibleCode } from '../../src/plugins/remark-app-code.mjs';

const FIXTURES = join(ROOT, 'tests', 'fixtures', 'samples');
const fixtureFiles = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.mdx'))
  .map((f) => join(FIXTURES, f));
/**
 * The site's samples and the fixture pages, checked together in one program (compiling is the slow part). Each
 * block is its own module, so a fixture's errors stay in the fixture.
 */
const siteBlocks = [...sampleFiles().flatMap(extractBlocks), ...showcaseBlocks()];
const checked = checkSamples([...siteBlocks, ...fixtureFiles.flatMap(extractBlocks)]);
const isFixture = (problem) => problem.includes('tests/fixtures/samples/');
const site = { blocks: siteBlocks, problems: checked.problems.filter((p) => !isFixture(p)) };
/** The problems a fixture page causes. */
const problemsOf = (name) => checked.problems.filter((p) => p.includes(`fixtures/samples/${name}:`));

test('every TypeScript sample on the site compiles against the app, and the app compiles strictly', () => {
  assert.ok(site.blocks.length > 0);
  assert.deepEqual(site.problems, []);
});

test('the app is strict TypeScript with the current import layout', () => {
  const config = readFileSync(join(ROOT, 'examples', 'todo-app', 'tsconfig.json'), 'utf8');
  assert.match(config, /"strict": true/);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'examples', 'todo-app', 'package.json'), 'utf8'));
  assert.deepEqual(pkg.imports, { '#pikku/*.js': './.pikku/*.ts', '#pikku/*': ['./.pikku/*/index.ts', './.pikku/*'] });
});

test('the app is one valid Pikku project: one config and one of each services factory where the CLI looks', () => {
  const app = join(ROOT, 'examples', 'todo-app');
  const { ignoreFiles } = JSON.parse(readFileSync(join(app, 'pikku.config.json'), 'utf8'));
  const ignored = ignoreFiles.map(
    (glob) =>
      new RegExp(
        `${glob
          .replace(/\*\*\//g, '')
          .replace(/\./g, '\\.')
          .replace(/\*/g, '[^/]*')}$`,
      ),
  );
  const inspected = readdirSync(join(app, 'src'), { recursive: true })
    .filter((f) => /\.tsx?$/.test(f) && !ignored.some((re) => re.test(f)))
    .map((f) => readFileSync(join(app, 'src', f), 'utf8'));
  for (const factory of ['pikkuConfig', 'pikkuServices', 'pikkuWireServices'])
    assert.equal(inspected.filter((code) => code.includes(`= ${factory}(`)).length, 1, `one ${factory}`);
});

test('a sample with a type error fails with its page, line and TypeScript error', () => {
  assert.deepEqual(
    problemsOf('type-error.mdx').map((p) => p.split(': ').slice(0, 2).join(': ')),
    ['tests/fixtures/samples/type-error.mdx:9: TS2322'],
  );
});

test('a sample importing the removed root barrel or the #pikku hub fails', () => {
  const problems = problemsOf('removed-layout.mdx').join('\n');
  assert.match(problems, /removed-layout\.mdx:6: the '#pikku' hub was removed/);
  assert.match(problems, /removed-layout\.mdx:7: the '@pikku\/core' root barrel was removed/);
});

test('the generated types are strict: each wrong use of the app fails with its TypeScript error', () => {
  assert.match(problemsOf('wrong-input.mdx').join(), /wrong-input\.mdx:10: TS2353: .*'id' does not exist/);
  assert.match(problemsOf('route-param.mdx').join(), /route-param\.mdx:9: TS2345: .*"id", "not in"/);
  assert.match(problemsOf('undeclared-service.mdx').join(), /undeclared-service\.mdx:9: TS2339: Property 'mailer'/);
  // What tsc accepts and only the CLI refuses is left to scripts/cli-samples.mjs (tests/unit/cli-samples.test.mjs).
  assert.deepEqual(problemsOf('auth-false.mdx'), []);
  assert.deepEqual(problemsOf('undestructured.mdx'), []);
});

test('correct samples pass: pulled regions, cut preludes, cross-block imports and a marked mistake', () => {
  assert.deepEqual(problemsOf('good.mdx'), []);
  const { counts } = checkSamples(extractBlocks(join(FIXTURES, 'good.mdx')), { compile: false });
  assert.deepEqual(counts, { pulled: 1, compiled: 2, mistakes: 1, cliErrors: 1 });
});

test('a marked mistake that compiles, a copied app file and a missing region fail', () => {
  assert.match(problemsOf('mistake-compiles.mdx').join(), /marked mistake="TS2322" but compiles/);
  const copied = problemsOf('copied-app-file.mdx').join('\n');
  assert.match(copied, /shows the app's src\/permissions\.ts: pull it with file=/);
  assert.match(copied, /region="noSuchRegion" is not marked/);
});

test('remark-app-code shows the region, hides the prelude and labels mistakes', () => {
  const shown = readAppCode('src/functions/todos.functions.ts', 'getTodo');
  assert.match(shown, /^export const getTodo = pikkuFunc/);
  assert.doesNotMatch(shown, /#region|#endregion|listTodos/);
  assert.equal(visibleCode("import x from 'y'\n// ---cut---\nconst a = x\n"), 'const a = x\n');
  const tree = {
    type: 'root',
    children: [
      { type: 'code', lang: 'ts', meta: 'file="src/config.ts"', value: '' },
      { type: 'code', lang: 'ts', meta: 'title="src/a.ts" mistake="TS2345"', value: 'a\n// ---cut---\nb' },
    ],
  };
  remarkAppCode()(tree, { path: 'docs/x.mdx' });
  assert.equal(tree.children[0].meta, 'title="src/config.ts"');
  assert.equal(
    tree.children[0].value,
    readFileSync(join(ROOT, 'examples', 'todo-app', 'src', 'config.ts'), 'utf8').trimEnd(),
  );
  assert.match(tree.children[1].meta, /^title="src\/a\.ts \(a deliberate mistake: fails with TS2345\)"$/);
  assert.equal(tree.children[1].value, 'b');
  const broken = { type: 'root', children: [{ type: 'code', lang: 'ts', meta: 'file="src/nope.ts"', value: '' }] };
  assert.throws(
    () => remarkAppCode()(broken, { path: 'docs/broken.mdx' }),
    /docs\/broken\.mdx: file="src\/nope\.ts" is not a file/,
  );
});
