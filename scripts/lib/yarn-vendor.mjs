// Used by scripts/skills-run.mjs before a skill's `yarn install`: adds to ./package.json a `resolutions` entry per
// vendored @pikku package (vendor/pikku/manifest.json), pointing at its tarball, so Yarn takes the framework build
// the docs describe instead of asking the registry, which stops at core 0.12.84.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENDOR, vendorManifest } from '../app.mjs';

const { packages } = vendorManifest();
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
pkg.resolutions = {
  ...pkg.resolutions,
  ...Object.fromEntries(packages.map((p) => [p.name, `file:${join(VENDOR, p.file)}`])),
};
writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
