#!/usr/bin/env node
// `npm run diagrams`: draws every ```mermaid fence of the content that has no drawing yet (or all of them with
// --force) into src/diagrams/, and removes drawings no fence uses. The build draws missing diagrams itself; this
// script is for redrawing after a Mermaid or theme change, and for pruning.
import { readdirSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGRAMS_DIR, MODES, drawDiagrams, drawingPath } from '../src/plugins/remark-diagrams.mjs';
import { contentDiagrams } from './lib/content.mjs';

const force = process.argv.includes('--force');
const diagrams = (await contentDiagrams()).map((d) => ({ ...d, where: `${d.file}:${d.line}` }));
const wanted = new Set(diagrams.map((d) => d.key));
const todo = [
  ...new Map(
    diagrams.filter((d) => force || MODES.some((m) => !existsSync(drawingPath(d.key, m)))).map((d) => [d.key, d]),
  ).values(),
];
mkdirSync(DIAGRAMS_DIR, { recursive: true });
for (const { key, mode, svg } of await drawDiagrams(todo)) writeFileSync(drawingPath(key, mode), svg);
let removed = 0;
for (const name of readdirSync(DIAGRAMS_DIR))
  if (!wanted.has(name.replace(/-(light|dark)\.svg$/, ''))) {
    rmSync(join(DIAGRAMS_DIR, name));
    removed++;
  }
console.log(`${wanted.size} diagrams: ${todo.length} drawn, ${removed} unused drawings removed`);
