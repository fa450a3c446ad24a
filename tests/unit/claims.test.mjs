// How scripts/claims.mjs reads the markers of a page and checks them against the behaviour suite's results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkClaims, checkMarkers, declaredTests, formatReport, readClaims } from '../../scripts/claims.mjs';

const PAGE = `---
title: A page
---

# Sessions

A route with \`auth: false\` answers without one. A session function called without a credential answers 403. {/* claim: http#session-required-403 */}

- The cookie is cleared on logout. {/* claim: auth#cookie-cleared, auth#cookie-set */}
- Cloudflare Workers keep no socket open. {/* source: @pikku/cloudflare */}

The runner throws NotFoundError for a missing item.

\`\`\`ts
// The handler returns 200 {/* claim: not#a-marker */}
\`\`\`
`;

test('a marker backs the last sentence before it in its paragraph or list item; code is not read', () => {
  const { claims, untested, problems } = readClaims(PAGE, 'page.mdx');
  assert.deepEqual(problems, []);
  assert.deepEqual(
    claims.map((c) => [c.kind, c.names, c.statement, c.line]),
    [
      ['claim', ['http#session-required-403'], 'A session function called without a credential answers 403.', 7],
      ['claim', ['auth#cookie-cleared', 'auth#cookie-set'], 'The cookie is cleared on logout.', 9],
      ['source', ['@pikku/cloudflare'], 'Cloudflare Workers keep no socket open.', 10],
    ],
  );
  // The first sentence of the paragraph and the unmarked paragraph are listed as untested.
  assert.deepEqual(
    untested.map((u) => u.statement),
    ['A route with auth: false answers without one.', 'The runner throws NotFoundError for a missing item.'],
  );
});

test('a full stop inside inline code, as in a quoted error message, does not end the sentence', () => {
  const { claims } = readClaims(
    'Startup fails with `Expected string. Received number` on a bad key. {/* claim: cli#bad-key */}\n',
    'p.mdx',
  );
  assert.deepEqual(
    claims.map((c) => c.statement),
    ['Startup fails with Expected string. Received number on a bad key.'],
  );
});

test('a malformed id, an empty marker and a marker on its own line are problems naming file and line', () => {
  const { problems } = readClaims(
    'Text. {/* claim: Not An Id */}\n\nMore. {/* claim: */}\n\n{/* claim: a#b */}\n',
    'p.mdx',
  );
  assert.equal(problems.length, 3);
  assert.match(problems[0], /^p\.mdx:1: "Not An Id" is not a test id/);
  assert.match(problems[1], /^p\.mdx:3: an empty claim marker/);
  assert.match(problems[2], /^p\.mdx:5: a marker on a line of its own/);
});

test('checkClaims fails a marker whose test is missing or failed, and counts tested pages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'));
  try {
    const file = join(dir, 'page.mdx');
    writeFileSync(file, PAGE);
    const results = {
      tests: [
        { id: 'http#session-required-403', passed: true },
        { id: 'auth#cookie-set', passed: false },
        { id: null, passed: true },
      ],
    };
    const report = checkClaims(results, [file]);
    assert.equal(report.problems.length, 2);
    assert.match(report.problems[0], /:9: no test auth#cookie-cleared in the behaviour suite/);
    assert.match(report.problems[1], /:9: test auth#cookie-set did not pass/);
    assert.deepEqual(report.totals, { tested: 2, testedPages: 1, source: 1, untested: 2 });
    assert.match(formatReport(report), /2 statements tied to tests on 1 pages; 1 read from source/);
    const twice = checkClaims({ tests: [...results.tests, { id: 'http#session-required-403', passed: true }] }, [file]);
    assert.ok(twice.problems.includes('two tests have the id http#session-required-403'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('checkMarkers, without running the suite, reports a misplaced marker and an id that no test file declares', () => {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'));
  try {
    const suite = join(dir, 'suite');
    mkdirSync(suite);
    writeFileSync(join(suite, 'http.test.ts'), "test('session-required-403: a route answers 403', async () => {})\n");
    writeFileSync(join(suite, 'auth.test.ts'), 'test(`cookie-set: the cookie is set`, async () => {})\n');
    const ids = declaredTests(suite);
    assert.deepEqual([...ids].sort(), ['auth#cookie-set', 'http#session-required-403']);
    const file = join(dir, 'page.mdx');
    writeFileSync(file, PAGE + '\n{/* claim: http#session-required-403 */}\n');
    const problems = checkMarkers(ids, [file]);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /a marker on a line of its own backs nothing/);
    assert.match(problems[1], /:9: no test auth#cookie-cleared in the behaviour suite/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
