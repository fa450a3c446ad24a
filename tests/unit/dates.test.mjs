// src/data/dates.ts formats every post's date as Intl does for the site's locale (src/theme/BlogPostItem/Header/Info).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadDefault, loadModule } from '../lib/load.mjs';
import { REPO } from '../lib/fixture-site.mjs';

const { formatPostDate } = loadModule('src/data/dates.ts');
const config = loadDefault('docusaurus.config.ts');

test('the site has one locale, English, the one formatPostDate writes', () => {
  assert.deepEqual(config.i18n.locales, ['en']);
});

test("every post's date, and the first and last day of every month, read as Intl writes them", () => {
  const intl = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const posts = readdirSync(join(REPO, 'blog'))
    .map((name) => /^(\d{4}-\d\d-\d\d)-/.exec(name)?.[1])
    .filter(Boolean);
  assert.ok(posts.length > 0);
  const edges = Array.from({ length: 12 }, (_, m) => [
    new Date(Date.UTC(2026, m, 1)).toISOString(),
    new Date(Date.UTC(2026, m + 1, 0, 23, 59)).toISOString(),
  ]).flat();
  for (const date of [...posts, ...edges]) assert.equal(formatPostDate(date), intl.format(new Date(date)), date);
});
