// The parser and planner of `npm run test:skills` (scripts/lib/skills.mjs, scripts/skills-run.mjs), on a small
// fixture page (tests/data/skills/fixture.mdx): which steps a page gives, in which order, and how each is carried out.
// The recipes themselves run in `npm run test:skills`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/content.mjs';
import {
  commandKind,
  mergeJSON,
  parseInstall,
  parseSkill,
  runOrder,
  shellLines,
  writeMode,
} from '../../scripts/lib/skills.mjs';
import { parseCurl } from '../../scripts/skills-checks.mjs';
import { developerEnv, loadServicesHarness } from '../../scripts/skills-run.mjs';
import { APP_DIR } from '../../src/plugins/remark-app-code.mjs';

const fixture = parseSkill('fixture', readFileSync(join(ROOT, 'tests', 'data', 'skills', 'fixture.mdx'), 'utf8'));
const summary = (s) => `${s.kind} ${s.path ?? s.line ?? s.text}`;

test('a page becomes its steps, in page order, from Prerequisites to Verify', () => {
  assert.deepEqual(fixture.steps.map(summary), [
    'run npm init -y',
    'install npm install @pikku/core@0.12.90 zod@4.6.7',
    'install npm install --save-dev tsx@4.20.0 github:someone/thing#v1.0.0',
    'file src/config.ts',
    'file package.json',
    'file scripts/hello.ts',
    'file .gitignore',
    'run npm run pikku',
    'background npm start',
    `run curl -i -X POST -H 'Content-Type: application/json' -d '{"title":"x"}' http://localhost:3000/todos`,
    'docker docker run -d --name r -p 6379:6379 redis:7',
    'interactive npx wscat@6.1.0 -c ws://localhost:3000/live',
    'cloud npx wrangler deploy',
    'check `/todos` answers `200`, on two lines.',
    'check The log shows a line.',
  ]);
});

test('prerequisites are the linked skills, except an item starting with "Optional"', () => {
  assert.deepEqual(fixture.prerequisites, ['base', 'extra']);
});

test('files are taken as rendered: a file= fence from the app, a ---cut--- prefix dropped', () => {
  const config = fixture.steps.find((s) => s.path === 'src/config.ts');
  assert.equal(config.code, readFileSync(join(APP_DIR, 'src', 'config.ts'), 'utf8').replace(/\n$/, ''));
  assert.equal(fixture.steps.find((s) => s.path === 'scripts/hello.ts').code, 'console.log(a)');
});

test('JSON merges into an existing file; a line the prose says to add is appended; anything else is written', () => {
  const step = (p) => fixture.steps.find((s) => s.path === p);
  assert.equal(writeMode(step('package.json').fence, true), 'merge');
  assert.equal(writeMode(step('package.json').fence, false), 'write');
  assert.equal(writeMode(step('.gitignore').fence, true), 'append');
  assert.equal(writeMode(step('scripts/hello.ts').fence, true), 'write');
  assert.deepEqual(mergeJSON({ a: 1, s: { x: 'a' }, l: [1] }, { s: { y: 'b' }, l: [2] }), {
    a: 1,
    s: { x: 'a', y: 'b' },
    l: [2],
  });
});

test('install lines give exact versions, and a spec the runner cannot install is kept to be named', () => {
  assert.deepEqual(parseInstall('npm install --save-dev tsx@4.20.0 github:someone/thing#v1.0.0'), {
    dev: true,
    packages: [
      { arg: 'tsx@4.20.0', name: 'tsx', version: '4.20.0' },
      { arg: 'github:someone/thing#v1.0.0', name: null, spec: 'github:someone/thing#v1.0.0' },
    ],
  });
  assert.equal(parseInstall('npm run pikku'), null);
});

test('commands are sorted into how the runner carries them out', () => {
  assert.equal(commandKind('npx tsx src/runtimes/ws.ts'), 'background');
  assert.equal(commandKind('npx tsx src/scheduler.ts'), 'background');
  assert.equal(commandKind('npx tsx scripts/issue-token.ts user-1 member'), 'run');
  assert.equal(commandKind('npx serverless invoke local --function http'), 'run');
  assert.equal(commandKind('npx serverless deploy'), 'cloud');
  assert.equal(commandKind('docker exec pikku-pg psql -c x'), 'docker');
  assert.deepEqual(shellLines('a \\\n  b\n# c\n\nd'), ['a b', 'd']);
});

test('a skill runs after its prerequisites, in topological order, and a cycle or an unknown skill fails', () => {
  const pre = { a: [], b: ['a'], c: ['a'], d: ['c', 'b'] };
  assert.deepEqual(
    runOrder('d', (n) => pre[n], ['a', 'b', 'c', 'd']),
    ['a', 'b', 'c', 'd'],
  );
  assert.throws(() => runOrder('x', () => ['y'], ['x']), /lists y as a prerequisite, which is not a skill/);
  assert.throws(() => runOrder('a', (n) => (n === 'a' ? ['b'] : ['a']), ['a', 'b']), /cycle/);
});

test("recipes run in a developer's environment: no CI markers, no npm_* of the runner", () => {
  const env = developerEnv({
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    npm_lifecycle_event: 'test:skills',
    npm_config_update_notifier: 'false',
    PATH: '/bin',
  });
  assert.deepEqual(env, { npm_config_update_notifier: 'false', PATH: '/bin' });
});

// A page's `docker run ... postgres:` line starts PostgreSQL with the behaviour suite's helper; the harness imports its
// siblings as `./x.js`, which plain Node does not resolve to `x.ts` (CI's test:skills failed on exactly that).
test("the behaviour suite's service helpers load in the skills run", async () => {
  const harness = await loadServicesHarness();
  assert.equal(typeof harness.startPostgres, 'function');
  assert.equal(typeof harness.freePort, 'function');
});

test('curl -i output is read as status, headers and body', () => {
  const r = parseCurl(
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\n\r\n{"message":"x"}',
  );
  assert.equal(r.status, 403);
  assert.equal(r.headers['content-type'], 'application/json');
  assert.equal(r.body, '{"message":"x"}');
});

test('every skill page parses, its prerequisites are skills, and each has steps and checks', () => {
  const src = readFileSync(join(ROOT, 'src', 'data', 'skills.ts'), 'utf8');
  const names = [...src.matchAll(/^\s*'([\w-]+)',$/gm)].map((m) => m[1]);
  const parsed = new Map(names.map((n) => [n, parseSkill(n)]));
  for (const [name, skill] of parsed) {
    assert.doesNotThrow(() => runOrder(name, (n) => parsed.get(n).prerequisites, names), name);
    assert.ok(
      skill.steps.some((s) => s.kind === 'check'),
      `${name} has no Verify items`,
    );
  }
});

test('every "Verify it worked" item of every skill has its check in scripts/skills-checks.mjs', async () => {
  const { CHECKS } = await import('../../scripts/skills-checks.mjs');
  const src = readFileSync(join(ROOT, 'src', 'data', 'skills.ts'), 'utf8');
  const unchecked = [...src.matchAll(/^\s*'([\w-]+)',$/gm)]
    .map((m) => m[1])
    .flatMap((name) =>
      parseSkill(name)
        .steps.filter((s) => s.kind === 'check' && !(CHECKS[name] ?? []).some(([re]) => re.test(s.text)))
        .map((s) => `${name}: ${s.text.slice(0, 80)}`),
    );
  assert.deepEqual(unchecked, []);
});
