// Every code the pikku CLI links to (src/data/cli-errors.json, taken from the framework's ErrorCode enum) has its
// page at /docs/pikku-cli/errors/<code in lower case>, and the index lists every code and every retired one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, splitFrontMatter } from '../../scripts/lib/content.mjs';

const data = JSON.parse(readFileSync(join(ROOT, 'src', 'data', 'cli-errors.json'), 'utf8'));
const DIR = join(ROOT, 'docs', 'pikku-cli', 'errors');
const pageOf = (code) => join(DIR, `${code.toLowerCase()}.mdx`);

test('the data file lists codes once, each with an area, and no retired code as live', () => {
  const codes = data.codes.map((c) => c.code);
  assert.equal(new Set(codes).size, codes.length);
  for (const c of data.codes) (assert.match(c.code, /^PKU\d{3}$/), assert.ok(c.area, `${c.code} has an area`));
  for (const r of data.retired) assert.ok(!codes.includes(r.code), `${r.code} is retired`);
});

test('every code has its page, titled with the code, and no page exists for anything else', () => {
  const missing = data.codes.filter((c) => !existsSync(pageOf(c.code))).map((c) => c.code);
  assert.deepEqual(missing, []);
  for (const { code } of data.codes) {
    const { data: fm } = splitFrontMatter(readFileSync(pageOf(code), 'utf8'));
    assert.match(String(fm.title), new RegExp(`^${code}\\b`), `${code}'s title starts with its code`);
    assert.ok(fm.tags?.includes('error-codes'), `${code} is tagged error-codes`);
  }
  const known = new Set(data.codes.map((c) => `${c.code.toLowerCase()}.mdx`));
  const stray = readdirSync(DIR).filter((f) => f !== 'index.mdx' && !known.has(f));
  assert.deepEqual(stray, []);
});

test('the index links every code and names every retired code', () => {
  const index = readFileSync(join(DIR, 'index.mdx'), 'utf8');
  for (const { code } of data.codes)
    assert.match(
      index,
      new RegExp(`\\]\\((\\./|/docs/pikku-cli/errors/)?${code.toLowerCase()}(\\.mdx)?\\)`),
      `index links ${code}`,
    );
  for (const { code } of data.retired) assert.ok(index.includes(code), `index names retired ${code}`);
});
