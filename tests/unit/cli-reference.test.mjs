// The CLI reference (docs/cli.mdx) against the real CLI's own description of itself: the command metadata that
// @pikku/cli ships (dist/.pikku/cli/pikku-cli-wirings-meta.gen.json, generated from its cli.wiring.ts). The global
// options table lists exactly the CLI's global options with their short forms, every option the page names exists (a
// boolean one may be named as `--no-<name>`, which core's parser reads as false),
// and every top-level command is named; and on every page but the release posts (which describe the version they
// announce), `pikku <command> --option` names an option of that command or a global one. The section on a project's
// own command-line programs is about the to-do app's `todos` program, not `pikku`, and is left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP } from '../../scripts/app.mjs';
import { ROOT, listMdxFiles } from '../../scripts/lib/content.mjs';
import { fencesOfFile, inlineCodeOfFile } from '../../scripts/lib/fences.mjs';

const cliRoot = join(APP, 'node_modules', '@pikku', 'cli');
const { pikku } = JSON.parse(
  readFileSync(join(cliRoot, 'dist', '.pikku', 'cli', 'pikku-cli-wirings-meta.gen.json'), 'utf8'),
).programs;

const page = readFileSync(join(ROOT, 'docs', 'cli.mdx'), 'utf8');
const OWN_PROGRAMS = '## Your own command-line programs';
assert.ok(page.includes(OWN_PROGRAMS), `docs/cli.mdx has the section "${OWN_PROGRAMS}"`);
const aboutPikku = page.slice(0, page.indexOf(OWN_PROGRAMS));

const camel = (flag) => flag.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
/** Every option name of the CLI: the global ones and those of every command and subcommand. */
const optionNames = new Set();
/** The options whose default is a boolean: core's parser reads `--no-<name>` as false for them. */
const booleanOptions = new Set();
const addOptions = (options = {}) => {
  for (const [name, option] of Object.entries(options)) {
    optionNames.add(name);
    if (typeof option.default === 'boolean') booleanOptions.add(name);
  }
};
addOptions(pikku.options);
(function walk(commands) {
  for (const command of Object.values(commands ?? {})) {
    addOptions(command.options);
    walk(command.subcommands);
  }
})(pikku.commands);

/** Flags the page names that are not pikku's: npm's and tsc's, and one it names as removed. */
const NOT_PIKKU = new Map([
  ['--save-dev', 'npm install'],
  ['--noEmit', 'tsc, which --tsc runs'],
  ['--noAuth', 'named as gone from `pikku enable`'],
  ['--loglevel', 'not declared: named as the spelling whose value the parser keeps anyway'],
]);
/** `--no-<name>` of a boolean option. */
const negated = (flag) => flag.startsWith('--no-') && booleanOptions.has(camel(flag.slice(5)));

test('the global options table lists exactly the CLI global options, with their short forms', () => {
  const section = aboutPikku.slice(aboutPikku.indexOf('## Global options'), aboutPikku.indexOf('## Generating code'));
  const rows = [...section.matchAll(/^\| `([^`]+)` \|([^|]*)\|/gm)].map(([, cell, fallback]) => {
    const short = cell.match(/^-([a-z]), /)?.[1];
    const long = cell.match(/--([A-Za-z]+)/)[1];
    return { long, short, fallback: fallback.trim() };
  });
  assert.deepEqual(rows.map((r) => r.long).sort(), Object.keys(pikku.options).sort());
  for (const { long, short, fallback } of rows) {
    assert.equal(short, pikku.options[long].short, `--${long}: the short form`);
    const real = pikku.options[long].default;
    if (real === true) assert.equal(fallback, `\`${real}\``, `--${long}: the default`);
  }
});

test('every pikku option the page names exists, and the ones it calls gone do not', () => {
  const named = new Set([...aboutPikku.matchAll(/`[^`\n]*?(--[A-Za-z][\w-]*)/g)].map((m) => m[1]));
  const unknown = [...named].filter(
    (flag) => !NOT_PIKKU.has(flag) && !negated(flag) && !optionNames.has(camel(flag.slice(2))),
  );
  assert.deepEqual(unknown, [], 'options named on docs/cli.mdx that @pikku/cli does not have');
  assert.ok(!optionNames.has('noAuth'), 'the page says --noAuth is gone');
});

test('every top-level command is named as `pikku <command>`', () => {
  const missing = Object.keys(pikku.commands).filter((name) => !new RegExp(`pikku ${name}\\b`).test(page));
  assert.deepEqual(missing, []);
});

/** The options `pikku <command ...>` takes: the global ones and those of each command on its path. */
function optionsOf(path) {
  const options = new Set(Object.keys(pikku.options));
  let node = { subcommands: pikku.commands };
  for (const word of path) {
    node = node.subcommands[word];
    for (const name of Object.keys(node.options ?? {})) options.add(name);
  }
  return options;
}

/**
 * Every `pikku ...` command the pages but the release posts write, once each: from an inline code span or a line of
 * a fence (the shared fence reader's parse), as { where, words, rest }: `words` the lower-case words after `pikku`
 * (the command path and maybe more), `rest` what follows them.
 */
const uses = listMdxFiles()
  .filter((f) => !f.startsWith(join(ROOT, 'blog')))
  .flatMap((file) => {
    const name = file.slice(ROOT.length + 1);
    const pieces = [
      ...inlineCodeOfFile(file),
      ...fencesOfFile(file).flatMap((f) => f.code.split('\n').map((code, i) => ({ code, line: f.line + 1 + i }))),
    ];
    return pieces.flatMap(({ code, line }) =>
      [...code.matchAll(/(?:^|[\s(])(?:npx |yarn )?pikku ((?:[a-z][a-z0-9-]* ?)+|[[<]\S*)([^`]*)/g)].map((m) => ({
        where: `${name}:${line}`,
        words: m[1].trim().split(' '),
        rest: m[2],
      })),
    );
  });

/** The command path a use names: its leading words that are a command and subcommands of the CLI. */
function pathOf(words) {
  const path = [];
  let node = { subcommands: pikku.commands };
  for (const word of words) {
    if (!node.subcommands?.[word]) break;
    node = node.subcommands[word];
    path.push(word);
  }
  return path;
}

test('on every page, `pikku <command> --option` names an option that command takes', () => {
  const wrong = [];
  let checked = 0;
  for (const { where, words, rest } of uses) {
    const path = pathOf(words);
    if (!path.length) continue;
    const options = optionsOf(path);
    for (const [, flag] of rest.matchAll(/(?:^|\s)--([A-Za-z][\w-]*)/g)) {
      checked++;
      if (!options.has(camel(flag))) wrong.push(`${where}: pikku ${path.join(' ')} --${flag}`);
    }
  }
  assert.ok(checked > 0, 'the pages name options of pikku commands');
  assert.deepEqual(wrong, []);
});

/** Commands the pages name as absent from this CLI: `console` was removed, `prebuild` never was one. */
const ABSENT = new Set(['console', 'prebuild']);

test('on every page, a `pikku ...` command line names a command (and subcommand) the CLI has', () => {
  const wrong = [];
  for (const { where, words } of uses) {
    const [name, sub] = words;
    const command = pikku.commands[name];
    if (ABSENT.has(name)) assert.ok(!command, `pikku ${name} is named as absent`);
    else if (/^[[<]/.test(name)) continue;
    else if (!command) wrong.push(`${where}: pikku ${words.join(' ')}`);
    else if (command.subcommands && !command.positionals?.length && sub && !command.subcommands[sub])
      wrong.push(`${where}: pikku ${words.join(' ')} (no subcommand ${sub})`);
  }
  assert.ok(uses.length > 0);
  assert.deepEqual(wrong, []);
});
